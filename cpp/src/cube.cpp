#include "tavli/cube.h"

namespace tavli {
namespace {

bool power_of_two(int v) { return v >= 1 && (v & (v - 1)) == 0; }

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument(what); }

}  // namespace

void validate(const CubeState& cube, const MatchState& match) {
  if (!power_of_two(cube.value) || cube.value > (1 << kMaxCubeLog2))
    bad("cube value must be a power of two 1..32768, got " + std::to_string(cube.value));
  if (cube.owner < kCentred || cube.owner > 1)
    bad("cube owner must be centred (None/-1) or a player 0 or 1, got " + std::to_string(cube.owner));
  if (!cube.centred() && cube.value < 2) bad("an owned cube has been turned, so its value is at least 2 (got 1)");
  if (cube.max_cube != 0) {
    if (!power_of_two(cube.max_cube) || cube.max_cube > (1 << kMaxCubeLog2))
      bad("maximum cube must be a power of two 1..32768 (or 0 for none), got " + std::to_string(cube.max_cube));
    if (cube.value > cube.max_cube)
      bad("cube value " + std::to_string(cube.value) + " exceeds the maximum cube " + std::to_string(cube.max_cube));
  }
  if (match.length < 0 || match.length > kMaxMatchLength)
    bad("match length must be 0 (money) or 1.." + std::to_string(kMaxMatchLength) + ", got " +
        std::to_string(match.length));
  if (match.money()) {
    if (match.score[0] != 0 || match.score[1] != 0) bad("money play (match length 0) has no score");
    if (match.crawford) bad("money play (match length 0) has no Crawford game");
    return;
  }
  for (int p = 0; p < 2; ++p)
    if (match.score[p] < 0 || match.score[p] >= match.length)
      bad("score " + std::to_string(match.score[p]) + " of player " + std::to_string(p) + " must be 0.." +
          std::to_string(match.length - 1) + " in a " + std::to_string(match.length) + "-point match");
  if (cube.jacoby) bad("the Jacoby rule is a money-play option, not for a match");
  if (cube.beavers) bad("beavers are a money-play option, not for a match");
  if (cube.max_cube != 0) bad("a maximum cube is a money-play option, not for a match");
  if (cube.centred() && cube.value != 1) bad("in a match a centred cube is at 1 (no automatic doubles)");
  const bool one_away = match.away(kWhite) == 1 || match.away(kBlack) == 1;
  if (match.crawford) {
    if (!one_away) bad("a Crawford game needs one side at one point away");
    if (match.away(kWhite) == 1 && match.away(kBlack) == 1)
      bad("a Crawford game cannot be at one-away both sides (the game after it is post-Crawford)");
    if (cube.value != 1) bad("no doubling in the Crawford game: the cube stays at 1");
  }
  if (!cube.centred()) {
    const Player doubler = other(static_cast<Player>(cube.owner));
    if (match.away(doubler) <= cube.value / 2)
      bad("cube at " + std::to_string(cube.value) + " owned by player " + std::to_string(cube.owner) +
          " is beyond what the match can use: player " + std::to_string(doubler) + " needed only " +
          std::to_string(match.away(doubler)) + " point(s), so he could not double to it");
  }
}

void validate_for(const VariantInfo& game, const CubeState& cube, const MatchState& match) {
  if (!game.takes_cube && !(cube == CubeState{}))
    bad(game.name + " has no doubling cube (cube arguments are for backgammon, nackgammon and hypergammon)");
  validate(cube, match);
}

bool may_double(const CubeState& cube, const MatchState& match, Player side) {
  if (!cube.centred() && cube.owner != side) return false;
  if (cube.max_cube != 0 && cube.value * 2 > cube.max_cube) return false;
  if (match.money()) return true;
  return !match.crawford && match.away(side) > cube.value;
}

}  // namespace tavli
