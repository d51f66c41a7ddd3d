// The evaluator behind "the engine's own judgement": one neural net per game where a trained net
// was shipped for it (python/tavli/nets/, loaded by tavli.nn), the heuristic elsewhere.
//
// A suite maps each variant to at most one NeuralEvaluator or ClassNetEvaluator; a net may serve several variants of its
// family (backgammon's net serves Portes and Tavla), but only those it was measured to play well
// (bench/strength.py; the manifest that ships with the nets lists them). Variants without a net,
// and any variant of an empty suite, are evaluated by the heuristic. Immutable once built, so one
// suite serves any number of threads and searches at once.
#pragma once

#include <array>
#include <memory>
#include <string>

#include "tavli/class_net.h"
#include "tavli/nnet.h"
#include "tavli/variant.h"

namespace tavli {

class NetSuite final : public Evaluator {
 public:
  static constexpr int kVariants = static_cast<int>(Variant::Hypergammon) + 1;

  NetSuite() = default;
  // Serves `v` with `net`; throws std::invalid_argument when the net's family is not v's (or its
  // encoding is "raw").
  void assign(Variant v, std::shared_ptr<const NeuralNet> net);
  // Serves `v` with a net per position class (class_net.h), instead of a single net.
  void assign(Variant v, std::shared_ptr<const ClassNetEvaluator> nets);
  // Gives `v` a pruning net (Evaluator::pruner) for the net or class nets that serve it; throws
  // std::invalid_argument when the net's family is not v's. Kept when v's evaluator is reassigned.
  void assign_pruner(Variant v, std::shared_ptr<const NeuralNet> net);

  std::string name() const override { return "nets"; }
  void evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const override;

  // The single net serving `v`, or nullptr (class nets or the heuristic).
  const NeuralEvaluator* net_for(Variant v) const { return nets_[static_cast<std::size_t>(v)].get(); }
  // The class nets serving `v`, or nullptr.
  const ClassNetEvaluator* classes_for(Variant v) const { return classes_[static_cast<std::size_t>(v)].get(); }
  bool serves(Variant v) const { return net_for(v) || classes_for(v); }
  // The pruning net of the rules' game, when a net serves it (the heuristic has none).
  const Evaluator* pruner(const Rules& rules) const override;

 private:
  std::array<std::shared_ptr<const NeuralEvaluator>, kVariants> nets_{};
  std::array<std::shared_ptr<const ClassNetEvaluator>, kVariants> classes_{};
  std::array<std::shared_ptr<const NeuralEvaluator>, kVariants> pruners_{};
};

}  // namespace tavli
