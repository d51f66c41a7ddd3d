// Classes of positions of the hitting games, as GNU Backgammon has them: each class has its own
// net (class_net.h), because what matters in a race is not what matters in a fight.
//
//   Bearoff2  both sides home, no contact, each with a checker off and at most
//             TwoSidedBearoff::kMaxCheckers left: exact two-sided values (bearoff2.h)
//   Bearoff1  both sides home, no contact (the rest): exact one-sided values (bearoff.h)
//   Race      no contact (eval.h is_race), some checker still outside its home board
//   Crashed   contact, and a side has crashed its board: at most kCrashedPlaying checkers still
//             in play, not counting the spares buried on its 1- and 2-points (see below)
//   Contact   the rest
//
// "In play" for the crashed test: the side's checkers on the board or the bar, minus those on its
// 1-point beyond the first when it has 2 or more there, and likewise on its 2-point (gnubg's idea:
// checkers dead on the lowest points no longer take part; the formula here is ours).
#pragma once

#include "tavli/game.h"

namespace tavli {

enum class PositionClass : std::uint8_t { Bearoff2, Bearoff1, Race, Crashed, Contact };
constexpr int kPositionClasses = 5;

constexpr int kCrashedPlaying = 6;

PositionClass position_class(const Position& pos, const Rules& rules);
// "bearoff2", "bearoff1", "race", "crashed", "contact".
const char* position_class_name(PositionClass c);
PositionClass position_class_from_name(const std::string& name);  // throws std::invalid_argument

// The checkers of `s` in play by the crashed test above.
int checkers_in_play(const SideState& s);

}  // namespace tavli
