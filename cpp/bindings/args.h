// Arguments shared by the binding files: a game's options, dice, a search's options, the
// evaluator of a search or a player (analysis, evaluation, rollouts) and the players of
// self-play and rollouts. Conversions
// only: the ranges are the core's (checked where its headers say).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tavli/dice.h"
#include "tavli/eval.h"
#include "tavli/match.h"
#include "tavli/outcome.h"
#include "tavli/search.h"
#include "tavli/sim.h"

namespace tavli_bindings {

// A game's options as (name, value) pairs (tavli._base.options.to_pairs).
using OptionList = std::vector<std::pair<std::string, std::string>>;

// A match's cycle of games: (variant, options, opening) each (tavli.Match's form).
using CycleArg = std::vector<std::tuple<std::string, OptionList, std::string>>;

inline std::vector<tavli::MatchGame> match_games(const CycleArg& cycle) {
  std::vector<tavli::MatchGame> games;
  for (const auto& [variant, options, opening] : cycle)
    games.push_back(tavli::MatchGame{tavli::make_rules(tavli::variant_from_name(variant), options),
                                     tavli::opening_from_name(opening)});
  return games;
}

// A result kind as the Python side names it (tavli.Outcome's kinds).
inline const char* result_kind_name(tavli::ResultKind kind) {
  static const char* kinds[] = {"", "single", "double", "triple", "mother", "draw", "checkers"};
  return kinds[static_cast<int>(kind)];
}

// Move filters (accept, extra, threshold) as Python gives them (search.h's MoveFilter).
using FilterList = std::vector<std::tuple<int, int, double>>;

inline std::vector<tavli::MoveFilter> move_filters(const FilterList& filters) {
  std::vector<tavli::MoveFilter> out;
  for (const auto& [accept, extra, threshold] : filters)
    out.push_back(tavli::MoveFilter{accept, extra, static_cast<float>(threshold)});
  return out;
}

// A search's depth, filters and threads as Python gives them: the options every search entry
// point fills alike (each adds its own limits or utility).
inline tavli::SearchOptions search_options(int plies, const FilterList& filters, int threads = 1) {
  tavli::SearchOptions o;
  o.plies = plies;
  o.filters = move_filters(filters);
  o.threads = threads;
  return o;
}

// Dice from Python in the forms notation.h's parse_dice documents: a pair such as (6, 5) (any
// iterable of two integers, numpy's included) or text such as "6-5". The pair's checks and
// messages are the core's (make_dice, dice.h); this reads only the Python types.
tavli::Dice dice_from_py(pybind11::handle dice);

// An evaluator from Python: None (the heuristic: a null pointer), a tavli._core.NeuralEvaluator
// (one net), a tavli._core.ClassNetEvaluator (a net per position class), a tavli._core.RaceDbEvaluator
// (exact races over another evaluator) or a tavli._core.NetSuite
// (tavli.nn.default_evaluator()). Each is bound as a subclass of tavli._core.Evaluator (the C++
// interface, eval.h), so any of them converts without asking which it is.
inline std::shared_ptr<const tavli::Evaluator> evaluator_ptr(pybind11::handle ev) {
  if (ev.is_none()) return nullptr;
  try {
    return ev.cast<std::shared_ptr<tavli::Evaluator>>();
  } catch (const pybind11::cast_error&) {
    throw std::invalid_argument("evaluator: expected 'heuristic', a tavli.nn.Net or the default nets");
  }
}

// Throws std::invalid_argument unless `ev` can evaluate the rules' game (a single net serves its
// family only; the heuristic and a suite serve every game).
inline void check_serves(const tavli::Evaluator& ev, const tavli::Rules& rules) {
  const std::string why = ev.refusal(rules);
  if (!why.empty()) throw std::invalid_argument("evaluator: " + why);
}

// The evaluator at a search's leaves, which `keep` holds for the duration of the search.
inline const tavli::Evaluator& evaluator_arg(pybind11::handle ev, const tavli::Rules& rules,
                                             std::shared_ptr<const tavli::Evaluator>& keep) {
  keep = evaluator_ptr(ev);
  const tavli::Evaluator& e = keep ? *keep : tavli::heuristic_evaluator();
  check_serves(e, rules);
  return e;
}

// Probabilities as the Python side reads them (tavli.Probabilities' field order).
inline pybind11::tuple probs_tuple(const tavli::Probabilities& p) {
  return pybind11::make_tuple(p.win, p.win_double, p.win_triple, p.lose_double, p.lose_triple, p.draw, p.margin);
}

// A player from its kind ("random", "greedy", "search"), search depth, move filters and evaluator
// (see evaluator_ptr; the caller checks that it serves the game with check_serves).
inline tavli::PlayerSpec player_arg(const std::string& kind, int plies,
                                    const FilterList& filters,
                                    pybind11::handle evaluator = pybind11::none()) {
  tavli::PlayerSpec p;
  p.evaluator = evaluator_ptr(evaluator);
  if (kind == "random") p.kind = tavli::PlayerSpec::Kind::Random;
  else if (kind == "greedy") p.kind = tavli::PlayerSpec::Kind::Greedy;
  else if (kind == "search") p.kind = tavli::PlayerSpec::Kind::Search;
  else throw std::invalid_argument("player kind must be random, greedy or search, got '" + kind + "'");
  p.plies = plies;
  tavli::check_player(p);
  p.filters = move_filters(filters);
  return p;
}

}  // namespace tavli_bindings
