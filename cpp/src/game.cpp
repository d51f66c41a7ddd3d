#include "tavli/game.h"

#include <algorithm>

namespace tavli {

Position start_position(const Rules& rules) {
  Position p = Position::empty();
  for (auto& s : p.side) {
    if (rules.start == StartLayout::Stack) {
      s.n[0] = kCheckers;
    } else {  // 24-pt 2, 13-pt 5, 8-pt 3, 6-pt 5
      s.n[0] = 2;
      s.n[11] = 5;
      s.n[16] = 3;
      s.n[18] = 5;
    }
  }
  p.refresh();
  return p;
}

void validate_position(const Position& pos, const Rules& rules) {
  static const char* who[2] = {"mover", "opponent"};
  for (int s = 0; s < 2; ++s) {
    const SideState& st = pos.side[s];
    int total = st.bar + st.off;
    for (int r = 0; r < kPoints; ++r) {
      if (st.n[r] > kCheckers)
        throw InvalidPosition(std::string(who[s]) + " has " + std::to_string(st.n[r]) + " checkers on point " +
                              std::to_string(r) + " (at most 15)");
      total += st.n[r];
    }
    if (total != kCheckers)
      throw InvalidPosition(std::string(who[s]) + " has " + std::to_string(total) +
                            " checkers (on board + bar + off); every side has exactly 15");
    if (st.bar != 0 && rules.contact != Contact::Hit)
      throw InvalidPosition(std::string(who[s]) + " has checkers on the bar, but nothing is ever hit in " +
                            rules.info().name);
    if (st.flags != 0)  // the first-turn flag belongs to Narde's head rule, not part of these games yet
      throw InvalidPosition(std::string(who[s]) + " has the first-turn flag set, which no rule of " +
                            rules.info().name + " uses");
    if (st.pinned != 0 && rules.contact != Contact::Pin)
      throw InvalidPosition(std::string(who[s]) + " has pinned checkers, but nothing is pinned in " + rules.info().name);
  }
  if (rules.contact == Contact::Block) {
    const std::uint32_t opp = rules.movement == Movement::Parallel ? rotate12(pos.opp().occ) : reverse24(pos.opp().occ);
    const std::uint32_t both = pos.own().occ & opp;
    if (both) {
      const int r = lowest_bit(both);
      throw InvalidPosition("point " + std::to_string(r) + " (mover's route index) is held by both sides; in " +
                            rules.info().name + " one checker closes a point");
    }
  }
  if (pos.own().off == kCheckers)
    throw InvalidPosition("the side to move has already borne off all its checkers (the game ended before)");
}

std::optional<Outcome> game_outcome(const Position& pos, const Rules& rules, Player to_move) {
  (void)rules;
  const SideState& last = pos.opp();  // the side that made the last play
  if (last.off != kCheckers) return std::nullopt;
  // Fevga, Moultezim (RULES.md §6.7): 2 points if the loser has borne off none.
  const bool doubled = pos.own().off == 0;
  return Outcome{other(to_move), doubled ? 2 : 1, doubled ? ResultKind::Double : ResultKind::Single};
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

Position apply_steps(const Position& pos, const Step* steps, int nsteps, Dice dice) {
  if (nsteps > dice.steps())
    throw IllegalMove("a roll of " + std::to_string(dice.d1) + "-" + std::to_string(dice.d2) + " gives at most " +
                      std::to_string(dice.steps()) + " steps, the play has " + std::to_string(nsteps));
  int need[kMaxSteps];
  bool at_least[kMaxSteps];
  Position p = pos;
  SideState& me = p.own();
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
    if (from == kBar) {
      me.bar = static_cast<std::uint8_t>(me.bar - 1);
      me.refresh();
    } else {
      me.remove(from);
    }
    if (to == kOff) me.add_off();
    else me.add(to);
  }
  int left[7] = {0, 0, 0, 0, 0, 0, 0};
  if (dice.is_double()) left[dice.d1] = 4;
  else left[dice.d1] = left[dice.d2] = 1;
  if (!dice_fit(need, at_least, nsteps, left))
    throw IllegalMove("the steps do not match the dice " + std::to_string(dice.d1) + "-" + std::to_string(dice.d2));
  return p;
}

MoveGenerator& thread_generator() {
  thread_local MoveGenerator gen;
  return gen;
}

namespace {
MoveList& thread_list() {
  thread_local MoveList list;
  return list;
}
}  // namespace

Game::Game(const Rules& rules) : rules_(rules), pos_(start_position(rules)) {}

Game::Game(const Rules& rules, const Position& pos, Player to_move) : rules_(rules), pos_(pos), turn_(to_move) {
  validate_position(pos_, rules_);
}

void Game::legal_plays(Dice dice, MoveList& out) const {
  if (outcome()) throw IllegalMove("the game is over: there are no legal plays");
  thread_generator().generate(pos_, rules_, dice, out);
}

Play Game::find_play_by_result(const Position& result, Dice dice) const {
  MoveList& list = thread_list();
  legal_plays(dice, list);
  for (const Play& p : list)
    if (p.result == result) return p;
  throw IllegalMove("not a legal play for the roll " + std::to_string(dice.d1) + "-" + std::to_string(dice.d2) +
                    " in this position");
}

Play Game::find_play(const Step* steps, int nsteps, Dice dice) const {
  return find_play_by_result(apply_steps(pos_, steps, nsteps, dice), dice);
}

void Game::push(const Play& play, Dice dice) {
  // Identify the play by where its steps lead here, and insist that this is where the play itself
  // leads: a play generated for another position cannot sneak in, even with the same steps.
  const Play legal = find_play(play.steps, play.nsteps, dice);
  if (!(legal.result == play.result))
    throw IllegalMove("this play belongs to another position (its steps lead elsewhere here)");
  history_.push_back(Undo{pos_, turn_});
  pos_ = legal.result;
  pos_.flip();
  turn_ = other(turn_);
}

void Game::pop() {
  if (history_.empty()) throw std::out_of_range("pop from a board with no plays to undo");
  pos_ = history_.back().pos;
  turn_ = history_.back().turn;
  history_.pop_back();
}

}  // namespace tavli
