// pybind11 bindings of the neural nets (nnet.h): tavli._core.NeuralNet and NeuralEvaluator; and their
// training (train.h): TdTrainer and evaluate_vs.
// Conversions and shape checks only; the arithmetic is the core's.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "stoppable.h"
#include "tavli/batch.h"
#include "tavli/class_net.h"
#include "tavli/net_suite.h"
#include "tavli/nnet.h"
#include "tavli/train.h"

namespace py = pybind11;
using namespace tavli;

namespace {

using FloatsIn = py::array_t<float, py::array::c_style | py::array::forcecast>;
using RowsIn = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;

py::array_t<float> copy_out(const float* p, std::vector<py::ssize_t> shape) {
  py::array_t<float> a(shape);
  std::memcpy(a.mutable_data(), p, static_cast<std::size_t>(a.size()) * sizeof(float));
  return a;
}

// NaN or infinite values would not fail in the arithmetic, only give garbage (and differ between
// the two paths): refused at the boundary, naming where.
void check_finite(const float* p, py::ssize_t size, py::ssize_t cols, const char* name) {
  // A branch-free pass first (it vectorises: cheap next to the forward pass), then the search.
  int bad = 0;
  for (py::ssize_t i = 0; i < size; ++i) bad |= !(std::fabs(p[i]) <= std::numeric_limits<float>::max());
  if (!bad) return;
  for (py::ssize_t i = 0; i < size; ++i)
    if (!std::isfinite(p[i]))
      throw std::invalid_argument(std::string(name) + " has a NaN or infinite value at " +
                                  (cols > 1 ? "[" + std::to_string(i / cols) + ", " + std::to_string(i % cols) + "]"
                                            : "[" + std::to_string(i) + "]"));
}

// Replaces one weight array from numpy after checking its shape and that every value is finite
// (the net is left unchanged when the new values are refused).
void copy_in(float* dst, const FloatsIn& src, std::vector<py::ssize_t> shape, const char* name) {
  bool ok = src.ndim() == static_cast<py::ssize_t>(shape.size());
  for (std::size_t k = 0; ok && k < shape.size(); ++k) ok = src.shape(static_cast<py::ssize_t>(k)) == shape[k];
  if (!ok) {
    std::string want = "(";
    for (std::size_t k = 0; k < shape.size(); ++k) want += (k ? ", " : "") + std::to_string(shape[k]);
    throw std::invalid_argument(std::string(name) + " must have shape " + want + (shape.size() == 1 ? ",)" : ")"));
  }
  check_finite(src.data(), src.size(), shape.size() == 2 ? shape[1] : 1, name);
  std::memcpy(dst, src.data(), static_cast<std::size_t>(src.size()) * sizeof(float));
}

void check_family(const NeuralEvaluator& ev, const Rules& rules) {
  if (!ev.supports(rules)) throw std::invalid_argument(ev.refusal(rules));
}

}  // namespace

