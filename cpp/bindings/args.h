// Arguments shared by the binding files: the evaluator of a search or a player (analysis,
// evaluation, rollouts) and the players of self-play and rollouts.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "tavli/eval.h"
#include "tavli/nnet.h"
#include "tavli/sim.h"

namespace tavli_bindings {

// The evaluator at a search's leaves: the heuristic (None), or a tavli._core.NeuralEvaluator, which
// `keep` holds for the duration of the search.
inline const tavli::Evaluator& evaluator_arg(pybind11::handle ev, const tavli::Rules& rules,
                                             std::shared_ptr<tavli::NeuralEvaluator>& keep) {
  if (ev.is_none()) return tavli::heuristic_evaluator();
  try {
    keep = ev.cast<std::shared_ptr<tavli::NeuralEvaluator>>();
  } catch (const pybind11::cast_error&) {
    throw std::invalid_argument("evaluator: expected None (the heuristic) or a tavli.nn.Net");
  }
  if (!keep->supports(rules))
    throw std::invalid_argument("evaluator: a net of family '" + keep->net().family() + "' cannot evaluate " +
                                rules.info().name + " (family '" + tavli::net_family(rules.variant) + "')");
  return *keep;
}

// Probabilities as the Python side reads them (tavli.Probabilities' field order).
inline pybind11::tuple probs_tuple(const tavli::Probabilities& p) {
  return pybind11::make_tuple(p.win, p.win_double, p.win_triple, p.lose_double, p.lose_triple, p.draw, p.margin);
}

// A player from its kind ("random", "greedy", "search"), search depth and move filters.
inline tavli::PlayerSpec player_arg(const std::string& kind, int plies,
                                    const std::vector<std::tuple<int, int, double>>& filters) {
  tavli::PlayerSpec p;
  if (kind == "random") p.kind = tavli::PlayerSpec::Kind::Random;
  else if (kind == "greedy") p.kind = tavli::PlayerSpec::Kind::Greedy;
  else if (kind == "search") p.kind = tavli::PlayerSpec::Kind::Search;
  else throw std::invalid_argument("player kind must be random, greedy or search, got '" + kind + "'");
  if (plies < 0 || plies > 8) throw std::invalid_argument("player plies must be 0..8");
  p.plies = plies;
  for (const auto& [a, e, th] : filters) p.filters.push_back(tavli::MoveFilter{a, e, static_cast<float>(th)});
  return p;
}

}  // namespace tavli_bindings
