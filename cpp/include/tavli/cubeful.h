// Cubeful equities from cubeless probabilities (issue 15, item 3): GNU Backgammon's documented
// model (manual, "Cubeful equities"), a layer below search that knows nothing of it.
//
// Janowski's interpolation. The cubeless probabilities give a "dead cube" equity (nobody ever
// doubles again) and a "live cube" equity (a fully efficient cube: the equity is linear in the
// winning chance p between the points where one side cashes or passes); the cubeful equity is
//   E = (1 - x) * E_dead + x * E_live,
// x the cube efficiency of the position's class (gnubg's values): contact and crashed 0.68; a race
// 0.55 + 0.00125 * (the mover's pip count), clamped to [0.6, 0.7]; a bear-off (both sides home,
// no contact) 0.6; Hypergammon 0.6; a finished game 0 (the cube is dead).
//
// Money play, W = 1 + (gammons + backgammons) / p the average win, L likewise the average loss;
// take point TP = (L - 1/2) / (W + L + 1/2), cash point CP = (L + 1) / (W + L + 1/2):
//   centred cube   (0, -L) -> (TP, -1) -> (CP, +1) -> (1, W)   (Jacoby: -1 below TP, +1 above CP,
//                                                               and no gammons in E_dead)
//   cube owned     (0, -L) -> (CP, +1) -> (1, W)
//   cube the opponent's (0, -L) -> (TP, -1) -> (1, W)
// Equities are per unit of the current cube: No double = E(current cube), Double/take = 2 * E(the
// doubled cube owned by the opponent), Double/pass = +1.
//
// Match play works in match winning chances with the match equity table: the live-cube cash points
// of both sides come from the top of the cube ladder down (at the level where the doubled cube
// can no longer be redoubled usefully, the dead-cube take point, with the taker's automatic
// redouble where he wins the match with the doubled cube and the doubler does not; below it each
// side's point from the other's point one level up), and the live MWC interpolates between
// "opponent cashes", "I cash" and the gammon-weighted wins and losses. With the cube dead (both
// sides need no more than its value, 2-away 2-away, the Crawford game) the cubeless MWC is used.
// Equities in EMG (normalised: +1 = winning the cube's value, -1 losing it) convert the MWC
// linearly between those two points.
#pragma once

#include <cmath>
#include <limits>

#include "tavli/cube.h"
#include "tavli/eval.h"
#include "tavli/met.h"

namespace tavli {

// gnubg's position classes as far as the cube efficiency tells them apart.
enum class CubeClass : std::uint8_t { Over, Contact, Race, Bearoff, Hypergammon };
CubeClass cube_class(const Position& pos, const Rules& rules);
// The cube efficiency x of the position for its side to move (see the table above).
double cube_efficiency(const Position& pos, const Rules& rules);
double cube_efficiency(CubeClass cls, int mover_pips);

enum class CubeAction : std::uint8_t {
  NoDouble,        // no double; the opponent would take
  NoDoubleBeaver,  // no double; the opponent would beaver
  DoubleTake,
  DoubleBeaver,    // double; the opponent beavers
  DoublePass,
  TooGoodTake,     // too good to double (play on for the gammon); he would take
  TooGoodPass,     // too good to double; he would pass
  Unavailable,     // the mover may not double (the opponent's cube, Crawford, a dead or capped cube)
};
enum class TakeDecision : std::uint8_t { Take, Beaver, Pass, None };
const char* action_name(CubeAction a);
const char* take_name(TakeDecision t);

struct CubeDecision {
  bool available = false;  // the mover may double now
  // Equities for the side to move (EMG; money: points per unit of the current cube).
  double nd = 0, dt = std::numeric_limits<double>::quiet_NaN(), dp = std::numeric_limits<double>::quiet_NaN();
  // Match winning chances (match play only; NaN in money play).
  double nd_mwc = std::numeric_limits<double>::quiet_NaN(), dt_mwc = std::numeric_limits<double>::quiet_NaN(),
         dp_mwc = std::numeric_limits<double>::quiet_NaN();
  CubeAction action = CubeAction::Unavailable;
  TakeDecision take = TakeDecision::None;  // the opponent's answer to a double
  double efficiency = 0;
};

// The 0-ply cube decision for `mover` from cubeless probabilities `p` (his, before his roll).
// `met` is used in match play only (it must cover the match length). Throws std::invalid_argument
// for inconsistent probabilities (win_triple <= win_double <= win, lose_triple <= lose_double <=
// 1 - win, none negative; no draws), an invalid cube or match state, or a table too short.
CubeDecision cube_decision(const Probabilities& p, const CubeState& cube, const MatchState& match, Player mover,
                           double efficiency, const MatchEquityTable& met);

// The proper action and the taker's answer from the mover's three equities (EMG), as gnubg's
// FindBestCubeDecision: `beavers` (money play with beavers on), `gammon_chances` (the mover may
// win a gammon: "too good" rather than "double, pass"). Shared by the 0-ply and n-ply decisions.
CubeAction cube_action(double nd, double dt, double dp, bool beavers, bool gammon_chances);
TakeDecision take_decision(double dt, double dp, bool beavers);

// Probabilities clamped into the order the formulas check (a net's gammon chance a hair above its
// win chance), draws and margins dropped: for evaluators' outputs fed to the cube players.
Probabilities ordered_for_cube(Probabilities p);

// The cubeful equity (money, per unit of cube) or MWC (match) of one cube state for `mover`.
double cubeful_equity_money(const Probabilities& p, const CubeState& cube, Player mover, double efficiency);
double cubeful_mwc(const Probabilities& p, const CubeState& cube, const MatchState& match, Player mover,
                   double efficiency, const MatchEquityTable& met);

}  // namespace tavli
