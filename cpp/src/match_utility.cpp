// MatchUtility (search.h): the match winning chance as a linear function of the outcome
// probabilities, for score-aware checker play (issue 15, item 5).
#include <cmath>
#include <stdexcept>

#include "tavli/search.h"

namespace tavli {

void MatchUtility::validate() const {
  for (double v : after)
    if (!std::isfinite(v) || v < 0.0 || v > 1.0)
      throw std::invalid_argument("match utility: every match winning chance must be in [0, 1]");
  if (!(after[0] > after[3]))
    throw std::invalid_argument("match utility: winning a single game must be worth more than losing one");
}

double MatchUtility::mwc(const Probabilities& p) const {
  const double lose = 1.0 - p.win - p.draw;
  return after[0] * (p.win - p.win_double) + after[1] * (p.win_double - p.win_triple) + after[2] * p.win_triple +
         after[3] * (lose - p.lose_double) + after[4] * (p.lose_double - p.lose_triple) + after[5] * p.lose_triple +
         after[6] * p.draw;
}

double MatchUtility::emg(const Probabilities& p) const {
  return (2.0 * mwc(p) - (after[0] + after[3])) / (after[0] - after[3]);
}

}  // namespace tavli
