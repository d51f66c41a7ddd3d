#include "tavli/cubeful.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tavli {
namespace {

// gnubg's cube efficiencies (manual, "Cubeful equities"; eval.c's defaults).
constexpr double kContactX = 0.68;
constexpr double kBearoffX = 0.6;
constexpr double kHyperX = 0.6;
constexpr double kRaceFactor = 0.00125, kRaceCoefficient = 0.55, kRaceMin = 0.6, kRaceMax = 0.7;

int pips(const SideState& s) {
  int n = 25 * s.bar;
  for (int r = 0; r < kPoints; ++r) n += s.n[r] * (24 - r);
  return n;
}

void check_probabilities(const Probabilities& p) {
  const double eps = 1e-6;
  auto bad = [](const std::string& what) { throw std::invalid_argument("cubeless probabilities: " + what); };
  const double vals[] = {p.win, p.win_double, p.win_triple, p.lose_double, p.lose_triple};
  for (double v : vals)
    if (!std::isfinite(v) || v < -eps || v > 1 + eps) bad("each must be a number in [0, 1]");
  if (std::fabs(p.draw) > eps || std::fabs(p.margin) > eps)
    bad("the cube's formulas take win/gammon/backgammon chances without draws or margins");
  if (p.win_double > p.win + eps) bad("win_double (gammons) cannot exceed win");
  if (p.win_triple > p.win_double + eps) bad("win_triple (backgammons) cannot exceed win_double");
  if (p.lose_double > 1 - p.win + eps) bad("lose_double cannot exceed the chance of losing, 1 - win");
  if (p.lose_triple > p.lose_double + eps) bad("lose_triple cannot exceed lose_double");
}

// ---- money play --------------------------------------------------------------------------------

double money_dead(const Probabilities& p, bool gammons_count) {
  const double g = gammons_count ? 1.0 : 0.0;
  return 2.0 * p.win - 1.0 + g * (p.win_double - p.lose_double) + g * (p.win_triple - p.lose_triple);
}

// Owner relative to the mover.
enum class Access { Centred, Mine, Theirs };

double money_live(double W, double L, double p, Access access, bool jacoby) {
  const double tp = (L - 0.5) / (W + L + 0.5);  // the opponent's cash point, from my side
  const double cp = (L + 1.0) / (W + L + 0.5);  // my cash point
  switch (access) {
    case Access::Centred:
      if (p < tp) return jacoby ? -1.0 : -L + (L - 1.0) * p / tp;
      if (p < cp) return -1.0 + 2.0 * (p - tp) / (cp - tp);
      return jacoby ? 1.0 : 1.0 + (W - 1.0) * (p - cp) / (1.0 - cp);
    case Access::Mine:
      if (p < cp) return -L + (1.0 + L) * p / cp;
      return 1.0 + (W - 1.0) * (p - cp) / (1.0 - cp);
    case Access::Theirs:
      if (p < tp) return -L + (L - 1.0) * p / tp;
      return -1.0 + (W + 1.0) * (p - tp) / (1.0 - tp);
  }
  return 0.0;
}

Access access_of(const CubeState& cube, Player mover) {
  return cube.centred() ? Access::Centred : cube.owner == mover ? Access::Mine : Access::Theirs;
}

double money_cubeful(const Probabilities& p, const CubeState& cube, Player mover, double x) {
  const Access access = access_of(cube, mover);
  const bool jacoby = cube.jacoby && access == Access::Centred;
  const double dead = money_dead(p, !jacoby);
  // A (nearly) certain result leaves nothing for the cube.
  if (p.win <= 1e-7 || p.win >= 1.0 - 1e-7) return dead;
  const double W = 1.0 + (p.win_double + p.win_triple) / p.win;
  const double L = 1.0 + (p.lose_double + p.lose_triple) / (1.0 - p.win);
  return (1.0 - x) * dead + x * money_live(W, L, p.win, access, jacoby);
}

// ---- match play --------------------------------------------------------------------------------

// A score seen through the match equity table: `away` indexed by Player.
struct Score {
  const MatchEquityTable& met;
  std::array<int, 2> away;
  bool one_away_now;
  double me(Player self, Player winner, int points) const { return met.after_game(away, one_away_now, self, winner, points); }
};

// Single / gammon / backgammon shares of a side's wins.
struct WinKinds {
  double gammon = 0, backgammon = 0;
  double single() const { return 1.0 - gammon - backgammon; }
};

// Side k's wins, from the mover's probabilities.
std::array<WinKinds, 2> win_kinds(const Probabilities& p, Player mover) {
  std::array<WinKinds, 2> k;
  WinKinds& m = k[mover];
  WinKinds& o = k[other(mover)];
  if (p.win > 0) {
    m.gammon = (p.win_double - p.win_triple) / p.win;
    m.backgammon = p.win_triple / p.win;
  }
  if (p.win < 1) {
    o.gammon = (p.lose_double - p.lose_triple) / (1.0 - p.win);
    o.backgammon = p.lose_triple / (1.0 - p.win);
  }
  return k;
}

// MWC of `self` weighting a win (or loss) of `cube` by the winner's single/gammon/backgammon shares.
double weighted(const Score& s, Player self, Player winner, int cube, const WinKinds& w) {
  return w.single() * s.me(self, winner, cube) + w.gammon * s.me(self, winner, 2 * cube) +
         w.backgammon * s.me(self, winner, 3 * cube);
}

// The live-cube cash points of both players with the cube at `cube` (gnubg's GetPoints): the
// winning chance at which each side's double makes the other indifferent between take and pass.
std::array<double, 2> cash_points(const Score& s, int cube, const std::array<WinKinds, 2>& kinds) {
  const int n0 = s.away[0] - 1, n1 = s.away[1] - 1;  // points each needs beyond his last
  int levels = 0, top = cube;
  while (n0 >= 2 * top && n1 >= 2 * top) {
    ++levels;
    top *= 2;
  }
  std::vector<std::array<double, 2>> live(static_cast<std::size_t>(levels + 1));
  for (int level = levels, v = top; level >= 0; --level, v /= 2) {
    for (int k = 0; k < 2; ++k) {
      const Player me = static_cast<Player>(k), opp = other(me);
      const WinKinds& mine = kinds[k];
      const WinKinds& theirs = kinds[1 - k];
      const double cash = s.me(me, me, v);  // he passes my double
      if (n0 < 2 * v || n1 < 2 * v) {
        // The doubled cube is dead; the taker redoubles at once where that is free for him (he
        // wins the match with 2v, I do not), so the game is then played for 4v.
        const int nk = k == 0 ? n0 : n1, nj = k == 0 ? n1 : n0;
        const int prime = (nk < 2 * v && nj >= 2 * v) ? 2 * v : v;
        const double take_lose = theirs.single() * s.me(me, opp, 2 * prime) + theirs.gammon * s.me(me, opp, 4 * prime) +
                                 theirs.backgammon * s.me(me, opp, 6 * prime);
        const double take_win = mine.single() * s.me(me, me, 2 * prime) + mine.gammon * s.me(me, me, 4 * prime) +
                                mine.backgammon * s.me(me, me, 6 * prime);
        live[level][k] = (take_lose - cash) / (take_lose - take_win);
      } else {
        // He takes and owns 2v; his redouble cashes at his own cash point one level up.
        const double redouble_pass = s.me(me, opp, 2 * v);
        const double take_win = mine.single() * s.me(me, me, 2 * v) + mine.gammon * s.me(me, me, 4 * v) +
                                mine.backgammon * s.me(me, me, 6 * v);
        live[level][k] = 1.0 - live[level + 1][1 - k] * (cash - take_win) / (redouble_pass - take_win);
      }
    }
  }
  return live[0];
}

double eq_to_mwc(double eq, const Score& s, Player mover, int cube) {
  const double win = s.me(mover, mover, cube), lose = s.me(mover, other(mover), cube);
  return 0.5 * (eq * (win - lose) + (win + lose));
}

double mwc_to_eq(double mwc, const Score& s, Player mover, int cube) {
  const double win = s.me(mover, mover, cube), lose = s.me(mover, other(mover), cube);
  return (2.0 * mwc - (win + lose)) / (win - lose);
}

// The cubeless equity at the score (gammons at their values there), normalised to the cube.
double match_dead_eq(const Probabilities& p, const Score& s, Player mover, int cube) {
  const auto g = gammon_values(s.met, s.away, s.one_away_now, mover, cube);
  return 2.0 * p.win - 1.0 + p.win_double * g[0] - p.lose_double * g[1] + p.win_triple * g[2] - p.lose_triple * g[3];
}

// gnubg's fDoCubeful: is the cube alive at all in this state?
bool cube_alive(const MatchState& match, int cube) {
  if (match.crawford) return false;
  if (match.away(kWhite) <= cube && match.away(kBlack) <= cube) return false;
  if (match.away(kWhite) == 2 && match.away(kBlack) == 2) return false;
  return true;
}

double match_cubeful(const Probabilities& p, const CubeState& cube, const MatchState& match, Player mover, double x,
                     const MatchEquityTable& met) {
  const Score s{met, {match.away(kWhite), match.away(kBlack)}, match.crawford || match.away(kWhite) == 1 ||
                                                                    match.away(kBlack) == 1};
  const int c = cube.value;
  const double dead = eq_to_mwc(match_dead_eq(p, s, mover, c), s, mover, c);
  if (!cube_alive(match, c)) return dead;
  const Player opp = other(mover);
  const auto kinds = win_kinds(p, mover);
  const auto cp = cash_points(s, c, kinds);
  const double cash = s.me(mover, mover, c), opp_cash = s.me(mover, opp, c);
  const double win = weighted(s, mover, mover, c, kinds[mover]);
  const double lose = weighted(s, mover, opp, c, kinds[opp]);
  const double pw = p.win;
  const Access access = access_of(cube, mover);
  const double opp_too_good = 1.0 - cp[opp];  // below this he cashes (centred or his cube)
  const double too_good = cp[mover];          // above this I cash (centred or my cube)
  double live;
  if (access != Access::Mine && pw <= opp_too_good) {
    live = opp_too_good > 0 ? lose + (opp_cash - lose) * pw / opp_too_good : lose;
  } else if (access == Access::Centred && pw < too_good) {
    live = opp_cash + (cash - opp_cash) * (pw - opp_too_good) / (too_good - opp_too_good);
  } else if (access == Access::Mine && pw <= too_good) {
    live = too_good > 0 ? lose + (cash - lose) * pw / too_good : lose;
  } else if (access == Access::Theirs) {
    live = opp_cash + (win - opp_cash) * (pw - opp_too_good) / (1.0 - opp_too_good);
  } else {
    live = too_good < 1 ? cash + (win - cash) * (pw - too_good) / (1.0 - too_good) : win;
  }
  return (1.0 - x) * dead + x * live;
}

// The action from the three equities (gnubg's FindBestCubeDecision cases).
CubeAction choose(double nd, double dt, double dp, bool beavers_apply, bool gammon_chances) {
  const bool beaver = beavers_apply && dt <= 0.0 && dt >= -2.0;
  if (dt >= nd && dp >= nd) {
    if (dp > dt) return beaver ? (2.0 * dt < nd ? CubeAction::NoDoubleBeaver : CubeAction::DoubleBeaver) : CubeAction::DoubleTake;
    return CubeAction::DoublePass;
  }
  if (nd > dt) {
    if (dt > dp) return gammon_chances ? CubeAction::TooGoodPass : CubeAction::DoublePass;
    if (nd > dp) return gammon_chances ? CubeAction::TooGoodTake : CubeAction::NoDouble;
    return beaver ? CubeAction::NoDoubleBeaver : CubeAction::NoDouble;
  }
  return gammon_chances ? CubeAction::TooGoodPass : CubeAction::DoublePass;  // dt >= nd > dp
}

}  // namespace

