#include "tavli/game.h"

#include "tavli/check.h"
#include "tavli/playout.h"
#include "tavli/scratch.h"

#include <algorithm>

namespace tavli {

Position start_position(const Rules& rules) {
  Position p = Position::empty();
  for (auto& s : p.side) {
    switch (rules.start) {
      case StartLayout::Stack:
        s.n[0] = static_cast<std::uint8_t>(rules.checkers);
        break;
      case StartLayout::Backgammon:  // 24-pt 2, 13-pt 5, 8-pt 3, 6-pt 5
        s.n[0] = 2;
        s.n[11] = 5;
        s.n[16] = 3;
        s.n[18] = 5;
        break;
      case StartLayout::Nackgammon:  // 24-pt 2, 23-pt 2, 13-pt 4, 8-pt 3, 6-pt 4 (RULES-KIN.md §4)
        s.n[0] = 2;
        s.n[1] = 2;
        s.n[11] = 4;
        s.n[16] = 3;
        s.n[18] = 4;
        break;
      case StartLayout::Hyper:  // one each on the 24-, 23-, 22-points (RULES-KIN.md §5)
        for (int r = 0; r < rules.checkers; ++r) s.n[r] = 1;
        break;
    }
    if (rules.head_limit) s.flags = SideState::kFirstTurn;  // Narde: both sides still to play
  }
  p.refresh();
  return p;
}

namespace {

int opp_index(const Rules& rules, int my_r) { return facing_point(rules.movement, my_r); }

// Plakoto (RULES.md §5.4): the side's start holds exactly one of its checkers, and it is pinned.
bool mother_pinned(const SideState& s) { return s.n[0] == 1 && (s.pinned & 1u); }

}  // namespace

void validate_position(const Position& pos, const Rules& rules) {
  // Every row of a bulk call passes through here: the common checks are branch-free sums and
  // masks, and the messages are built only on failure.
  static const char* who[2] = {"mover", "opponent"};
  const std::string& game = rules.info().name;
  std::uint32_t occupied[2] = {0, 0};
  for (int s = 0; s < 2; ++s) {
    const SideState& st = pos.side[s];
    const SideState& other_side = pos.side[1 - s];
    const std::string name = who[s];
    int total = st.bar + st.off, most = 0;
    for (int r = 0; r < kPoints; ++r) {
      total += st.n[r];
      most = std::max(most, static_cast<int>(st.n[r]));
      occupied[s] |= static_cast<std::uint32_t>(st.n[r] != 0) << r;
    }
    if (most > rules.checkers) {
      const int r = static_cast<int>(std::find_if(st.n, st.n + kPoints, [&](int c) { return c > rules.checkers; }) - st.n);
      throw InvalidPosition(name + " has " + std::to_string(st.n[r]) + " checkers on point " + std::to_string(r) +
                            " (at most " + std::to_string(rules.checkers) + ")");
    }
    if (total != rules.checkers)
      throw InvalidPosition(name + " has " + std::to_string(total) +
                            " checkers (on board + bar + off); every side has exactly " +
                            std::to_string(rules.checkers) + " in " + game);
    if (st.bar != 0 && rules.contact != Contact::Hit)
      throw InvalidPosition(name + " has checkers on the bar, but nothing is ever hit in " + game);
    if (st.flags & ~SideState::kFirstTurn) throw InvalidPosition(name + ": unknown flag bits");
    if (st.flags & SideState::kFirstTurn) {
      if (!rules.head_limit)
        throw InvalidPosition(name + " has the first-turn flag set, which no rule of " + game + " uses");
      if (st.n[0] != rules.checkers)
        throw InvalidPosition(name + " is marked as not having played yet, but has checkers off its start");
    }
    if (st.pinned & ~kBoardMask) throw InvalidPosition(name + ": pin mask beyond the 24 points");
    if (st.pinned != 0 && rules.contact != Contact::Pin)
      throw InvalidPosition(name + " has pinned checkers, but nothing is pinned in " + game);
    for (std::uint32_t m = st.pinned; m; m &= m - 1) {
      const int r = lowest_bit(m);
      const int o = opp_index(rules, r);
      if (st.n[r] != 1)
        throw InvalidPosition(name + " has " + std::to_string(st.n[r]) + " checkers on pinned point " +
                              std::to_string(r) + " (a pinned checker is alone)");
      if (other_side.n[o] == 0)
        throw InvalidPosition(name + "'s checker on point " + std::to_string(r) + " is pinned by nobody");
      if (other_side.pinned & bit(o))
        throw InvalidPosition("point " + std::to_string(r) + " of the " + name + " has both sides' checkers pinned");
    }
  }
  // Points held by both sides: only a pin allows it.
  // In the mover's frame: bit r of facing_points(opp mask) is the opponent's point facing r.
  const std::uint32_t both = occupied[0] & facing_points(rules.movement, occupied[1]) & ~pos.own().pinned &
                             ~facing_points(rules.movement, pos.opp().pinned & kBoardMask);
  if (both) {
    const int r = lowest_bit(both);
    throw InvalidPosition("point " + std::to_string(r) + " (mover's route index) is held by both sides" +
                          (rules.contact == Contact::Pin ? " without a pin" : ""));
  }
  if (pos.own().off == rules.checkers)
    throw InvalidPosition("the side to move has already borne off all its checkers (the game ended before)");
}

namespace {

std::optional<Outcome> bear_off_outcome(const Position& pos, const Rules& rules, Player to_move) {
  const SideState& winner = pos.opp();  // the side that made the last play
  const SideState& loser = pos.own();
  if (winner.off != rules.checkers) return std::nullopt;
  const int w = other(to_move);
  if (rules.scoring == Scoring::CheckersLeft) return Outcome{w, rules.checkers - loser.off, ResultKind::Checkers};
  if (loser.off > 0 || rules.scoring == Scoring::Single) return Outcome{w, 1, ResultKind::Single};
  // The winner's home board in the loser's frame: r0..5 (contrary) or r6..11 (parallel).
  const std::uint32_t winners_home = rules.movement == Movement::Contrary ? range_mask(0, 5) : range_mask(6, 11);
  const bool caught = (loser.occ & winners_home) != 0;
  if (rules.scoring == Scoring::Backgammon && (caught || loser.bar)) return Outcome{w, 3, ResultKind::Triple};
  if (rules.koks && caught) return Outcome{w, 3, ResultKind::Triple};
  return Outcome{w, 2, ResultKind::Double};
}

}  // namespace

std::optional<Outcome> game_outcome(const Position& pos, const Rules& rules, Player to_move) {
  if (rules.mother == MotherRule::State) {
    // Judged for both sides on every position (RULES.md §5.4); `own` is to move, `opp` just moved.
    const bool own_pinned = mother_pinned(pos.own()), opp_pinned = mother_pinned(pos.opp());
    if (own_pinned && opp_pinned) return Outcome{-1, 0, ResultKind::Draw};
    if (own_pinned && pos.opp().n[0] == 0) return Outcome{other(to_move), rules.mother_points, ResultKind::Mother};
    if (opp_pinned && pos.own().n[0] == 0) return Outcome{to_move, rules.mother_points, ResultKind::Mother};
  }
  if (auto o = bear_off_outcome(pos, rules, to_move)) return o;
  if (rules.dead_position_draw && !has_any_step(pos.own(), pos.opp(), rules) &&
      !has_any_step(pos.opp(), pos.own(), rules))
    return Outcome{-1, 0, ResultKind::Draw};
  return std::nullopt;
}

std::optional<Outcome> outcome_after_play(const Position& before, const Position& after, const Rules& rules,
                                          Player to_move) {
  if (rules.mother == MotherRule::AtPinOnly) {
    // Only a pin made by this play counts: the mover pinned the opponent's mother just now.
    const SideState& mover = after.opp();
    const SideState& pinned_side = after.own();
    if (mother_pinned(pinned_side) && !mother_pinned(before.opp())) {
      if (mother_pinned(mover)) return Outcome{-1, 0, ResultKind::Draw};
      if (mover.n[0] == 0) return Outcome{other(to_move), rules.mother_points, ResultKind::Mother};
    }
  }
  return game_outcome(after, rules, to_move);
}

namespace {
// Can each step take its own die of the roll? A step on the board needs its exact distance, a
// bear-off any die at least as large. Tried exhaustively: at most six steps.
bool dice_fit(const int* need, const bool* at_least, int n, int* left) {
  if (n == 0) return true;
  for (int d = need[0]; d <= (at_least[0] ? 6 : need[0]); ++d) {
    if (d < 1 || d > 6 || left[d] == 0) continue;
    --left[d];
    const bool ok = dice_fit(need + 1, at_least + 1, n - 1, left);
    ++left[d];
    if (ok) return true;
  }
  return false;
}
}  // namespace

Position apply_steps(const Position& pos, const Step* steps, int nsteps, Dice dice, const Rules& rules) {
  const int max_steps = rules.steps(dice.d1, dice.d2);
  if (nsteps > max_steps)
    throw IllegalMove("a roll of " + std::to_string(dice.d1) + "-" + std::to_string(dice.d2) + " gives at most " +
                      std::to_string(max_steps) + " steps, the play has " + std::to_string(nsteps));
  int need[kMaxSteps];
  bool at_least[kMaxSteps];
  Position p = pos;
  SideState& me = p.own();
  me.clear_first_turn();  // as in every generated result: the mover has now played
  for (int k = 0; k < nsteps; ++k) {
    const int from = steps[k].from, to = steps[k].to;
    const std::string where =
        "step " + std::to_string(k + 1) + " (" + std::to_string(from) + "->" + std::to_string(to) + ")";
    if (from < kBar || from > 23 || to < 0 || to > kOff || to <= from)
      throw IllegalMove(where + ": steps go forward from -1 (bar) or 0..23 to 0..23 or 24 (off)");
    if (from == kBar ? me.bar == 0 : me.n[from] == 0) throw IllegalMove(where + ": no checker of the mover there");
    need[k] = from == kBar ? to + 1 : to - from;
    at_least[k] = to == kOff;
    if (need[k] > 6) throw IllegalMove(where + ": longer than any die");
    apply_step(p, from, to, rules.contact, rules.movement);
  }
  int left[7] = {0, 0, 0, 0, 0, 0, 0};
  if (dice.is_double()) left[dice.d1] = max_steps;
  else left[dice.d1] = left[dice.d2] = 1;
  if (!dice_fit(need, at_least, nsteps, left))
    throw IllegalMove("the steps do not match the dice " + std::to_string(dice.d1) + "-" + std::to_string(dice.d2));
  return p;
}

MoveGenerator& thread_generator() {
  thread_local MoveGenerator gen;
  return gen;
}

Game::Game(const Rules& rules) : rules_(rules), pos_(start_position(rules)) {}

Game::Game(const Rules& rules, const Position& pos, Player to_move) : rules_(rules), pos_(pos), turn_(to_move) {
  validate_position(pos_, rules_);
}

void Game::legal_plays(Dice dice, MoveList& out) const {
  if (outcome()) throw IllegalMove("the game is over: there are no legal plays");
  thread_generator().generate(pos_, rules_, dice, out);
}

Play Game::find_play_by_result(const Position& result, Dice dice) const {
  Scratch<MoveList> plays;
  MoveList& list = *plays;
  legal_plays(dice, list);
  for (const Play& p : list)
    if (p.result == result) return p;
  throw IllegalMove("not a legal play for the roll " + std::to_string(dice.d1) + "-" + std::to_string(dice.d2) +
                    " in this position");
}

Play Game::find_play(const Step* steps, int nsteps, Dice dice) const {
  return find_play_by_result(apply_steps(pos_, steps, nsteps, dice, rules_), dice);
}

Play Game::push(const Play& play, Dice dice) {
  if (outcome()) throw IllegalMove("the game is over: there are no legal plays");
  // Identify the play by where its steps lead here, and insist that this is where the play itself
  // leads: a play generated for another position cannot sneak in, even with the same steps.
  const Play legal = find_play(play.steps, play.nsteps, dice);
  if (!(legal.result == play.result))
    throw IllegalMove("this play belongs to another position (its steps lead elsewhere here)");
  history_.push_back(Undo{pos_, turn_, played_, decided_, Played{legal, dice}});
  PlyResult step = advance(pos_, legal, rules_, turn_);
  pos_ = step.position;
  turn_ = step.to_move;
  played_ = true;
  decided_ = step.outcome;
  check_position(pos_);
  return legal;
}

Game::Played Game::pop() {
  if (history_.empty()) throw std::out_of_range("pop from a board with no plays to undo");
  const Played made = history_.back().made;
  pos_ = history_.back().pos;
  turn_ = history_.back().turn;
  played_ = history_.back().played;
  decided_ = history_.back().decided;
  history_.pop_back();
  return made;
}

std::vector<Game::Played> Game::plays() const {
  std::vector<Played> out;
  out.reserve(history_.size());
  for (const Undo& u : history_) out.push_back(u.made);
  return out;
}

}  // namespace tavli
