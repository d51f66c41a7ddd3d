#include "tavli/bearoff.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <numeric>
#include <vector>

#include "tavli/dice.h"
#include "tavli/interrupt.h"
#include "tavli/movegen.h"

namespace tavli {
namespace {

// ways[k][n]: compositions of n checkers into k parts (C(n + k - 1, k - 1)).
struct Ways {
  int w[8][16] = {};
  Ways() {
    for (int n = 0; n < 16; ++n) w[1][n] = 1;
    for (int k = 2; k < 8; ++k)
      for (int n = 0; n < 16; ++n)
        for (int v = 0; v <= n; ++v) w[k][n] += w[k - 1][n - v];
  }
};
const Ways& ways() {
  static const Ways w;
  return w;
}

// Rank of (x0..x5, off) among the compositions of 15 into 7 parts, in lexicographic order; x_j is
// the count on the (j+1)-point, i.e. route index 23 - j.
int rank_of(const int x[6]) {
  const Ways& W = ways();
  int r = 0, rem = kCheckers;
  for (int i = 0; i < 6; ++i) {
    for (int v = 0; v < x[i]; ++v) r += W.w[6 - i][rem - v];
    rem -= x[i];
  }
  return r;
}

}  // namespace

int BearoffTable::index(const SideState& s) {
  int x[6];
  for (int j = 0; j < 6; ++j) x[j] = s.n[23 - j];
  return rank_of(x);
}

BearoffTable::BearoffTable()
    : finish_(kPositions), first_(kPositions), mean_(kPositions, 0.0f), first_mean_(kPositions, 0.0f) {
  // Every position, ordered by pips: a play always lowers them, so children come first.
  std::vector<std::array<int, 6>>& all = order_;
  all.reserve(kPositions);
  std::array<int, 6> x{};
  for (x[0] = 0; x[0] <= 15; ++x[0])
    for (x[1] = 0; x[0] + x[1] <= 15; ++x[1])
      for (x[2] = 0; x[0] + x[1] + x[2] <= 15; ++x[2])
        for (x[3] = 0; x[0] + x[1] + x[2] + x[3] <= 15; ++x[3])
          for (x[4] = 0; x[0] + x[1] + x[2] + x[3] + x[4] <= 15; ++x[4])
            for (x[5] = 0; x[0] + x[1] + x[2] + x[3] + x[4] + x[5] <= 15; ++x[5]) all.push_back(x);
  auto pips = [](const std::array<int, 6>& a) {
    int p = 0;
    for (int j = 0; j < 6; ++j) p += a[static_cast<std::size_t>(j)] * (j + 1);
    return p;
  };
  std::stable_sort(all.begin(), all.end(), [&](const auto& a, const auto& b) { return pips(a) < pips(b); });
}

void BearoffTable::build() {
  const Rules rules = make_rules(Variant::Backgammon);  // the bear-off rule is every game's
  MoveGenerator gen;
  MoveList list;
  for (; built_ < order_.size(); ++built_) {
    // About a second in all, the first time a bear-off is valued: stoppable like the call that
    // needs it, between positions, so that the next use resumes here (a build that started over
    // would never finish under time limits shorter than itself).
    check_stop();
    const auto& a = order_[built_];
    const int idx = rank_of(a.data());
    auto& fin = finish_[static_cast<std::size_t>(idx)];
    auto& fst = first_[static_cast<std::size_t>(idx)];
    fin.fill(0.0f);
    fst.fill(0.0f);
    const int on = std::accumulate(a.begin(), a.end(), 0);
    if (on == 0) {
      fin[0] = 1.0f;
      fst[0] = 1.0f;
      continue;
    }
    Position pos = Position::empty();
    for (int j = 0; j < 6; ++j) pos.own().n[23 - j] = static_cast<std::uint8_t>(a[static_cast<std::size_t>(j)]);
    pos.own().off = static_cast<std::uint8_t>(kCheckers - on);
    pos.opp().off = kCheckers;  // nobody in the way
    pos.refresh();
    float mean = 0, fmean = 0;
    for (const WeightedRoll& wr : all_rolls()) {
      const float w = wr.weight / 36.0f;
      gen.generate(pos, rules, wr.dice, list);
      int best = -1, best_first = -1;
      float best_e = 1e9f, best_fe = 1e9f;
      bool bears_off = false;
      for (int i = 0; i < list.size(); ++i) {
        const int child = index(list[i].result.own());
        const float e = mean_[static_cast<std::size_t>(child)];
        if (e < best_e) {
          best_e = e;
          best = child;
        }
        if (list[i].result.own().off > pos.own().off) bears_off = true;
        const float fe = first_mean_[static_cast<std::size_t>(child)];
        if (fe < best_fe) {
          best_fe = fe;
          best_first = child;
        }
      }
      const auto& cf = finish_[static_cast<std::size_t>(best)];
      for (int k = 0; k + 1 < kMaxRolls; ++k) fin[static_cast<std::size_t>(k + 1)] += w * cf[static_cast<std::size_t>(k)];
      fin[kMaxRolls - 1] += w * cf[kMaxRolls - 1];
      mean += w * (1.0f + best_e);
      if (bears_off) {
        fst[1] += w;
        fmean += w;
      } else {
        const auto& cs = first_[static_cast<std::size_t>(best_first)];
        for (int k = 0; k + 1 < kMaxRolls; ++k) fst[static_cast<std::size_t>(k + 1)] += w * cs[static_cast<std::size_t>(k)];
        fst[kMaxRolls - 1] += w * cs[kMaxRolls - 1];
        fmean += w * (1.0f + best_fe);
      }
    }
    mean_[static_cast<std::size_t>(idx)] = mean;
    first_mean_[static_cast<std::size_t>(idx)] = fmean;
  }
  order_ = {};  // only the build needs these
  first_mean_ = {};
}

const BearoffTable& BearoffTable::get() {
  // Built once, by the first thread that needs it. Not a function-local static: a thread waiting
  // on another's build would be stuck in the initialisation guard, deaf to a stop request, and the
  // builder stops only if someone polls (interrupt.h); here waiters keep checking. A stopped build
  // keeps what it has done (`partial`), and the next use carries on from there.
  static std::atomic<const BearoffTable*> built{nullptr};
  static std::mutex building;
  static std::unique_ptr<BearoffTable> partial;  // guarded by `building`
  if (const BearoffTable* t = built.load(std::memory_order_acquire)) return *t;
  while (!building.try_lock()) {
    check_stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::lock_guard<std::mutex> lock(building, std::adopt_lock);
  if (!partial) partial.reset(new BearoffTable());
  if (!built.load(std::memory_order_relaxed)) {
    partial->build();  // Interrupted or TimeLimitReached: the positions valued so far stay valued
    built.store(partial.get(), std::memory_order_release);
  }
  return *partial;
}

}  // namespace tavli