void bind_nnet(py::module_& m) {
  m.def("net_family", [](const std::string& variant) { return std::string(net_family(variant_from_name(variant))); },
        py::arg("variant"), "The family of nets that serves a variant (nnet.h).");

  py::class_<NeuralNet, std::shared_ptr<NeuralNet>>(
      m, "NeuralNet", "A dense net: inputs -> sigmoid hidden layer -> 5 sigmoid outputs (cpp/include/tavli/nnet.h).")
      .def(py::init([](const std::string& family, int hidden, const std::string& encoding, int inputs,
                       std::uint64_t seed) {
             // Defaults: the family's encoding, and that encoding's size.
             const std::string enc = encoding.empty() ? encoding_name(net_family_encoding(family)) : encoding;
             const int in = inputs ? inputs : enc == "raw" ? 0 : encoding_size(encoding_from_name(enc), false);
             return std::make_shared<NeuralNet>(in, hidden, enc, family, seed);
           }),
           py::arg("family"), py::arg("hidden"), py::arg("encoding") = "", py::arg("inputs") = 0, py::arg("seed") = 0,
           "A net with small seeded random weights. encoding '' is the family's; inputs 0 is the encoding's size.")
      .def_static("load", [](const std::string& path) { return std::make_shared<NeuralNet>(NeuralNet::load(path)); },
                  py::arg("path"), "Reads a weight file, checking all of it (ValueError naming the problem).")
      .def("save", [](NeuralNet& n, const std::string& path, py::object metadata) {
        if (!metadata.is_none()) n.set_metadata(metadata.cast<std::string>());
        n.save(path);
      }, py::arg("path"), py::arg("metadata") = py::none(), "Writes the weight file atomically (temporary file + rename).")
      .def("copy", [](const NeuralNet& n) { return std::make_shared<NeuralNet>(n); })
      .def_property_readonly("inputs", &NeuralNet::inputs)
      .def_property_readonly("hidden", &NeuralNet::hidden)
      .def_property_readonly("outputs", &NeuralNet::outputs)
      .def_property_readonly("encoding", &NeuralNet::encoding)
      .def_property_readonly("family", &NeuralNet::family)
      .def_property("metadata", &NeuralNet::metadata, &NeuralNet::set_metadata)
      .def_property_readonly("version", &NeuralNet::version,
                             "Changes whenever the weights or the forward path may have changed; copies keep it.")
      .def_property_readonly("avx2", &NeuralNet::avx2, "True when forward uses the AVX2 + FMA path.")
      .def_property("force_scalar", [](const NeuralNet& n) { return !n.avx2(); }, &NeuralNet::force_scalar,
                    "Set to use the portable path even where the CPU has AVX2 (for tests).")
      .def_static("cpu_has_avx2", &NeuralNet::cpu_has_avx2)
      .def_property_readonly("avx512", &NeuralNet::avx512,
                             "True when the sparse forward pass (the evaluator's) runs its layers on AVX-512F.")
      .def_property("force_avx2", [](const NeuralNet& n) { return !n.avx512(); }, &NeuralNet::force_avx2,
                    "Set to keep the AVX2 path where the CPU has AVX-512F (bit-identical; for tests and timing).")
      .def_static("cpu_has_avx512", &NeuralNet::cpu_has_avx512)
      .def_property("w1", [](const NeuralNet& n) { return copy_out(n.w1(), {n.inputs(), n.hidden()}); },
                    [](NeuralNet& n, const FloatsIn& a) { copy_in(n.w1(), a, {n.inputs(), n.hidden()}, "w1"); },
                    "Input layer weights (inputs, hidden), input-major (a copy).")
      .def_property("b1", [](const NeuralNet& n) { return copy_out(n.b1(), {n.hidden()}); },
                    [](NeuralNet& n, const FloatsIn& a) { copy_in(n.b1(), a, {n.hidden()}, "b1"); })
      .def_property("w2", [](const NeuralNet& n) { return copy_out(n.w2(), {n.outputs(), n.hidden()}); },
                    [](NeuralNet& n, const FloatsIn& a) { copy_in(n.w2(), a, {n.outputs(), n.hidden()}, "w2"); },
                    "Output layer weights (5, hidden), output-major (a copy).")
      .def_property("b2", [](const NeuralNet& n) { return copy_out(n.b2(), {n.outputs()}); },
                    [](NeuralNet& n, const FloatsIn& a) { copy_in(n.b2(), a, {n.outputs()}, "b2"); })
      .def("forward", [](const NeuralNet& n, const FloatsIn& x, bool with_hidden) -> py::object {
        if (x.ndim() != 2 || x.shape(1) != n.inputs())
          throw std::invalid_argument("x must be a float32 array of shape (N, " + std::to_string(n.inputs()) + ")");
        if (x.shape(0) > (1 << 30)) throw std::invalid_argument("x: too many rows");
        check_finite(x.data(), x.size(), x.shape(1), "x");
        const int rows = static_cast<int>(x.shape(0));
        py::array_t<float> out({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(NeuralNet::kOutputs)});
        py::array_t<float> hid;
        if (with_hidden) hid = py::array_t<float>({static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(n.hidden())});
        float* o = out.mutable_data();
        float* h = with_hidden ? hid.mutable_data() : nullptr;
        {
          py::gil_scoped_release release;
          n.forward_batch(x.data(), rows, o, h);
        }
        if (with_hidden) return py::make_tuple(out, hid);
        return std::move(out);
      }, py::arg("x"), py::arg("with_hidden") = false,
      "Outputs (N, 5) for inputs (N, inputs); with_hidden=True also returns the hidden activations.");

  // The shipped nets as one evaluator (net_suite.h); tavli.nn builds it from the package's files.
  py::class_<NetSuite, Evaluator, std::shared_ptr<NetSuite>>(m, "NetSuite", "One net per variant, the heuristic elsewhere.")
      .def(py::init<>())
      .def("assign", [](NetSuite& s, const std::vector<std::string>& variants, const NeuralNet& net) {
             const auto copy = std::make_shared<const NeuralNet>(net);  // one copy serves them all
             for (const std::string& v : variants) s.assign(variant_from_name(v), copy);
           }, py::arg("variants"), py::arg("net"), "Serve `variants` with a copy of `net` (before any use).")
      .def("assign_classes", [](NetSuite& s, const std::vector<std::string>& variants,
                                std::shared_ptr<ClassNetEvaluator> nets) {
             for (const std::string& v : variants) s.assign(variant_from_name(v), nets);
           }, py::arg("variants"), py::arg("nets"), "Serve `variants` with class nets (class_net.h; before any use).")
      .def("assign_pruner", [](NetSuite& s, const std::vector<std::string>& variants, const NeuralNet& net) {
             const auto copy = std::make_shared<const NeuralNet>(net);
             for (const std::string& v : variants) s.assign_pruner(variant_from_name(v), copy);
           }, py::arg("variants"), py::arg("net"),
           "Give `variants` a pruning net (search.h, \"Pruning\"; a copy of `net`, before any use).")
      .def("serves", [](const NetSuite& s, const std::string& variant) {
             return s.serves(variant_from_name(variant));
           }, py::arg("variant"));

  // A snapshot of a net: the evaluator copies it, so changing the Python net afterwards (even from
  // another thread while a search runs without the GIL) does not touch a running search.
  py::class_<NeuralEvaluator, Evaluator, std::shared_ptr<NeuralEvaluator>>(m, "NeuralEvaluator",
                                                                "Static evaluation by a net (a copy of it).")
      .def(py::init([](const NeuralNet& net) {
             return std::make_shared<NeuralEvaluator>(std::make_shared<const NeuralNet>(net));
           }),
           py::arg("net"))
      .def("supports", [](const NeuralEvaluator& ev, const Game& g) { return ev.supports(g.rules()); }, py::arg("board"))
      .def("_evaluate_rows", [](const NeuralEvaluator& ev, const Game& like, const RowsIn& rows) {
        const Rules& rules = like.rules();
        check_family(ev, rules);
        if (rows.ndim() != 2 || rows.shape(1) != kRowBytes)
          throw std::invalid_argument("positions must be a uint8 array of shape (N, " + std::to_string(kRowBytes) + ")");
        if (rows.shape(0) > (1 << 30)) throw std::invalid_argument("positions: too many rows");
        const int n = static_cast<int>(rows.shape(0));
        std::vector<Position> positions(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
          try {
            Player t;
            positions[static_cast<std::size_t>(i)] = Position::from_row(rows.data() + kRowBytes * i, &t);
            validate_position(positions[static_cast<std::size_t>(i)], rules);
            if (game_outcome(positions[static_cast<std::size_t>(i)], rules, t))
              throw std::invalid_argument("the game is over (evaluate positions still in play)");
          } catch (const std::invalid_argument& e) {
            throw InvalidPosition("row " + std::to_string(i) + ": " + e.what());
          }
        }
        std::vector<Probabilities> p(static_cast<std::size_t>(n));
        {
          py::gil_scoped_release release;
          ev.evaluate(positions.data(), n, rules, p.data());
        }
        py::array_t<float> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(kEvalColumns)});
        float* o = out.mutable_data();
        for (int i = 0; i < n; ++i) {  // the columns of batch_evaluate (batch.h)
          const Probabilities& q = p[static_cast<std::size_t>(i)];
          const float row[kEvalColumns] = {q.win,         q.win_double, q.win_triple, q.lose_double,
                                           q.lose_triple, q.draw,       q.margin,     q.equity()};
          std::memcpy(o + kEvalColumns * i, row, sizeof row);
        }
        return out;
      }, py::arg("board"), py::arg("rows"),
      "Static values (N, 8: win, win_double, win_triple, lose_double, lose_triple, draw, margin, equity) of "
      "position rows of the board's game, for the side to move. Games that are over are not allowed.");

  // Training (train.h). The loop runs without the GIL; between games it takes the GIL for a moment
  // to let Python handle signals, so Ctrl-C stops a call at a game boundary (KeyboardInterrupt, the
  // net and the game counter consistent).
  using Options = std::vector<std::pair<std::string, std::string>>;
  py::class_<TdTrainer, std::shared_ptr<TdTrainer>>(m, "TdTrainer",
                                                    "TD(lambda) self-play training of a net (cpp/include/tavli/train.h).")
      .def(py::init([](std::shared_ptr<NeuralNet> net, const std::string& variant, const Options& options,
                       double alpha, double lambda, double epsilon, std::uint64_t seed, int max_plies,
                       std::int64_t games_done, int batch_games) {
             TdOptions o;
             o.alpha = alpha;
             o.lambda = lambda;
             o.epsilon = epsilon;
             o.seed = seed;
             o.max_plies = max_plies;
             o.batch_games = batch_games;
             return std::make_shared<TdTrainer>(std::move(net), make_rules(variant_from_name(variant), options), o,
                                                games_done);
           }),
           py::arg("net"), py::arg("variant"), py::arg("options") = Options{}, py::arg("alpha") = 0.1,
           py::arg("lambda_") = 0.7, py::arg("epsilon") = 0.0, py::arg("seed") = 1, py::arg("max_plies") = 10000,
           py::arg("games_done") = 0, py::arg("batch_games") = 1, py::keep_alive<1, 2>())
      .def("train", [](TdTrainer& t, std::int64_t n, int threads) {
        if (n < 0) throw std::invalid_argument("games must be >= 0");
        bool interrupted = false;
        TdStats st;
        {
          py::gil_scoped_release release;
          st = t.train(n, [&]() {
            py::gil_scoped_acquire acquire;
            if (PyErr_CheckSignals() != 0) interrupted = true;
            return interrupted;
          }, threads);
        }
        if (interrupted) throw py::error_already_set();
        py::dict d;
        d["games"] = st.games;
        d["plies"] = st.plies;
        d["unfinished"] = st.unfinished;
        return d;
      }, py::arg("games"), py::arg("threads") = 1,
         "Plays and learns from the next `games` games (on up to `threads` threads with batch_games > 1); "
         "returns {games, plies, unfinished}.")
      .def_property_readonly("games", &TdTrainer::games, "Games played so far (the next game's index).")
      .def_property("alpha", [](const TdTrainer& t) { return t.options().alpha; }, &TdTrainer::set_alpha)
      .def_property_readonly("lambda_", [](const TdTrainer& t) { return t.options().lambda; })
      .def_property_readonly("epsilon", [](const TdTrainer& t) { return t.options().epsilon; })
      .def_property_readonly("seed", [](const TdTrainer& t) { return t.options().seed; })
      .def_property_readonly("max_plies", [](const TdTrainer& t) { return t.options().max_plies; })
      .def_property_readonly("batch_games", [](const TdTrainer& t) { return t.options().batch_games; })
      .def("_td_step", [](TdTrainer& t, const FloatsIn& x, const FloatsIn& target, bool fresh) {
        if (x.ndim() != 1 || x.shape(0) != t.net().inputs())
          throw std::invalid_argument("x must have shape (" + std::to_string(t.net().inputs()) + ",)");
        if (target.ndim() != 1 || target.shape(0) != NeuralNet::kOutputs)
          throw std::invalid_argument("target must have shape (5,)");
        check_finite(x.data(), x.size(), 1, "x");
        check_finite(target.data(), target.size(), 1, "target");
        float before[NeuralNet::kOutputs];
        t.td_step(x.data(), target.data(), fresh, before);
        return copy_out(before, {NeuralNet::kOutputs});
      }, py::arg("x"), py::arg("target"), py::arg("fresh") = true,
      "One TD step on an encoded state toward a target (train.h); returns the outputs before it.");

  m.def("evaluate_vs", [](std::shared_ptr<NeuralNet> net, const std::string& variant, const Options& options,
                          const std::string& opponent, std::int64_t games, std::uint64_t seed, int threads,
                          int max_plies) {
    const Rules rules = make_rules(variant_from_name(variant), options);
    VsResult r;
    {
      // A snapshot: the games do not see later changes to the net.
      auto snapshot = std::make_shared<const NeuralNet>(*net);
      r = tavli_bindings::run_stoppable(0, [&] { return evaluate_vs(snapshot, rules, opponent, games, seed, threads, max_plies); });
    }
    py::dict d;
    d["games"] = r.games;
    d["net_wins"] = r.net_wins;
    d["opponent_wins"] = r.opponent_wins;
    d["other"] = r.other;
    d["net_points"] = r.net_points;
    d["opponent_points"] = r.opponent_points;
    return d;
  }, py::arg("net"), py::arg("variant"), py::arg("options"), py::arg("opponent"), py::arg("games"),
     py::arg("seed") = 0, py::arg("threads") = 1, py::arg("max_plies") = 10000,
     "Games of the net's 0-ply player against 'heuristic' or 'random', colours alternating, dice mirrored in "
     "pairs (train.h); returns {games, net_wins, opponent_wins, other, net_points, opponent_points}.");
}
