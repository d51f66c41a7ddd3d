#include "tavli/met.h"

#include <cmath>
#include <stdexcept>

namespace tavli {
namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("match equity table: " + what); }

bool probability(double v) { return std::isfinite(v) && v >= 0.0 && v <= 1.0; }

}  // namespace

MatchEquityTable::MatchEquityTable(std::string name, std::vector<std::vector<double>> pre,
                                   std::array<std::vector<double>, 2> post, std::string description)
    : name_(std::move(name)), description_(std::move(description)), pre_(std::move(pre)), post_(std::move(post)) {
  length_ = static_cast<int>(pre_.size());
  if (length_ < 1) bad("the pre-Crawford table is empty");
  for (int i = 0; i < length_; ++i) {
    if (static_cast<int>(pre_[i].size()) != length_)
      bad("the pre-Crawford table must be square: row " + std::to_string(i) + " has " +
          std::to_string(pre_[i].size()) + " entries, not " + std::to_string(length_));
    for (double v : pre_[i])
      if (!probability(v)) bad("pre-Crawford entry " + std::to_string(v) + " in row " + std::to_string(i) + " is not in [0, 1]");
  }
  for (int p = 0; p < 2; ++p) {
    auto& row = post_[p];
    if (static_cast<int>(row.size()) < length_ - 1)
      bad("the post-Crawford row has " + std::to_string(row.size()) + " entries; a " + std::to_string(length_) +
          "-point table needs " + std::to_string(length_ - 1));
    for (double v : row)
      if (!probability(v)) bad("post-Crawford entry " + std::to_string(v) + " is not in [0, 1]");
    row.resize(static_cast<std::size_t>(length_));
    for (int i = std::max(length_ - 1, 0); i < length_; ++i) {
      const double four = i - 4 >= 0 ? row[i - 4] : 1.0, two = i - 2 >= 0 ? row[i - 2] : 1.0;
      row[i] = 0.25 * 0.5 * four + 0.75 * 0.5 * two;
    }
  }
}

double MatchEquityTable::pre_crawford(int away, int opp_away) const {
  if (away < 1 || away > length_ || opp_away < 1 || opp_away > length_)
    throw std::out_of_range("match equity table " + name_ + " covers 1.." + std::to_string(length_) + " away, not " +
                            std::to_string(away) + "-away " + std::to_string(opp_away) + "-away");
  return pre_[away - 1][opp_away - 1];
}

double MatchEquityTable::post_crawford(int away, Player trailer) const {
  if (away < 1 || away > length_)
    throw std::out_of_range("match equity table " + name_ + " covers 1.." + std::to_string(length_) + " away, not " +
                            std::to_string(away));
  return post_[trailer][away - 1];
}

double MatchEquityTable::after_game(const std::array<int, 2>& away, bool one_away_now, Player self, Player winner,
                                    int points) const {
  std::array<int, 2> left = away;
  left[winner] -= points;
  if (left[winner] <= 0) return self == winner ? 1.0 : 0.0;
  double white;  // White's chance at the new score
  if (one_away_now) {
    // The side that was one away still is; the game after this one is post-Crawford.
    white = left[kWhite] == 1 ? 1.0 - post_crawford(left[kBlack], kBlack) : post_crawford(left[kWhite], kWhite);
  } else {
    white = pre_crawford(left[kWhite], left[kBlack]);
  }
  return self == kWhite ? white : 1.0 - white;
}

std::array<double, 4> gammon_values(const MatchEquityTable& met, const std::array<int, 2>& away, bool one_away_now,
                                    Player self, int cube) {
  const Player opp = other(self);
  auto me = [&](Player winner, int points) { return met.after_game(away, one_away_now, self, winner, points); };
  const double win = me(self, cube), lose = me(opp, cube);
  const double centre = 0.5 * (win + lose), half = win - centre;
  std::array<double, 4> g{0, 0, 0, 0};
  if (std::fabs(half) <= 1e-7) return g;
  g[0] = (me(self, 2 * cube) - centre) / half - 1.0;
  g[1] = (centre - me(opp, 2 * cube)) / half - 1.0;
  g[2] = (me(self, 3 * cube) - centre) / half - (g[0] + 1.0);
  g[3] = (centre - me(opp, 3 * cube)) / half - (g[1] + 1.0);
  for (double& v : g) v = std::max(v, 0.0);
  return g;
}

}  // namespace tavli