CubeClass cube_class(const Position& pos, const Rules& rules) {
  if (pos.own().off == rules.checkers || pos.opp().off == rules.checkers) return CubeClass::Over;
  if (rules.variant == Variant::Hypergammon) return CubeClass::Hypergammon;
  if (!is_race(pos, rules)) return CubeClass::Contact;
  if (is_bearoff_race(pos, rules)) return CubeClass::Bearoff;
  return CubeClass::Race;
}

double cube_efficiency(CubeClass cls, int mover_pips) {
  switch (cls) {
    case CubeClass::Over: return 0.0;
    case CubeClass::Contact: return kContactX;
    case CubeClass::Bearoff: return kBearoffX;
    case CubeClass::Hypergammon: return kHyperX;
    case CubeClass::Race:
      return std::clamp(kRaceCoefficient + kRaceFactor * mover_pips, kRaceMin, kRaceMax);
  }
  return 0.0;
}

double cube_efficiency(const Position& pos, const Rules& rules) {
  return cube_efficiency(cube_class(pos, rules), pips(pos.own()));
}

const char* action_name(CubeAction a) {
  switch (a) {
    case CubeAction::NoDouble: return "no double";
    case CubeAction::NoDoubleBeaver: return "no double, beaver";
    case CubeAction::DoubleTake: return "double, take";
    case CubeAction::DoubleBeaver: return "double, beaver";
    case CubeAction::DoublePass: return "double, pass";
    case CubeAction::TooGoodTake: return "too good to double, take";
    case CubeAction::TooGoodPass: return "too good to double, pass";
    case CubeAction::Unavailable: return "cube not available";
  }
  return "?";
}

