// pybind11 bindings of rollouts (rollout.h): tavli._core._rollout, and for shards
// _rollout_blocks and _rollout_combine; a roll's plays on common dice (play_rollout.h):
// _rollout_plays, and cubefully _cubeful_rollout_plays; cubeful rollouts (cubeful_rollout.h):
// _cubeful_rollout and _cubeful_rollout_decision, and for shards _cubeful_rollout_blocks and
// _cubeful_rollout_combine. Conversions only.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "args.h"
#include "play_object.h"
#include "stoppable.h"
#include "tavli/cubeful_rollout.h"
#include "tavli/play_rollout.h"
#include "tavli/rollout.h"

namespace py = pybind11;
using namespace tavli;

using tavli_bindings::probs_tuple;

namespace {

using Filters = std::vector<std::tuple<int, int, double>>;

// The luck adjustment's evaluator (rollout.h): None, the player's own lookahead; "heuristic", the
// hand-written evaluator; else a core evaluator as evaluator_ptr takes it.
std::shared_ptr<const Evaluator> luck_arg(py::handle luck) {
  if (py::isinstance<py::str>(luck) && luck.cast<std::string>() == "heuristic")
    return std::shared_ptr<const Evaluator>(&heuristic_evaluator(), [](const Evaluator*) {});  // static: not owned
  return tavli_bindings::evaluator_ptr(luck);
}

RolloutOptions rollout_options(std::int64_t trials, const std::string& kind, int plies, const Filters& filters,
                               int truncate, std::uint64_t seed, int threads, bool stratify,
                               bool variance_reduction, py::handle luck_evaluator) {
  RolloutOptions opt;
  opt.trials = trials;
  opt.player = tavli_bindings::player_arg(kind, plies, filters);  // as tavli.sim._player parses it
  opt.truncate = truncate;
  opt.seed = seed;
  opt.threads = threads;
  opt.stratify = stratify;
  opt.variance_reduction = variance_reduction;
  opt.luck_evaluator = luck_arg(luck_evaluator);
  return opt;
}

py::tuple result_tuple(const RolloutResult& r) {
  return py::make_tuple(probs_tuple(r.mean), r.equity, probs_tuple(r.std_error), r.equity_std_error, r.trials,
                        r.truncated);
}

// A block's moments as one float64 row: n, truncated, the 8 means, the 8 sums of squared
// deviations (counts below 2^53 are exact in a double).
constexpr int kMomentColumns = 2 + 2 * RolloutMoments::kFields;

py::array_t<double> block_rows(const std::vector<RolloutMoments>& blocks) {
  py::array_t<double> out({static_cast<py::ssize_t>(blocks.size()), static_cast<py::ssize_t>(kMomentColumns)});
  auto a = out.mutable_unchecked<2>();
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const auto i = static_cast<py::ssize_t>(b);
    a(i, 0) = static_cast<double>(blocks[b].n);
    a(i, 1) = static_cast<double>(blocks[b].truncated);
    for (int f = 0; f < RolloutMoments::kFields; ++f) {
      a(i, 2 + f) = blocks[b].mean[f];
      a(i, 2 + RolloutMoments::kFields + f) = blocks[b].m2[f];
    }
  }
  return out;
}

// The rows back as blocks; `lines`: the most truncated trials a trial counts (a cube decision's two).
std::vector<RolloutMoments> blocks_of(const py::array_t<double, py::array::c_style | py::array::forcecast>& rows,
                                      int lines) {
  if (rows.ndim() != 2 || rows.shape(1) != kMomentColumns)
    throw std::invalid_argument("rollout blocks: expected an array of shape (B, " + std::to_string(kMomentColumns) +
                                ")");
  auto a = rows.unchecked<2>();
  std::vector<RolloutMoments> blocks(static_cast<std::size_t>(rows.shape(0)));
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const auto i = static_cast<py::ssize_t>(b);
    if (!(a(i, 0) >= 1 && a(i, 0) <= static_cast<double>(kRolloutBlock)) || a(i, 1) < 0 ||
        a(i, 1) > lines * a(i, 0) || a(i, 0) != std::floor(a(i, 0)) || a(i, 1) != std::floor(a(i, 1)))
      throw std::invalid_argument("rollout blocks: row " + std::to_string(b) + " has bad counts");
    blocks[b].n = static_cast<std::int64_t>(a(i, 0));
    blocks[b].truncated = static_cast<std::int64_t>(a(i, 1));
    for (int f = 0; f < RolloutMoments::kFields; ++f) {
      blocks[b].mean[f] = a(i, 2 + f);
      blocks[b].m2[f] = a(i, 2 + RolloutMoments::kFields + f);
    }
  }
  if (blocks.empty()) throw std::invalid_argument("rollout blocks: none");
  return blocks;
}

