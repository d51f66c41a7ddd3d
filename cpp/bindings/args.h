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
#include "tavli/net_suite.h"
#include "tavli/nnet.h"
#include "tavli/race_evaluator.h"
#include "tavli/sim.h"

namespace tavli_bindings {

// An evaluator from Python: None (the heuristic: a null pointer), a tavli._core.NeuralEvaluator
// (one net), a tavli._core.ClassNetEvaluator (a net per position class) or a tavli._core.NetSuite
// (the shipped nets, tavli.nn.default_evaluator()).
inline std::shared_ptr<const tavli::Evaluator> evaluator_ptr(pybind11::handle ev) {
  if (ev.is_none()) return nullptr;
  if (pybind11::isinstance<tavli::NeuralEvaluator>(ev)) return ev.cast<std::shared_ptr<tavli::NeuralEvaluator>>();
  if (pybind11::isinstance<tavli::NetSuite>(ev)) return ev.cast<std::shared_ptr<tavli::NetSuite>>();
  if (pybind11::isinstance<tavli::ClassNetEvaluator>(ev)) return ev.cast<std::shared_ptr<tavli::ClassNetEvaluator>>();
  if (pybind11::isinstance<tavli::RaceDbEvaluator>(ev)) return ev.cast<std::shared_ptr<tavli::RaceDbEvaluator>>();
  throw std::invalid_argument("evaluator: expected 'heuristic', a tavli.nn.Net or the default nets");
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
                                    const std::vector<std::tuple<int, int, double>>& filters,
                                    pybind11::handle evaluator = pybind11::none()) {
  tavli::PlayerSpec p;
  p.evaluator = evaluator_ptr(evaluator);
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