const char* take_name(TakeDecision t) {
  switch (t) {
    case TakeDecision::Take: return "take";
    case TakeDecision::Beaver: return "beaver";
    case TakeDecision::Pass: return "pass";
    case TakeDecision::None: return "none";
  }
  return "?";
}

Probabilities ordered_for_cube(Probabilities p) {
  p.win = std::clamp(p.win, 0.0f, 1.0f);
  p.win_double = std::clamp(p.win_double, 0.0f, p.win);
  p.win_triple = std::clamp(p.win_triple, 0.0f, p.win_double);
  p.lose_double = std::clamp(p.lose_double, 0.0f, 1.0f - p.win);
  p.lose_triple = std::clamp(p.lose_triple, 0.0f, p.lose_double);
  p.draw = 0;
  p.margin = 0;
  return p;
}

double cubeful_equity_money(const Probabilities& p, const CubeState& cube, Player mover, double efficiency) {
  check_probabilities(p);
  validate(cube, MatchState{});
  return money_cubeful(p, cube, mover, efficiency);
}

double cubeful_mwc(const Probabilities& p, const CubeState& cube, const MatchState& match, Player mover,
                   double efficiency, const MatchEquityTable& met) {
  check_probabilities(p);
  validate(cube, match);
  if (match.money()) throw std::invalid_argument("cubeful_mwc is for match play (match length >= 1)");
  if (match.length > met.length())
    throw std::invalid_argument("the match equity table " + met.name() + " covers matches up to " +
                                std::to_string(met.length()) + " points, not " + std::to_string(match.length));
  return match_cubeful(p, cube, match, mover, efficiency, met);
}

