// An evaluator that values the races of the hitting games from the one-sided race database
// (race_db.h) where both sides fit it, and asks another evaluator (a net, class nets, the shipped
// suite or the heuristic) for everything else: contact, crashed boards, the bear-off classes (the
// exact bear-off tables already serve those) and races with a checker beyond the database's
// points. Opt-in (the shipped default evaluator does not use it). Immutable: any number of threads.
#pragma once

#include <memory>

#include "tavli/race_db.h"

namespace tavli {

class RaceDbEvaluator final : public Evaluator {
 public:
  // base: nullptr for the heuristic; db: a complete table (std::invalid_argument otherwise).
  RaceDbEvaluator(std::shared_ptr<const Evaluator> base, std::shared_ptr<const RaceDatabase> db);
  std::string name() const override { return "race-db-" + std::to_string(db_->points()) + "+" + base().name(); }
  void evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const override;
  std::string refusal(const Rules& rules) const override { return base().refusal(rules); }
  // Whether `pos` is valued by the table (a race, not both sides home, both sides fit).
  bool covers(const Position& pos, const Rules& rules) const;
  const RaceDatabase& database() const { return *db_; }

 private:
  const Evaluator& base() const { return base_ ? *base_ : heuristic_evaluator(); }
  std::shared_ptr<const Evaluator> base_;
  std::shared_ptr<const RaceDatabase> db_;
};

}  // namespace tavli
