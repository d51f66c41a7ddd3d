// Two-sided exact bear-off database (bearoff2.h: index conventions and the recurrence).
#include "tavli/bearoff2.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "tavli/bearoff.h"
#include "tavli/dice.h"
#include "tavli/movegen.h"

namespace tavli {
namespace {

constexpr int K = TwoSidedBearoff::kMaxCheckers;

// ways(k, n): placements of at most n checkers on k points, C(n + k, k).
int ways(int k, int n) {
  long long c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n + i) / i;
  return static_cast<int>(c);
}

int rank_of(const std::array<int, 6>& x) {
  int r = 0, rem = K;
  for (int i = 0; i < 6; ++i) {
    for (int v = 0; v < x[static_cast<std::size_t>(i)]; ++v) r += ways(5 - i, rem - v);
    rem -= x[static_cast<std::size_t>(i)];
  }
  return r;
}

}  // namespace

bool TwoSidedBearoff::fits(const SideState& s) { return all_home(s) && s.on_board() <= K; }

int TwoSidedBearoff::side_index(const SideState& s) {
  if (!fits(s)) return -1;
  std::array<int, 6> x{};
  for (int j = 0; j < 6; ++j) x[static_cast<std::size_t>(j)] = s.n[23 - j];
  return rank_of(x);
}

float TwoSidedBearoff::win(const SideState& mover, const SideState& other) const {
  const int a = side_index(mover), b = side_index(other);
  if (a < 0 || b < 0) throw std::invalid_argument("two-sided bear-off: a side has checkers outside its home board, on the bar or more than " + std::to_string(K) + " left");
  if (a == 0) throw std::invalid_argument("two-sided bear-off: the side to move has no checker left (the game is over)");
  return win_by_index(a, b);
}

TwoSidedBearoff::TwoSidedBearoff() : win_(static_cast<std::size_t>(kSides) * kSides, 0.0f) {
  static_assert(kSides == 924, "kSides must be C(kMaxCheckers + 6, 6)");
  // Every side in rank order (lexicographic loops), with its pips.
  std::vector<std::array<int, 6>> sides;
  std::array<int, 6> x{};
  for (x[0] = 0; x[0] <= K; ++x[0])
    for (x[1] = 0; x[0] + x[1] <= K; ++x[1])
      for (x[2] = 0; x[0] + x[1] + x[2] <= K; ++x[2])
        for (x[3] = 0; x[0] + x[1] + x[2] + x[3] <= K; ++x[3])
          for (x[4] = 0; x[0] + x[1] + x[2] + x[3] + x[4] <= K; ++x[4])
            for (x[5] = 0; x[0] + x[1] + x[2] + x[3] + x[4] + x[5] <= K; ++x[5]) sides.push_back(x);
  if (static_cast<int>(sides.size()) != kSides || rank_of(sides.back()) != kSides - 1)
    throw std::logic_error("two-sided bear-off: ranking out of step with the enumeration");
  std::vector<int> pips(kSides);
  constexpr int kMaxPips = 6 * K;
  std::vector<std::vector<int>> by_pips(kMaxPips + 1);
  for (int i = 0; i < kSides; ++i) {
    int p = 0;
    for (int j = 0; j < 6; ++j) p += sides[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] * (j + 1);
    pips[static_cast<std::size_t>(i)] = p;
    by_pips[static_cast<std::size_t>(p)].push_back(i);
  }

  // The distinct results of each side's plays per roll (a side's plays in a bear-off do not
  // depend on the other side): succ[i * 21 + roll], from the engine's own generator.
  const Rules rules = make_rules(Variant::Backgammon);  // the bear-off rule is every game's
  MoveGenerator gen;
  MoveList list;
  std::vector<std::vector<int>> succ(static_cast<std::size_t>(kSides) * 21);
  for (int i = 1; i < kSides; ++i) {
    Position pos = Position::empty();
    int on = 0;
    for (int j = 0; j < 6; ++j) {
      const int n = sides[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
      pos.own().n[23 - j] = static_cast<std::uint8_t>(n);
      on += n;
    }
    pos.own().off = static_cast<std::uint8_t>(kCheckers - on);
    pos.opp().off = kCheckers;  // nobody in the way
    pos.refresh();
    const auto& rolls = all_rolls();
    for (int k = 0; k < 21; ++k) {
      gen.generate(pos, rules, rolls[static_cast<std::size_t>(k)].dice, list);
      std::vector<int>& s = succ[static_cast<std::size_t>(i) * 21 + k];
      for (int m = 0; m < list.size(); ++m) s.push_back(side_index(list[m].result.own()));
      std::sort(s.begin(), s.end());
      s.erase(std::unique(s.begin(), s.end()), s.end());
    }
  }

  // V(a, b) in increasing pips(a) + pips(b): each child a' has fewer pips than a.
  const auto& rolls = all_rolls();
  for (int total = 1; total <= 2 * kMaxPips; ++total)
    for (int pa = std::max(1, total - kMaxPips); pa <= std::min(total, kMaxPips); ++pa)
      for (int a : by_pips[static_cast<std::size_t>(pa)])
        for (int b : by_pips[static_cast<std::size_t>(total - pa)]) {
          if (b == 0) continue;  // the other side has finished: a game over, left at 0
          float v = 0.0f;
          for (int k = 0; k < 21; ++k) {
            float best = 0.0f;
            for (int c : succ[static_cast<std::size_t>(a) * 21 + k]) {
              const float w = c == 0 ? 1.0f : 1.0f - win_by_index(b, c);
              best = std::max(best, w);
            }
            v += best * static_cast<float>(rolls[static_cast<std::size_t>(k)].weight) / 36.0f;
          }
          win_[static_cast<std::size_t>(a) * kSides + b] = v;
        }
}

const TwoSidedBearoff& TwoSidedBearoff::get() {
  static const TwoSidedBearoff table;  // a fraction of a second: built by the first caller
  return table;
}

}  // namespace tavli
