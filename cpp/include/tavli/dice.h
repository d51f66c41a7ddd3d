// Dice: a roll, and the 21 distinct rolls with their weights (RULES.md §1.3).
#pragma once

#include <array>
#include <stdexcept>
#include <string>

namespace tavli {

struct Dice {
  int d1 = 1, d2 = 1;
  bool is_double() const { return d1 == d2; }
  int high() const { return d1 > d2 ? d1 : d2; }
  int low() const { return d1 > d2 ? d2 : d1; }
  // (How many steps a roll gives depends on the game: Rules::steps.)
};

// The message of a roll outside 1..6, given the two values as text (a caller's integers may be
// wider than long long).
inline std::string dice_range_error(const std::string& d1, const std::string& d2) {
  return "dice must be integers 1..6, got (" + d1 + ", " + d2 + ")";
}

// A roll from two integers: each must be 1..6 (std::invalid_argument otherwise).
inline Dice make_dice(long long d1, long long d2) {
  if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
    throw std::invalid_argument(dice_range_error(std::to_string(d1), std::to_string(d2)));
  return Dice{static_cast<int>(d1), static_cast<int>(d2)};
}

struct WeightedRoll {
  Dice dice;
  int weight;  // out of 36: 1 for doubles, 2 otherwise
};

// The 21 distinct rolls, high die first: 1-1, 2-1, 2-2, 3-1, ... 6-6.
inline const std::array<WeightedRoll, 21>& all_rolls() {
  static const std::array<WeightedRoll, 21> rolls = [] {
    std::array<WeightedRoll, 21> r{};
    int i = 0;
    for (int a = 1; a <= 6; ++a)
      for (int b = 1; b <= a; ++b) r[i++] = WeightedRoll{Dice{a, b}, a == b ? 1 : 2};
    return r;
  }();
  return rolls;
}

}  // namespace tavli
