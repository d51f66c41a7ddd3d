#include "tavli/match_player.h"

#include <stdexcept>
#include <string>

namespace tavli {

void validate_score_table(const ScoreTable& t, const std::vector<MatchGame>& cycle, int target) {
  bool cubeless = false;
  for (const MatchGame& g : cycle) {
    if (!g.rules.info().takes_cube) {
      cubeless = true;
      continue;
    }
    if (!t.met) throw std::invalid_argument("score-aware play in " + g.rules.info().name + " needs a match equity table");
    if (target > t.met->length())
      throw std::invalid_argument("the match equity table " + t.met->name() + " covers matches up to " +
                                  std::to_string(t.met->length()) + " points, not " + std::to_string(target));
  }
  if (!cubeless) return;
  if (t.cycle.size() != cycle.size())
    throw std::invalid_argument("score table: one table per game of the cycle (" + std::to_string(cycle.size()) +
                                "), got " + std::to_string(t.cycle.size()));
  for (const auto& table : t.cycle) {
    if (static_cast<int>(table.size()) <= target)
      throw std::invalid_argument("score table: covers matches up to " +
                                  std::to_string(static_cast<int>(table.size()) - 1) + " points, not " +
                                  std::to_string(target));
    for (const auto& row : table) {
      if (row.size() != table.size()) throw std::invalid_argument("score table: each game's table must be square");
      for (double v : row)
        if (!(v >= 0.0 && v <= 1.0)) throw std::invalid_argument("score table: every MWC must be in [0, 1]");
    }
  }
}

MatchUtility met_utility(const MatchEquityTable& met, const std::array<int, 2>& away, Player mover, int cube_value) {
  const bool one_away_now = away[0] == 1 || away[1] == 1;
  MatchUtility u;
  u.active = true;
  for (int k = 0; k < 3; ++k) {
    u.after[static_cast<std::size_t>(k)] = met.after_game(away, one_away_now, mover, mover, (k + 1) * cube_value);
    u.after[static_cast<std::size_t>(k + 3)] =
        met.after_game(away, one_away_now, mover, other(mover), (k + 1) * cube_value);
  }
  u.after[6] = 0.5 * (u.after[0] + u.after[3]);  // these games have no draws
  return u;
}

MatchUtility score_utility(const ScoreTable& t, const Rules& rules, int target, const std::array<int, 2>& score,
                           Player mover, int game_index) {
  const std::array<int, 2> away{target - score[0], target - score[1]};
  if (rules.info().takes_cube) return met_utility(*t.met, away, mover, 1);
  const auto& next = t.cycle[static_cast<std::size_t>(game_index + 1) % t.cycle.size()];
  auto m = [&](int a, int b) {
    return a <= 0 ? 1.0 : b <= 0 ? 0.0 : next[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
  };
  const int me = away[mover], opp = away[other(mover)];
  MatchUtility u;
  u.active = true;
  for (int k = 0; k < 3; ++k) {
    u.after[static_cast<std::size_t>(k)] = m(me - (k + 1), opp);
    u.after[static_cast<std::size_t>(k + 3)] = m(me, opp - (k + 1));
  }
  u.after[6] = m(me, opp);
  return u;
}

}  // namespace tavli