CubeDecision cube_decision(const Probabilities& p, const CubeState& cube, const MatchState& match, Player mover,
                           double efficiency, const MatchEquityTable& met) {
  if (!std::isfinite(efficiency) || efficiency < 0.0 || efficiency > 1.0)
    throw std::invalid_argument("cube efficiency must be in [0, 1], got " + std::to_string(efficiency));
  CubeDecision d;
  d.efficiency = efficiency;
  d.available = may_double(cube, match, mover);
  CubeState doubled = cube;
  doubled.value = cube.value * 2;
  doubled.owner = other(mover);
  if (match.money()) {
    d.nd = cubeful_equity_money(p, cube, mover, efficiency);
    if (d.available) {
      d.dt = 2.0 * money_cubeful(p, doubled, mover, efficiency);
      d.dp = 1.0;
    }
  } else {
    d.nd_mwc = cubeful_mwc(p, cube, match, mover, efficiency, met);
    const Score s{met, {match.away(kWhite), match.away(kBlack)}, match.crawford || match.away(kWhite) == 1 ||
                                                                      match.away(kBlack) == 1};
    d.nd = mwc_to_eq(d.nd_mwc, s, mover, cube.value);
    if (d.available) {
      d.dt_mwc = match_cubeful(p, doubled, match, mover, efficiency, met);
      d.dp_mwc = s.me(mover, mover, cube.value);
      d.dt = mwc_to_eq(d.dt_mwc, s, mover, cube.value);
      d.dp = mwc_to_eq(d.dp_mwc, s, mover, cube.value);
    }
  }
  if (!d.available) return d;
  const bool beavers = match.money() && cube.beavers;
  d.action = cube_action(d.nd, d.dt, d.dp, beavers, p.win_double > 0);
  d.take = take_decision(d.dt, d.dp, beavers);
  return d;
}

CubeAction cube_action(double nd, double dt, double dp, bool beavers, bool gammon_chances) {
  return choose(nd, dt, dp, beavers, gammon_chances);
}

TakeDecision take_decision(double dt, double dp, bool beavers) {
  return dt > dp ? TakeDecision::Pass : (beavers && dt <= 0.0 && dt >= -2.0) ? TakeDecision::Beaver : TakeDecision::Take;
}

}  // namespace tavli
