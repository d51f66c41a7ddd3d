// A game in progress: rules, the position, whose turn it is, history, and the end of the game.
//
// This is the layer the Python `Board` wraps. It validates positions that come from outside
// (dicts, IDs, arrays), applies plays only when they are legal, and scores finished games.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tavli/movegen.h"
#include "tavli/outcome.h"

namespace tavli {

// Errors a caller can act on. Both are std::invalid_argument, i.e. ValueError in Python.
struct InvalidPosition : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
struct IllegalMove : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// The starting position of a game (White to move, mover-relative).
Position start_position(const Rules& rules);

// Checks that a position can occur in the game; throws InvalidPosition naming the problem.
void validate_position(const Position& pos, const Rules& rules);

// The end of the game judged on a position alone (the side that made the last play is the
// opponent in the mover-relative position): bear-off, and Plakoto's mother rule in its "state"
// reading.
std::optional<Outcome> game_outcome(const Position& pos, const Rules& rules, Player to_move);

// The end of the game after a play: `before` is the position the play was made from (mover-
// relative), `after` the result flipped (the other side, `to_move`, to move). Adds what only the
// play itself tells: the mother rule in its "at_pin_only" reading.
std::optional<Outcome> outcome_after_play(const Position& before, const Position& after, const Rules& rules,
                                          Player to_move);

// Applies a sequence of steps literally (checking only that each step moves an existing checker by
// one of the roll's dice); throws IllegalMove. Used to identify a play given from outside.
Position apply_steps(const Position& pos, const Step* steps, int nsteps, Dice dice, const Rules& rules);

class Game {
 public:
  explicit Game(const Rules& rules);
  Game(const Rules& rules, const Position& pos, Player to_move);  // validates

  const Rules& rules() const { return rules_; }
  const Position& position() const { return pos_; }
  Player turn() const { return turn_; }
  std::optional<Outcome> outcome() const { return played_ ? decided_ : game_outcome(pos_, rules_, turn_); }

  // The legal plays for a roll (uses a per-thread generator).
  void legal_plays(Dice dice, MoveList& out) const;
  // The legal play that the given steps amount to; throws IllegalMove if they amount to none.
  Play find_play(const Step* steps, int nsteps, Dice dice) const;
  // The legal play leading to the given position (mover-relative, not flipped), or IllegalMove.
  Play find_play_by_result(const Position& result, Dice dice) const;

  // Plays a legal play (as returned by legal_plays for `dice`): the other side is then to move.
  // Returns this position's own play with that result, whose steps are the canonical record of the
  // play (a play made elsewhere may reach the same result with its steps in another order).
  Play push(const Play& play, Dice dice);
  // A pushed play as push returned it, with its roll.
  struct Played {
    Play play;
    Dice dice;
  };
  // Undoes the last push and returns that play (std::out_of_range when there is none).
  Played pop();
  std::size_t ply() const { return history_.size(); }
  // The plays pushed and not popped, oldest first: the game's one move history.
  std::vector<Played> plays() const;
  // Forgets the history (the position and its outcome stay): a game taken over from elsewhere
  // starts its own record here, and pop() has nothing to undo.
  void clear_history() { history_.clear(); }

 private:
  struct Undo {
    Position pos;
    Player turn;
    bool played;
    std::optional<Outcome> decided;
    Played made;  // the play that left this position
  };
  Rules rules_;
  Position pos_;
  Player turn_ = kWhite;
  bool played_ = false;               // true once a play was pushed: decided_ is then the outcome
  std::optional<Outcome> decided_;
  std::vector<Undo> history_;
};

// A per-thread generator and list, for callers that do not keep their own.
MoveGenerator& thread_generator();

}  // namespace tavli
