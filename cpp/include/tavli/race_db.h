// One-sided race database: for every way to have up to `checkers` (normally 15; fewer for small
// tables in tests) checkers on a side's lowest `points` points (the rest of 15 borne off, none on
// the bar), the distribution of the number of rolls needed to
// bear them all off, playing each roll to minimise the expected number of rolls, and of the rolls
// needed to bear off the first one (playing to minimise that instead). With points = 6 it is the
// bear-off table (bearoff.h); with more points it also covers races with checkers outside home
// (GNU Backgammon's optional database is 15 checkers on 10 points).
//
// Index conventions: a side is its counts x_j on its (j+1)-point, j = 0..points-1 (route index
// 23 - j), sum <= checkers; index() ranks (x_0..x_{points-1}) lexicographically among the
// C(checkers + points, points) compositions (rank 0: everything off).
//
// Storage: each distribution keeps kWindow consecutive roll counts from a per-position start (the
// window holding the most mass; the little outside is folded onto its ends, see max_folded()),
// as 16-bit fractions of 65535 that sum to exactly 65535. The expected rolls are kept as floats
// (the build chooses plays by them). File (save/load): little-endian, "TAVLIRDB" magic, version,
// points, checkers, positions, levels done; then the arrays (see race_db.cpp).
//
// Build: by the engine's own move generator (a side alone on the board: the bear-off rule is every
// game's, RULES.md §1.5), positions in increasing pips (a play always lowers them, so children come
// first), each pip level split over the threads (results do not depend on their number). Stoppable
// between positions (check_stop); a stopped build keeps every finished pip level, and build() or a
// saved partial file resumes from there.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tavli/eval.h"
#include "tavli/movegen.h"
#include "tavli/position.h"

namespace tavli {

class RaceDatabase {
 public:
  static constexpr int kMinPoints = 1, kMaxPoints = 10;
  static constexpr int kWindow = 16;    // roll counts kept per distribution
  static constexpr int kMaxRolls = 64;  // distributions are read out over 0..kMaxRolls-1 rolls

  // Nothing valued yet; std::invalid_argument unless kMinPoints <= points <= kMaxPoints and
  // 1 <= checkers <= 15.
  explicit RaceDatabase(int points, int checkers = kCheckers);
  // Values the positions not yet valued, on `threads` threads; throws Interrupted /
  // TimeLimitReached between positions, keeping every finished pip level.
  void build(int threads);
  bool complete() const { return levels_done_ == levels_.size() - 1; }
  int points() const { return points_; }
  int checkers() const { return checkers_; }
  std::int64_t size() const { return static_cast<std::int64_t>(mean_.size()); }
  // How many positions are valued (whole pip levels).
  std::int64_t positions_done() const;
  // The most probability mass any distribution had outside its window (folded onto the ends).
  float max_folded() const { return max_folded_; }

  // Whether every checker of `s` is on its points 1..points() (none on the bar), checkers() at most.
  bool fits(const SideState& s) const {
    return s.bar == 0 && (s.occ & ~mask_) == 0 && (checkers_ == kCheckers || s.on_board() <= checkers_);
  }
  std::int64_t index(const SideState& s) const;  // s must fit
  // out[k] = P(exactly k rolls), k = 0..kMaxRolls-1: to bear off every checker / the first one.
  void rolls_to_finish(std::int64_t index, float* out) const { read(finish_, index, out); }
  void rolls_to_first(std::int64_t index, float* out) const { read(first_, index, out); }
  float expected_rolls(std::int64_t index) const { return mean_[static_cast<std::size_t>(index)]; }

  // Writes the table (complete or partial) to `path` via a temporary file and a rename.
  void save(const std::string& path) const;
  // Reads a file written by save(); std::runtime_error naming the problem for a bad file.
  static std::unique_ptr<RaceDatabase> load(const std::string& path);

 private:
  struct Dist {
    std::uint8_t lo;
    std::array<std::uint16_t, kWindow> p;
  };
  static void read(const std::vector<Dist>& v, std::int64_t index, float* out);
  static Dist pack(const float* d, float* folded);
  void value(std::int64_t rank, MoveGenerator& gen, MoveList& list, const Rules& rules);
  void unrank(std::int64_t rank, int* x) const;

  int points_, checkers_;
  std::uint32_t mask_;
  std::vector<std::array<std::int64_t, 16>> ways_;  // ways_[k][n]: compositions of n into k parts
  std::vector<std::int64_t> skip_;                   // prefix sums of ways_ for index() (race_db.cpp)
  std::vector<Dist> finish_, first_;
  std::vector<float> mean_, first_mean_;
  // The ranks in increasing pips, and where each pip level starts in it (levels_.back(): the end).
  std::vector<std::uint32_t> order_;
  std::vector<std::uint32_t> levels_;
  std::size_t levels_done_ = 0;
  float max_folded_ = 0.0f;
};

// The table for (points, checkers), built once per process (threads: the build's), from or to
// `cache_dir` when it is not empty: race-<points>.tdb there (race-<points>-<checkers>.tdb below 15
// checkers) when complete, that name + ".partial" after a stopped build (the next call, in this
// process or another, resumes it). Thread-safe; a caller
// waiting for another thread's build still sees its own stop requests.
std::shared_ptr<const RaceDatabase> race_database(int points, int checkers, const std::string& cache_dir, int threads);

// The cubeless chances of a race where both sides fit `db`, the side to move (pos.own()) rolling
// first: it wins when it needs no more rolls than the other side; a double when the other side,
// with no checker off, needs more rolls than that for its first checker (and the reverse). No
// triples: a side within 10 points has no checker in the other's home board.
Probabilities race_db_probabilities(const RaceDatabase& db, const Position& pos);

}  // namespace tavli
