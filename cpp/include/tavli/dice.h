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

inline Dice make_dice(int d1, int d2) {
  if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
    throw std::invalid_argument("dice must be two integers in 1..6, got (" + std::to_string(d1) +
                                ", " + std::to_string(d2) + ")");
  return Dice{d1, d2};
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
