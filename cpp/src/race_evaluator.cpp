#include "tavli/race_evaluator.h"

#include <stdexcept>
#include <vector>

#include "tavli/position_class.h"

namespace tavli {

RaceDbEvaluator::RaceDbEvaluator(std::shared_ptr<const Evaluator> base, std::shared_ptr<const RaceDatabase> db)
    : base_(std::move(base)), db_(std::move(db)) {
  if (!db_ || !db_->complete()) throw std::invalid_argument("race evaluator: the race database is missing or unfinished");
}

bool RaceDbEvaluator::covers(const Position& pos, const Rules& rules) const {
  return rules.contact == Contact::Hit && position_class(pos, rules) == PositionClass::Race && db_->fits(pos.own()) &&
         db_->fits(pos.opp());
}

void RaceDbEvaluator::evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const {
  // The base sees the rest in one batch, in their order (a value never depends on its batch).
  std::vector<Position> rest;
  std::vector<int> where;
  // Gammons only where the scoring has them; no triples within the table's points.
  const bool doubles = rules.scoring == Scoring::SingleDouble || rules.scoring == Scoring::Backgammon;
  for (int i = 0; i < n; ++i) {
    if (covers(positions[i], rules)) {
      Probabilities p = race_db_probabilities(*db_, positions[i]);
      if (!doubles) p.win_double = p.lose_double = 0.0f;
      out[i] = p;
    } else {
      rest.push_back(positions[i]);
      where.push_back(i);
    }
  }
  if (rest.empty()) return;
  std::vector<Probabilities> got(rest.size());
  base().evaluate(rest.data(), static_cast<int>(rest.size()), rules, got.data());
  for (std::size_t k = 0; k < where.size(); ++k) out[where[k]] = got[k];
}

}  // namespace tavli
