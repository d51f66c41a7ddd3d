// Matches and game flow: the opening roll, who starts each game, scoring to a target, and the
// game cycle of a Greek Tavli match (RULES.md §2-§7.3, D-OPENING, D-NEXTSTART).
//
// The caller supplies every die (from tavli's Rng, a server, or a recorded match), so a match
// replays exactly. Flow:
//   Opening phase: roll_opening(white_die, black_die); equal dice are rolled again. The higher die
//     starts. With Opening::UseOpeningDice (backgammon) his first play must use those two dice
//     (forced_dice()); with Opening::Reroll he rolls both dice afresh.
//   Playing phase: play(play, dice) for the side to move; when the game ends its points are added,
//     and the next game is set up: started by the previous winner (no opening roll), or by a new
//     opening roll (NextStarter::RollOff, and always after a drawn Plakoto game).
//   Over: a player reached the target.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tavli/game.h"

namespace tavli {

// Opening and NextStarter are in variant.h (each game's defaults are in the variant table).
// Their names ("reroll", "use_opening_dice"; "previous_winner", "roll_off", "alternate"), one
// parser each: std::invalid_argument naming the allowed names.
Opening opening_from_name(const std::string& name);
NextStarter next_starter_from_name(const std::string& name);

// A match's target: 1..kMaxMatchTarget points (std::invalid_argument otherwise).
constexpr int kMaxMatchTarget = 999;
inline void check_match_target(int target) {
  if (target < 1 || target > kMaxMatchTarget)
    throw std::invalid_argument("match target must be 1.." + std::to_string(kMaxMatchTarget) + " points");
}

struct MatchGame {
  Rules rules;
  Opening opening;
};

struct GameResult {
  Rules rules;
  Player starter;
  Outcome outcome;
};

class Match {
 public:
  enum class Phase : std::uint8_t { Opening, Playing, Over };

  // `cycle`: the games in order, repeated (one entry for single-game matches). target: see
  // check_match_target.
  Match(std::vector<MatchGame> cycle, int target, NextStarter next_starter);

  Phase phase() const { return phase_; }
  int target() const { return target_; }
  int score(Player p) const { return score_[p]; }
  // Index of the current game (0-based), and its place in the cycle.
  int game_number() const { return game_number_; }
  const MatchGame& current_spec() const { return cycle_[static_cast<std::size_t>(game_number_) % cycle_.size()]; }
  const std::vector<MatchGame>& cycle() const { return cycle_; }
  NextStarter next_starter() const { return next_starter_; }
  // The current game (during Opening: its starting position, White to move, not yet started).
  const Game& game() const { return game_; }
  const std::vector<GameResult>& results() const { return results_; }
  std::optional<Player> winner() const;

  // The opening roll: returns true once a starter is decided (false on a tie: roll again).
  bool roll_opening(int white_die, int black_die);
  // With Opening::UseOpeningDice, the dice the starter's first play must use.
  std::optional<Dice> forced_dice() const { return forced_; }
  // A legal play of the side to move for `dice`; ends the game (and maybe the match) when it does.
  // Returns the play as this game's generator orders its steps (see Game::push).
  Play play(const Play& play, Dice dice);

 private:
  void start_game(std::optional<Player> starter);
  void finish_game(const Outcome& o);

  std::vector<MatchGame> cycle_;
  int target_;
  NextStarter next_starter_;
  Phase phase_ = Phase::Opening;
  int score_[2] = {0, 0};
  int game_number_ = 0;
  Player starter_ = kWhite;
  Game game_;
  std::optional<Dice> forced_;
  std::vector<GameResult> results_;
};

}  // namespace tavli
