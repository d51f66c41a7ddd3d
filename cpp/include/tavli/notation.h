// Text forms: the position ID and move text.
//
// Position ID:  <variant>[,<option>=<value>...]:<payload>
//   e.g. "fevga:AQAPAAAAAAAAAAAAAAAADwAAAAAAAAAAAAAAAAA" or "moultezim,primes=R1:AQ...".
//   The payload is unpadded base64url of:
//     byte 0       format version (1)
//     byte 1       bit 0 player to move (0 white, 1 black); bit 1 mover's first turn; bit 2
//                  opponent's first turn; bit 3 pin masks follow
//     bytes 2..14  mover: 24 counts as nibbles (route index r in the low nibble of byte r/2 when r
//                  is even, high nibble when odd), then bar | off << 4
//     bytes 15..27 opponent, the same in his own frame
//     bytes 28..33 (only with bit 3) pinned masks, mover then opponent, 3 bytes little endian each
//
// Dice text: two digits, d1 then d2, optionally separated by '-', ',' or spaces, with whitespace
// around ignored: "6-5", "65", "6, 5". The digits are then checked as make_dice checks them.
//
// Move text uses backgammon point numbers from the mover's side: route index r is point 24 - r,
// "bar" the bar and "off" borne off. A play is written as moves "from/to" separated by spaces;
// one checker's consecutive steps are joined ("24/13"), equal moves are counted ("24/18(2)"), and
// moves are listed from the mover's farthest point. A play with no steps is written "pass".
// The parser also accepts the split forms ("24/18 18/13", "24/18/13"), "*" hit marks, "b"/"25"
// for the bar, "o"/"0" for off, and commas between moves. A "*" must follow a point where the play
// hits (IllegalMove naming the mark otherwise: "24*/13", or "24/13*" in a game without hitting); a
// hit left unmarked is accepted, as GNU Backgammon accepts it.
#pragma once

#include <string>

#include "tavli/game.h"

namespace tavli {

std::string position_id(const Rules& rules, const Position& pos, Player to_move);
// Parses an ID into rules, position and player to move; validates everything, throws
// InvalidPosition (or std::invalid_argument for an unknown variant or option).
void parse_position_id(const std::string& id, Rules* rules, Position* pos, Player* to_move);

// The roll of a dice text (above); std::invalid_argument naming the text or the values otherwise.
Dice parse_dice(const std::string& text);

std::string play_to_text(const Play& play);
// The legal play of `game` for `dice` that the text describes; throws IllegalMove.
Play play_from_text(const Game& game, Dice dice, const std::string& text);

}  // namespace tavli
