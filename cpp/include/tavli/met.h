// Match equity tables (issue 15, item 2): the chance to win a match from a score.
//
// Index conventions (those of GNU Backgammon's MET files, met/*.xml):
//   pre[i][j]   the match winning chance (MWC) of a side needing i + 1 points against one needing
//               j + 1, before a game that is not post-Crawford (the Crawford game included).
//               pre[i][j] + pre[j][i] = 1.
//   post[p][i]  post-Crawford: the MWC of player p trailing, needing i + 1 points, against a
//               leader at one-away (post[p][0] = 0.5: one-away both, double match point). Tables
//               that give one post-Crawford row for both players store it twice.
// The table covers matches up to length() points. As gnubg does, the post-Crawford row's entries
// from length() - 1 on (the first legal post-Crawford score is length - 1 away) are recomputed from
// the two before by Zadeh's post-Crawford recurrence with a trailer's gammon rate of 0.25:
//   post[i] = 0.25 * 0.5 * post[i - 4] + 0.75 * 0.5 * post[i - 2].
// Reading gnubg's XML format is python/tavli/met.py's (the numbers come in as arrays).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "tavli/types.h"

namespace tavli {

class MatchEquityTable {
 public:
  // Throws std::invalid_argument for a table that is not square, empty, out of [0, 1], or whose
  // post-Crawford rows are shorter than length - 1.
  MatchEquityTable(std::string name, std::vector<std::vector<double>> pre, std::array<std::vector<double>, 2> post,
                   std::string description = "");

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  int length() const { return length_; }

  // MWC of a side needing `away` points against one needing `opp_away` (both 1..length()),
  // before a game that is not post-Crawford.
  double pre_crawford(int away, int opp_away) const;
  // MWC of `trailer` needing `away` points (1..length()) post-Crawford against a leader at one-away.
  double post_crawford(int away, Player trailer) const;

  // MWC of `self` once this game ends with `winner` scoring `points`, the sides needing away[0]
  // and away[1] (indexed by Player) before it. `one_away_now`: one side is at one-away (this is
  // the Crawford game or post-Crawford), so a game after this one is post-Crawford.
  double after_game(const std::array<int, 2>& away, bool one_away_now, Player self, Player winner, int points) const;

  const std::vector<std::vector<double>>& pre_table() const { return pre_; }
  const std::array<std::vector<double>, 2>& post_table() const { return post_; }

 private:
  std::string name_, description_;
  int length_ = 0;
  std::vector<std::vector<double>> pre_;
  std::array<std::vector<double>, 2> post_;
};

// Gammon and backgammon values at a score (gnubg's "gammon price"), in units of the game's
// single-win swing: what winning a gammon adds beyond a single win, relative to half the difference
// between winning and losing a single game with the cube at `cube`.
//   [0] a gammon won by `self`, [1] a gammon won by the other side, [2] a backgammon's further
//   value for `self`, [3] for the other side. Money play: all 1.
// Negative values (a cube already dead for the extra points) are clamped to 0.
std::array<double, 4> gammon_values(const MatchEquityTable& met, const std::array<int, 2>& away, bool one_away_now,
                                    Player self, int cube);

}  // namespace tavli
