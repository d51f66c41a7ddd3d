#include "tavli/match.h"

#include <stdexcept>

namespace tavli {

Opening opening_from_name(const std::string& name) {
  if (name == opening_name(Opening::Reroll)) return Opening::Reroll;
  if (name == opening_name(Opening::UseOpeningDice)) return Opening::UseOpeningDice;
  throw std::invalid_argument("opening must be 'reroll' or 'use_opening_dice', got '" + name + "'");
}

NextStarter next_starter_from_name(const std::string& name) {
  for (NextStarter n : {NextStarter::PreviousWinner, NextStarter::RollOff, NextStarter::Alternate})
    if (name == next_starter_name(n)) return n;
  throw std::invalid_argument("next_starter must be 'previous_winner', 'roll_off' or 'alternate', got '" + name + "'");
}

Match::Match(std::vector<MatchGame> cycle, int target, NextStarter next_starter)
    : cycle_(std::move(cycle)), target_(target), next_starter_(next_starter),
      game_(cycle_.empty() ? make_rules(Variant::Fevga) : cycle_.front().rules) {
  if (cycle_.empty()) throw std::invalid_argument("a match needs at least one game in its cycle");
  check_match_target(target);
  start_game(std::nullopt);
}

std::optional<Player> Match::winner() const {
  if (phase_ != Phase::Over) return std::nullopt;
  return score_[kWhite] >= target_ ? kWhite : kBlack;
}

void Match::start_game(std::optional<Player> starter) {
  const Rules& rules = current_spec().rules;
  forced_.reset();
  if (starter) {
    starter_ = *starter;
    game_ = Game(rules, start_position(rules), starter_);
    phase_ = Phase::Playing;
  } else {
    game_ = Game(rules);
    phase_ = Phase::Opening;
  }
}

bool Match::roll_opening(int white_die, int black_die) {
  if (phase_ != Phase::Opening) throw IllegalMove("no opening roll is due: the game has started or the match is over");
  const Dice d = make_dice(white_die, black_die);
  if (d.d1 == d.d2) return false;  // a tie: both roll again
  starter_ = d.d1 > d.d2 ? kWhite : kBlack;
  const Rules& rules = current_spec().rules;
  game_ = Game(rules, start_position(rules), starter_);
  if (current_spec().opening == Opening::UseOpeningDice) forced_ = Dice{d.high(), d.low()};
  phase_ = Phase::Playing;
  return true;
}

Play Match::play(const Play& p, Dice dice) {
  if (phase_ == Phase::Opening) throw IllegalMove("the opening roll decides who starts: roll_opening first");
  if (phase_ == Phase::Over) throw IllegalMove("the match is over");
  if (forced_ && !((forced_->d1 == dice.d1 && forced_->d2 == dice.d2) || (forced_->d1 == dice.d2 && forced_->d2 == dice.d1)))
    throw IllegalMove("the first play of this game must use the opening dice " + std::to_string(forced_->d1) + "-" +
                      std::to_string(forced_->d2));
  const Play legal = game_.push(p, dice);
  forced_.reset();
  if (const auto o = game_.outcome()) finish_game(*o);
  return legal;
}

void Match::finish_game(const Outcome& o) {
  results_.push_back(GameResult{current_spec().rules, starter_, o});
  if (o.winner >= 0) score_[o.winner] += o.points;
  if (score_[kWhite] >= target_ || score_[kBlack] >= target_) {
    phase_ = Phase::Over;
    return;
  }
  ++game_number_;
  if (o.winner < 0) {  // a drawn Plakoto game: the rotation goes on, a new roll decides (RULES.md §7.3)
    start_game(std::nullopt);
    return;
  }
  switch (next_starter_) {
    case NextStarter::PreviousWinner: start_game(static_cast<Player>(o.winner)); break;
    case NextStarter::RollOff: start_game(std::nullopt); break;
    case NextStarter::Alternate: start_game(other(starter_)); break;
  }
}

}  // namespace tavli
