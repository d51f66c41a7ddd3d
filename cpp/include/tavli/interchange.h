// Positions in other programs' formats, for the backgammon-movement games (contrary movement,
// hitting: Backgammon, Portes, Tavla).
//
// GNU Backgammon Position ID (gnubg manual, "A technical description of the Position ID"): an
// 80-bit key, for the player NOT on roll and then the player on roll, for each of his points 1..24
// and then his bar: as many 1 bits as checkers, then a 0; packed little-endian (first bit = lowest
// bit of the first byte) into 10 bytes and written as 14 characters of standard base64 without
// padding. The starting position is "4HPwATDgc/ABMA". A player's point n is our route index 24 - n.
//
// XGID (eXtreme Gammon): "XGID=<26 chars>:<cube log2>:<cube owner>:<turn>:<dice>:<score bottom>:
// <score top>:<crawford/jacoby>:<match length>:<max cube>". Character i (1..24) is the bottom
// player's point i; character 25 is the bottom player's bar, character 0 the top player's bar;
// 'A'..'O' count 1..15 bottom checkers, 'a'..'o' top checkers, '-' none. Turn 1: bottom on roll,
// -1: top. tavli maps the bottom player to White (player 0). The start is
// "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10".
#pragma once

#include <string>

#include "tavli/game.h"

namespace tavli {

std::string gnubg_position_id(const Position& pos);
// The mover is the player on roll; throws InvalidPosition for a malformed or impossible ID.
Position position_from_gnubg_id(const std::string& id, const Rules& rules);

std::string xgid(const Position& pos, Player to_move);
// The position and who is to move; the cube, score and dice fields are checked for form and
// otherwise not used (no cube or match score in a Board yet). Throws InvalidPosition.
Position position_from_xgid(const std::string& xgid, const Rules& rules, Player* to_move);

}  // namespace tavli
