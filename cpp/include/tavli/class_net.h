// An evaluator with a net per position class (position_class.h), as GNU Backgammon's: a race net
// for races, a crashed net for crashed boards, a contact net for the rest, and the exact bear-off
// databases underneath (two-sided where it fits, else one-sided).
//
// The contact net is required; a class without its own net is served by the contact net (so a
// ClassNetEvaluator with only a contact net differs from NeuralEvaluator only by the two-sided
// database). All nets must be of one family (that of the games served) and each keeps its own
// encoding (e.g. "race" for the race net, "expert" for contact). The files stay TAVLINET weight
// files, one per net; the manifest of the shipped nets says which class each serves.
// Immutable once built: one evaluator serves any number of threads.
#pragma once

#include <array>
#include <memory>

#include "tavli/nnet.h"
#include "tavli/position_class.h"

namespace tavli {

class ClassNetEvaluator final : public Evaluator {
 public:
  // Throws std::invalid_argument when the contact net is missing, a net is of another family
  // than the contact net's, or its encoding is "raw".
  ClassNetEvaluator(std::shared_ptr<const NeuralNet> contact, std::shared_ptr<const NeuralNet> race,
                    std::shared_ptr<const NeuralNet> crashed);
  std::string name() const override { return "class-nets"; }
  void evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const override;
  bool supports(const Rules& rules) const;
  // The contact net's refusal: all the nets are of its family.
  std::string refusal(const Rules& rules) const override { return contact_->refusal(rules); }
  const std::string& family() const { return contact_->net().family(); }
  // The net that serves class `c` (nullptr for the bear-off classes).
  const NeuralEvaluator* net_for(PositionClass c) const;
  // Whether `c` has its own net (not the contact net standing in).
  bool has_own_net(PositionClass c) const;

 private:
  std::shared_ptr<const NeuralEvaluator> contact_, race_, crashed_;
};

}  // namespace tavli
