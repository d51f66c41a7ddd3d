// pybind11 bindings of the variant table (variant.h): the games, their options and their facts.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "tavli/match.h"
#include "tavli/movegen.h"
#include "tavli/variant.h"

namespace py = pybind11;
using namespace tavli;

void bind_variants(py::module_& m) {
  m.def("facing_point", [](const std::string& movement, std::int64_t r) {
    return checked_facing_point(movement_from_name(movement), r);
  }, py::arg("movement"), py::arg("r"),
        "The other side's route index of the point that is route index r (0..23) for one side, in a game of "
        "that movement ('contrary' or 'parallel'): movegen.h's facing_point.");
  m.def("variants", [] {
    std::vector<std::string> names;
    for (const auto& v : variant_table()) names.push_back(v.name);
    return names;
  }, "Names of the variants the engine plays.");

  m.def("variant_options", [](const std::string& name) {
    py::list out;
    for (const auto& o : variant_info(variant_from_name(name)).options) {
      py::list choices;
      for (const auto& c : o.choices) {
        if (o.integer) choices.append(std::stoi(c[0]));
        else choices.append(c[0]);
      }
      py::dict d;
      d["name"] = o.name;
      d["choices"] = choices;
      d["default"] = choices[static_cast<std::size_t>(o.default_index)];
      d["help"] = o.help;
      out.append(d);
    }
    return out;
  }, py::arg("variant"), "The options of a variant: name, allowed values, default and a description.");

  m.def("variant_info", [](const std::string& name) {
    const VariantInfo& v = variant_info(variant_from_name(name));
    py::dict d;
    d["name"] = v.name;
    d["net_family"] = v.facts.net_family;
    d["encoding"] = v.facts.encoding;
    d["opening"] = opening_name(v.opening_dice ? Opening::UseOpeningDice : Opening::Reroll);
    d["next_starter"] = next_starter_name(v.facts.next_starter);
    d["match_target"] = v.facts.match_target;
    d["takes_cube"] = v.takes_cube;
    d["movement"] = movement_name(v.movement);
    return d;
  }, py::arg("variant"),
        "A game's facts from the variant table (cpp/include/tavli/variant.h): its net family and default "
        "encoding, the match defaults (opening, next_starter, match_target), whether it takes the cube, and "
        "its movement (parallel: the facing point of r is (r + 12) % 24; contrary: 23 - r).");

  m.def("canonical_variant", [](const std::string& name) { return variant_info(variant_from_name(name)).name; },
        py::arg("name"), "The canonical name of a variant given by name or alias.");
}