py::object maybe(double v) { return std::isnan(v) ? py::object(py::none()) : py::object(py::float_(v)); }

CubefulRolloutOptions cubeful_options(const CubeState& cube, const MatchState& match, const MatchEquityTable& met,
                                      RolloutOptions rollout) {
  CubefulRolloutOptions opt;
  opt.rollout = std::move(rollout);
  opt.cube = cube;
  opt.match = match;
  opt.met = &met;
  return opt;
}

py::tuple value_tuple(const CubefulRolloutValue& r) {
  return py::make_tuple(r.equity, r.equity_std_error, maybe(r.mwc), maybe(r.mwc_std_error), r.trials, r.truncated);
}

py::tuple decision_tuple(const CubefulRolloutDecision& r) {
  const CubeDecision& d = r.decision;
  return py::make_tuple(d.available, d.nd, maybe(d.dt), maybe(d.dp), maybe(d.nd_mwc), maybe(d.dt_mwc),
                        maybe(d.dp_mwc), action_name(d.action), take_name(d.take), d.efficiency, r.nd_std_error,
                        maybe(r.dt_std_error), maybe(r.nd_mwc_std_error), maybe(r.dt_mwc_std_error),
                        maybe(r.difference_std_error), r.trials, r.truncated);
}

// A cubeful rollout entry point `name`: `run` (cubeful_rollout.h) on the board's position, its
// result converted by `convert`.
template <class Result, class Convert>
void def_cubeful(py::module_& m, const char* name,
                 Result (*run)(const Position&, const Rules&, Player, const Evaluator&, const CubefulRolloutOptions&),
                 Convert convert, const char* doc) {
  m.def(
      name,
      [run, convert](const Game& g, const CubeState& cube, const MatchState& match, const MatchEquityTable& met,
                     std::int64_t trials, const std::string& kind, int plies, const Filters& filters, int truncate,
                     std::uint64_t seed, int threads, bool stratify, bool variance_reduction, py::handle evaluator,
                     py::handle luck_evaluator, double time_limit) {
        const CubefulRolloutOptions opt = cubeful_options(
            cube, match, met,
            rollout_options(trials, kind, plies, filters, truncate, seed, threads, stratify, variance_reduction,
                            luck_evaluator));
        std::shared_ptr<const Evaluator> keep;
        const Evaluator& ev = tavli_bindings::evaluator_arg(evaluator, g.rules(), keep);
        return convert(tavli_bindings::run_stoppable(
            time_limit, [&] { return run(g.position(), g.rules(), g.turn(), ev, opt); }));
      },
      py::arg("board"), py::arg("cube"), py::arg("match"), py::arg("met"), py::arg("trials"), py::arg("kind"),
      py::arg("plies"), py::arg("filters"), py::arg("truncate"), py::arg("seed"), py::arg("threads"),
      py::arg("stratify"), py::arg("variance_reduction"), py::arg("evaluator"),
      py::arg("luck_evaluator"), py::arg("time_limit") = 0.0, doc);
}
// The plays a caller gave, each checked to be a legal play of the board for one and the same roll
// (as Board.push checks a play), or IllegalMove (a finished game has none).
std::vector<Play> legal_plays_of(const Game& g, const py::sequence& given) {
  if (g.outcome()) throw IllegalMove("the game is over: there are no legal plays");
  std::vector<Play> plays;
  plays.reserve(given.size());
  Dice roll{};
  for (py::handle o : given) {
    const auto* p = tavli_bindings::checked_play(o);
    if (plays.empty())
      roll = p->dice;
    else if (p->dice.high() != roll.high() || p->dice.low() != roll.low())
      throw IllegalMove("the plays of a play rollout must be of one roll");
    const std::string which = "play " + std::to_string(plays.size() + 1) + " of the rollout";
    Play legal;
    try {
      legal = g.find_play(p->play.steps, p->play.nsteps, p->dice);
    } catch (const IllegalMove& e) {
      throw IllegalMove(which + " is not a legal play here: " + e.what());
    }
    if (!(legal.result == p->play.result))
      throw IllegalMove(which + " belongs to another position (its steps lead elsewhere here)");
    plays.push_back(legal);
  }
  return plays;
}

