// Positions in other programs' formats, for the backgammon-movement games (contrary movement,
// hitting: Backgammon, Portes, Tavla).
//
// GNU Backgammon Position ID (gnubg manual, "A technical description of the Position ID"): an
// 80-bit key, for the player NOT on roll and then the player on roll, for each of his points 1..24
// and then his bar: as many 1 bits as checkers, then a 0; packed little-endian (first bit = lowest
// bit of the first byte) into 10 bytes and written as 14 characters of standard base64 without
// padding. The starting position is "4HPwATDgc/ABMA". A player's point n is our route index 24 - n.
//
// GNU Backgammon Match ID (gnubg manual, "A technical description of the Match ID"): 66 bits
// packed little-endian like the Position ID into 9 bytes, written as 12 characters of base64:
//   bits  0-3   log2 of the cube value          bits 15-17  die 1 (0 = not rolled)
//   bits  4-5   cube owner: 0, 1, or 3 centred  bits 18-20  die 2
//   bit   6     the player on roll (dice owner) bits 21-35  match length (0 = money)
//   bit   7     this is the Crawford game       bits 36-50  player 0's score
//   bits  8-10  game state: 0 none, 1 playing,  bits 51-65  player 1's score
//               2 over, 3 resigned, 4 dropped cube
//   bit  11     the player to act (turn)        bit  12     a double is offered
//   bits 13-14  resignation offered (0 none, 1 single, 2 gammon, 3 backgammon)
//   bit  66     (not in the manual; gnubg 1.07 writes it) set unless the Jacoby rule is in
//               effect: set in every match and in money play without Jacoby
// gnubg's players 0 and 1 are tavli's White (0) and Black (1). The combined form is
// "<Position ID>:<Match ID>"; the Position ID is seen by the player on roll. Beavers and a
// maximum cube are not in the Match ID; a money session's running score is read and dropped
// (money play has no score here).
//
// XGID (eXtreme Gammon): "XGID=<26 chars>:<cube log2>:<cube owner>:<turn>:<dice>:<score bottom>:
// <score top>:<crawford/jacoby>:<match length>:<max cube log2>". Character i (1..24) is the bottom
// player's point i; character 25 is the bottom player's bar, character 0 the top player's bar;
// 'A'..'O' count 1..15 bottom checkers, 'a'..'o' top checkers, '-' none. Cube owner 1: bottom,
// -1: top, 0: centred. Turn 1: bottom on roll, -1: top. Field 8 in a match: 1 = the Crawford
// game (0..1); in money play: bit 0 the Jacoby rule, bit 1 beavers (0..3). Scores must be below
// the match length in a match (money: a session's points, read and dropped). The cube's log2 is
// 0..15 and at most the maximum cube's log2 (0..15; written as 10, XG's default, when money play
// has no cap and in matches). Dice "D", "B", "R" (a double, beaver, raccoon pending) are read and
// dropped. tavli maps the bottom player to White (player 0). The start is
// "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10".
#pragma once

#include <string>

#include "tavli/cube.h"
#include "tavli/game.h"

namespace tavli {

// The ID of a position of `rules`' game; throws InvalidPosition unless the game has backgammon's
// movement and hitting (the formats know no other).
std::string gnubg_position_id(const Position& pos, const Rules& rules);
// The mover is the player on roll; throws InvalidPosition for a malformed or impossible ID.
Position position_from_gnubg_id(const std::string& id, const Rules& rules);

struct GnubgMatchId {
  CubeState cube;
  MatchState match;
  Player on_roll = kWhite;  // the dice owner
  Player turn = kWhite;     // the player to act (the doubled player while a double is offered)
  int game_state = 1;       // 0 none, 1 playing, 2 over, 3 resigned, 4 ended by a dropped cube
  bool double_offered = false;
  int resignation = 0;      // 0 none, 1 single, 2 gammon, 3 backgammon
  int dice[2] = {0, 0};     // 0 = not rolled
};
std::string gnubg_match_id(const GnubgMatchId& m);
// Throws InvalidPosition for a malformed Match ID, std::invalid_argument (cube.h's validate) for
// an impossible cube or score.
GnubgMatchId parse_gnubg_match_id(const std::string& id);

// The XGID of a position of `rules`' game; throws InvalidPosition as gnubg_position_id does.
std::string xgid(const Position& pos, const Rules& rules, Player to_move, const CubeState& cube = {},
                 const MatchState& match = {});
// The position and who is to move, and (when the pointers are given) the cube and the match
// state; the dice are checked for form and not used. Throws InvalidPosition for a malformed
// field, std::invalid_argument for an impossible cube or score.
Position position_from_xgid(const std::string& xgid, const Rules& rules, Player* to_move, CubeState* cube = nullptr,
                            MatchState* match = nullptr);

}  // namespace tavli