// A play rollout's K x K standard errors of the differences (row-major) as a numpy array.
py::array_t<double> difference_matrix(const std::vector<double>& se, std::size_t k) {
  py::array_t<double> out({static_cast<py::ssize_t>(k), static_cast<py::ssize_t>(k)});
  std::copy(se.begin(), se.end(), out.mutable_data());
  return out;
}

}  // namespace

void bind_rollout(py::module_& m) {
  m.attr("ROLLOUT_BLOCK") = kRolloutBlock;  // shards of a rollout start on multiples of it
  m.attr("MAX_ROLLOUT_PLAYS") = kMaxRolloutPlays;
  m.attr("MAX_ELIMINATE") = kMaxEliminate;
  m.def(
      "_rollout",
      [](const Game& g, std::int64_t trials, const std::string& kind, int plies, const Filters& filters, int truncate,
         std::uint64_t seed, int threads, bool stratify, bool variance_reduction, py::handle evaluator,
         py::handle luck_evaluator, double time_limit) {
        const RolloutOptions opt = rollout_options(trials, kind, plies, filters, truncate, seed, threads, stratify,
                                                   variance_reduction, luck_evaluator);
        std::shared_ptr<const Evaluator> keep;
        const Evaluator& ev = tavli_bindings::evaluator_arg(evaluator, g.rules(), keep);
        return result_tuple(
            tavli_bindings::run_stoppable(time_limit, [&] { return rollout(g.position(), g.rules(), ev, opt); }));
      },
      py::arg("board"), py::arg("trials"), py::arg("kind"), py::arg("plies"), py::arg("filters"), py::arg("truncate"),
      py::arg("seed"), py::arg("threads"), py::arg("stratify"), py::arg("variance_reduction"), py::arg("evaluator"),
      py::arg("luck_evaluator"), py::arg("time_limit") = 0.0,
      "Rollout of the board's position (cpp/include/tavli/rollout.h): (mean probabilities, equity, their standard "
      "errors, the equity's, trials, truncated). Releases the GIL; Ctrl-C: KeyboardInterrupt; time_limit "
      "(seconds, 0: none) passed: TimeoutError.");

  m.def(
      "_rollout_plays",
      [](const Game& g, const py::sequence& given, std::int64_t trials, const std::string& kind, int plies,
         const Filters& filters, int truncate, std::uint64_t seed, int threads, bool stratify, bool variance_reduction,
         py::handle evaluator, py::handle luck_evaluator, double eliminate, double time_limit) {
        const RolloutOptions opt = rollout_options(trials, kind, plies, filters, truncate, seed, threads, stratify,
                                                   variance_reduction, luck_evaluator);
        std::shared_ptr<const Evaluator> keep;
        const Evaluator& ev = tavli_bindings::evaluator_arg(evaluator, g.rules(), keep);
        const std::vector<Play> plays = legal_plays_of(g, given);
        const PlayRollout r = tavli_bindings::run_stoppable(
            time_limit, [&] { return rollout_plays(g.position(), g.rules(), plays, ev, opt, eliminate); });
        py::list results;
        for (const RolloutResult& one : r.plays) results.append(result_tuple(one));
        return py::make_tuple(results, difference_matrix(r.difference_std_error, plays.size()));
      },
      py::arg("board"), py::arg("plays"), py::arg("trials"), py::arg("kind"), py::arg("plies"), py::arg("filters"),
      py::arg("truncate"), py::arg("seed"), py::arg("threads"), py::arg("stratify"), py::arg("variance_reduction"),
      py::arg("evaluator"), py::arg("luck_evaluator"), py::arg("eliminate") = 0.0, py::arg("time_limit") = 0.0,
      "Rollouts of legal plays of the board for one roll on common dice (cpp/include/tavli/play_rollout.h): (a list "
      "of _rollout's tuples, for the side that plays, one per play in order; the K x K standard errors of their "
      "equities' differences). Releases the GIL; Ctrl-C: KeyboardInterrupt; time_limit passed: TimeoutError.");

  m.def(
      "_rollout_blocks",
      [](const Game& g, std::int64_t trials, std::int64_t first, std::int64_t count, const std::string& kind,
         int plies, const Filters& filters, int truncate, std::uint64_t seed, int threads, bool stratify,
         bool variance_reduction, py::handle evaluator, py::handle luck_evaluator, double time_limit) {
        const RolloutOptions opt =
            rollout_options(trials, kind, plies, filters, truncate, seed, threads, stratify, variance_reduction,
                            luck_evaluator);
        std::shared_ptr<const Evaluator> keep;
        const Evaluator& ev = tavli_bindings::evaluator_arg(evaluator, g.rules(), keep);
        return block_rows(tavli_bindings::run_stoppable(
            time_limit, [&] { return rollout_blocks(g.position(), g.rules(), ev, opt, first, count); }));
      },
      py::arg("board"), py::arg("trials"), py::arg("first"), py::arg("count"), py::arg("kind"), py::arg("plies"),
      py::arg("filters"), py::arg("truncate"), py::arg("seed"), py::arg("threads"), py::arg("stratify"),
      py::arg("variance_reduction"), py::arg("evaluator"),
      py::arg("luck_evaluator"), py::arg("time_limit") = 0.0,
      "Trials first .. first + count - 1 of a rollout of `trials` trials (rollout_blocks in rollout.h): a float64 "
      "array, one row per block of ROLLOUT_BLOCK trials (n, truncated, 8 means, 8 sums of squared deviations). "
      "Releases the GIL.");

  m.def(
      "_rollout_combine",
      [](const py::array_t<double, py::array::c_style | py::array::forcecast>& rows) {
        return result_tuple(combine_rollout(blocks_of(rows, 1)));
      },
      py::arg("blocks"),
      "The rollout's result (as _rollout returns it) from the _rollout_blocks rows of all its trials, in order.");

  def_cubeful(m, "_cubeful_rollout", cubeful_rollout, value_tuple,
              "Cubeful rollout of the board's position (cubeful_rollout.h): (equity, its standard error, MWC, its "
              "standard error, trials, truncated). Releases the GIL; Ctrl-C: KeyboardInterrupt; time_limit: "
              "TimeoutError.");
  def_cubeful(m, "_cubeful_rollout_decision", cubeful_rollout_decision, decision_tuple,
              "The cube decision by a cubeful rollout, No double and Double/take on the same dice "
              "(cubeful_rollout.h): (available, nd, dt, dp, nd_mwc, dt_mwc, dp_mwc, action, take, efficiency, "
              "nd_se, dt_se, nd_mwc_se, dt_mwc_se, (dt - nd)_se, trials, truncated). Releases the GIL; Ctrl-C: "
              "KeyboardInterrupt.");

  m.def(
      "_cubeful_rollout_plays",
      [](const Game& g, const py::sequence& given, const CubeState& cube, const MatchState& match,
         const MatchEquityTable& met, std::int64_t trials, const std::string& kind, int plies, const Filters& filters,
         int truncate, std::uint64_t seed, int threads, bool stratify, bool variance_reduction, py::handle evaluator,
         py::handle luck_evaluator, double eliminate, double time_limit) {
        const CubefulRolloutOptions opt = cubeful_options(
            cube, match, met,
            rollout_options(trials, kind, plies, filters, truncate, seed, threads, stratify, variance_reduction,
                            luck_evaluator));
        std::shared_ptr<const Evaluator> keep;
        const Evaluator& ev = tavli_bindings::evaluator_arg(evaluator, g.rules(), keep);
        const std::vector<Play> plays = legal_plays_of(g, given);
        const CubefulPlayRollout r = tavli_bindings::run_stoppable(time_limit, [&] {
          return cubeful_rollout_plays(g.position(), g.rules(), g.turn(), plays, ev, opt, eliminate);
        });
        py::list results;
        for (const CubefulRolloutValue& one : r.plays) results.append(value_tuple(one));
        return py::make_tuple(results, difference_matrix(r.difference_std_error, plays.size()));
      },
      py::arg("board"), py::arg("plays"), py::arg("cube"), py::arg("match"), py::arg("met"), py::arg("trials"),
      py::arg("kind"), py::arg("plies"), py::arg("filters"), py::arg("truncate"), py::arg("seed"), py::arg("threads"),
      py::arg("stratify"), py::arg("variance_reduction"), py::arg("evaluator"), py::arg("luck_evaluator"),
      py::arg("eliminate") = 0.0, py::arg("time_limit") = 0.0,
      "A roll's plays rolled out cubefully on common dice (cubeful_rollout.h's cubeful_rollout_plays): (a list of "
      "_cubeful_rollout's tuples, for the side that plays, one per play in order; the K x K standard errors of "
      "their equities' differences). Releases the GIL; Ctrl-C: KeyboardInterrupt; time_limit: TimeoutError.");

  m.def(
      "_cubeful_rollout_blocks",
      [](const Game& g, bool decision, std::int64_t first, std::int64_t count, const CubeState& cube,
         const MatchState& match, const MatchEquityTable& met, std::int64_t trials, const std::string& kind,
         int plies, const Filters& filters, int truncate, std::uint64_t seed, int threads, bool stratify,
         bool variance_reduction, py::handle evaluator, py::handle luck_evaluator, double time_limit) {
        const CubefulRolloutOptions opt = cubeful_options(
            cube, match, met,
            rollout_options(trials, kind, plies, filters, truncate, seed, threads, stratify, variance_reduction,
                            luck_evaluator));
        std::shared_ptr<const Evaluator> keep;
        const Evaluator& ev = tavli_bindings::evaluator_arg(evaluator, g.rules(), keep);
        return block_rows(tavli_bindings::run_stoppable(time_limit, [&] {
          return cubeful_rollout_blocks(g.position(), g.rules(), g.turn(), ev, opt, decision, first, count);
        }));
      },
      py::arg("board"), py::arg("decision"), py::arg("first"), py::arg("count"), py::arg("cube"), py::arg("match"),
      py::arg("met"), py::arg("trials"), py::arg("kind"), py::arg("plies"), py::arg("filters"), py::arg("truncate"),
      py::arg("seed"), py::arg("threads"), py::arg("stratify"), py::arg("variance_reduction"), py::arg("evaluator"),
      py::arg("luck_evaluator"),
      py::arg("time_limit") = 0.0,
      "Trials first .. first + count - 1 of a cubeful rollout (decision False) or cube decision rollout (True) "
      "(cubeful_rollout_blocks in cubeful_rollout.h), as _rollout_blocks' rows. Releases the GIL.");

  m.def(
      "_cubeful_rollout_combine",
      [](const Game& g, bool decision, const py::array_t<double, py::array::c_style | py::array::forcecast>& rows,
         const CubeState& cube, const MatchState& match, const MatchEquityTable& met, std::int64_t trials,
         const std::string& kind, int plies, const Filters& filters, int truncate, std::uint64_t seed, int threads,
         bool stratify, bool variance_reduction, py::handle evaluator, py::handle luck_evaluator) -> py::tuple {
        const CubefulRolloutOptions opt = cubeful_options(
            cube, match, met,
            rollout_options(trials, kind, plies, filters, truncate, seed, threads, stratify, variance_reduction,
                            luck_evaluator));
        const std::vector<RolloutMoments> blocks = blocks_of(rows, decision ? 2 : 1);
        std::shared_ptr<const Evaluator> keep;
        const Evaluator& ev = tavli_bindings::evaluator_arg(evaluator, g.rules(), keep);
        if (decision)
          return decision_tuple(
              combine_cubeful_rollout_decision(g.position(), g.rules(), g.turn(), ev, opt, blocks));
        return value_tuple(combine_cubeful_rollout(g.position(), g.rules(), g.turn(), ev, opt, blocks));
      },
      py::arg("board"), py::arg("decision"), py::arg("blocks"), py::arg("cube"), py::arg("match"), py::arg("met"),
      py::arg("trials"), py::arg("kind"), py::arg("plies"), py::arg("filters"), py::arg("truncate"), py::arg("seed"),
      py::arg("threads"), py::arg("stratify"), py::arg("variance_reduction"), py::arg("evaluator"),
      py::arg("luck_evaluator"),
      "The cubeful rollout's result (as _cubeful_rollout or, decision True, _cubeful_rollout_decision returns it) "
      "from the _cubeful_rollout_blocks rows of all its trials, in order.");
}
