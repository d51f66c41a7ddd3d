// One-sided race database (race_db.h: index conventions, storage, build order).
#include "tavli/race_db.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "tavli/dice.h"
#include "tavli/interrupt.h"
#include "tavli/parallel.h"

namespace tavli {
namespace {

constexpr char kMagic[8] = {'T', 'A', 'V', 'L', 'I', 'R', 'D', 'B'};
constexpr std::uint32_t kVersion = 2;

std::uint32_t home_side_mask(int points) {
  std::uint32_t m = 0;
  for (int j = 0; j < points; ++j) m |= 1u << (23 - j);
  return m;
}

}  // namespace

RaceDatabase::RaceDatabase(int points, int checkers) : points_(points), checkers_(checkers) {
  if (points < kMinPoints || points > kMaxPoints)
    throw std::invalid_argument("race database: points must be " + std::to_string(kMinPoints) + ".." +
                                std::to_string(kMaxPoints) + ", got " + std::to_string(points));
  if (checkers < 1 || checkers > kCheckers)
    throw std::invalid_argument("race database: checkers must be 1..15, got " + std::to_string(checkers));
  mask_ = home_side_mask(points);
  ways_.assign(static_cast<std::size_t>(points + 2), {});
  for (int n = 0; n <= checkers; ++n) ways_[1][static_cast<std::size_t>(n)] = 1;
  for (int k = 2; k <= points + 1; ++k)
    for (int n = 0; n <= checkers; ++n)
      for (int v = 0; v <= n; ++v)
        ways_[static_cast<std::size_t>(k)][static_cast<std::size_t>(n)] +=
            ways_[static_cast<std::size_t>(k - 1)][static_cast<std::size_t>(n - v)];
  // skip_[(k * 16 + rem) * 16 + x]: the ranks before a count of x on a point with k parts left
  // (this one included) and rem checkers to place: sum over v < x of ways_[k][rem - v].
  skip_.assign(static_cast<std::size_t>(points + 2) * 16 * 16, 0);
  for (int k = 1; k <= points + 1; ++k)
    for (int rem = 0; rem <= checkers; ++rem)
      for (int x = 1; x <= rem; ++x)
        skip_[static_cast<std::size_t>((k * 16 + rem) * 16 + x)] =
            skip_[static_cast<std::size_t>((k * 16 + rem) * 16 + x - 1)] +
            ways_[static_cast<std::size_t>(k)][static_cast<std::size_t>(rem - x + 1)];
  const std::int64_t n = ways_[static_cast<std::size_t>(points + 1)][static_cast<std::size_t>(checkers)];
  finish_.assign(static_cast<std::size_t>(n), Dist{});
  first_.assign(static_cast<std::size_t>(n), Dist{});
  mean_.assign(static_cast<std::size_t>(n), 0.0f);
  first_mean_.assign(static_cast<std::size_t>(n), 0.0f);
  // Ranks by pips (a counting sort, stable in rank order).
  const int max_pips = checkers * points;
  std::vector<std::uint32_t> pips(static_cast<std::size_t>(n));
  std::vector<std::uint32_t> count(static_cast<std::size_t>(max_pips) + 2, 0);
  int x[kMaxPoints];
  for (std::int64_t r = 0; r < n; ++r) {
    unrank(r, x);
    int p = 0;
    for (int j = 0; j < points; ++j) p += x[j] * (j + 1);
    pips[static_cast<std::size_t>(r)] = static_cast<std::uint32_t>(p);
    ++count[static_cast<std::size_t>(p) + 1];
  }
  for (int p = 0; p <= max_pips; ++p) count[static_cast<std::size_t>(p) + 1] += count[static_cast<std::size_t>(p)];
  levels_.assign(count.begin(), count.end());  // levels_[p]: where pip level p starts
  order_.resize(static_cast<std::size_t>(n));
  std::vector<std::uint32_t> at(count.begin(), count.end() - 1);
  for (std::int64_t r = 0; r < n; ++r) order_[at[pips[static_cast<std::size_t>(r)]]++] = static_cast<std::uint32_t>(r);
}

std::int64_t RaceDatabase::index(const SideState& s) const {
  std::int64_t r = 0;
  int rem = checkers_;
  for (int i = 0; i < points_; ++i) {
    const int xi = s.n[23 - i];
    r += skip_[static_cast<std::size_t>(((points_ - i) * 16 + rem) * 16 + xi)];
    rem -= xi;
  }
  return r;
}

void RaceDatabase::unrank(std::int64_t rank, int* x) const {
  int rem = checkers_;
  for (int i = 0; i < points_; ++i) {
    int v = 0;
    for (;; ++v) {
      const std::int64_t w = ways_[static_cast<std::size_t>(points_ - i)][static_cast<std::size_t>(rem - v)];
      if (rank < w) break;
      rank -= w;
    }
    x[i] = v;
    rem -= v;
  }
}

std::int64_t RaceDatabase::positions_done() const { return levels_[levels_done_]; }

void RaceDatabase::read(const std::vector<Dist>& v, std::int64_t index, float* out) {
  const Dist& d = v[static_cast<std::size_t>(index)];
  std::fill(out, out + kMaxRolls, 0.0f);
  for (int k = 0; k < kWindow; ++k) out[d.lo + k] = d.p[static_cast<std::size_t>(k)] / 65535.0f;
}

RaceDatabase::Dist RaceDatabase::pack(const float* d, float* folded) {
  // The window holding the most mass; what lies outside goes onto its nearer end.
  int lo = 0;
  float best = -1.0f, in = 0.0f;
  for (int k = 0; k < kWindow; ++k) in += d[k];
  for (int s = 0;; ++s) {
    if (in > best + 1e-9f) best = in, lo = s;
    if (s + kWindow >= kMaxRolls) break;
    in += d[s + kWindow] - d[s];
  }
  float w[kWindow];
  float total = 0.0f;
  for (int k = 0; k < kWindow; ++k) w[k] = d[lo + k];
  for (int k = 0; k < lo; ++k) w[0] += d[k];
  for (int k = lo + kWindow; k < kMaxRolls; ++k) w[kWindow - 1] += d[k];
  for (int k = 0; k < kWindow; ++k) total += w[k];
  *folded = std::max(*folded, std::max(0.0f, total - best));
  // 16-bit fractions summing to exactly 65535: the rounding error goes to the largest entry.
  Dist out;
  out.lo = static_cast<std::uint8_t>(lo);
  long sum = 0;
  int big = 0;
  for (int k = 0; k < kWindow; ++k) {
    const long q = std::lround(static_cast<double>(w[k]) / total * 65535.0);
    out.p[static_cast<std::size_t>(k)] = static_cast<std::uint16_t>(q);
    sum += q;
    if (w[k] > w[big]) big = k;
  }
  out.p[static_cast<std::size_t>(big)] = static_cast<std::uint16_t>(out.p[static_cast<std::size_t>(big)] + (65535 - sum));
  return out;
}

void RaceDatabase::value(std::int64_t rank, MoveGenerator& gen, MoveList& list, const Rules& rules) {
  int x[kMaxPoints];
  unrank(rank, x);
  float fin[kMaxRolls] = {}, fst[kMaxRolls] = {}, child[kMaxRolls];
  const std::size_t me = static_cast<std::size_t>(rank);
  int on = 0;
  for (int j = 0; j < points_; ++j) on += x[j];
  float folded = 0.0f;
  if (on == 0) {
    fin[0] = fst[0] = 1.0f;
    finish_[me] = pack(fin, &folded);
    first_[me] = pack(fst, &folded);
    return;
  }
  Position pos = Position::empty();
  for (int j = 0; j < points_; ++j) pos.own().n[23 - j] = static_cast<std::uint8_t>(x[j]);
  pos.own().off = static_cast<std::uint8_t>(kCheckers - on);
  pos.opp().off = kCheckers;  // nobody in the way
  pos.refresh();
  float mean = 0.0f, fmean = 0.0f;
  for (const WeightedRoll& wr : all_rolls()) {
    const float w = static_cast<float>(wr.weight) / 36.0f;
    gen.generate(pos, rules, wr.dice, list);
    if (list.size() == 0) throw std::logic_error("race database: a roll with no play in a lone race");
    std::int64_t best = -1, best_first = -1;
    float best_e = 1e9f, best_fe = 1e9f;
    bool bears_off = false;
    for (int i = 0; i < list.size(); ++i) {
      const SideState& s = list[i].result.own();
      const std::int64_t c = index(s);
      const float e = mean_[static_cast<std::size_t>(c)];
      if (e < best_e) best_e = e, best = c;
      if (s.off > pos.own().off) bears_off = true;
      const float fe = first_mean_[static_cast<std::size_t>(c)];
      if (fe < best_fe) best_fe = fe, best_first = c;
    }
    read(finish_, best, child);
    for (int k = 0; k + 1 < kMaxRolls; ++k) fin[k + 1] += w * child[k];
    mean += w * (1.0f + best_e);
    if (bears_off) {
      fst[1] += w;
      fmean += w;
    } else {
      read(first_, best_first, child);
      for (int k = 0; k + 1 < kMaxRolls; ++k) fst[k + 1] += w * child[k];
      fmean += w * (1.0f + best_fe);
    }
  }
  finish_[me] = pack(fin, &folded);
  first_[me] = pack(fst, &folded);
  mean_[me] = mean;
  first_mean_[me] = fmean;
  if (folded > 0.0f) {  // rare; the build's threads meet here only then
    static std::mutex m;
    std::lock_guard<std::mutex> lock(m);
    max_folded_ = std::max(max_folded_, folded);
  }
}

void RaceDatabase::build(int threads) {
  const Rules rules = make_rules(Variant::Backgammon);  // the bear-off rule is every game's
  threads = std::max(1, threads);
  std::vector<MoveGenerator> gens(static_cast<std::size_t>(threads));
  std::vector<MoveList> lists(static_cast<std::size_t>(threads));
  for (; levels_done_ + 1 < levels_.size(); ++levels_done_) {
    const std::uint32_t begin = levels_[levels_done_], end = levels_[levels_done_ + 1];
    const std::int64_t n = end - begin;
    if (n == 0) continue;
    // Contiguous slices, a stop checked before each position: a position's value depends only on
    // lower levels, so the slicing never changes a result.
    parallel_ranges(n, threads, [&](std::int64_t b, std::int64_t e, int w) {
      for (std::int64_t i = b; i < e; ++i) {
        check_stop();
        value(order_[begin + static_cast<std::size_t>(i)], gens[static_cast<std::size_t>(w)],
              lists[static_cast<std::size_t>(w)], rules);
      }
    });
  }
}

namespace {

template <class T>
void put(std::ofstream& f, const T& v) {
  f.write(reinterpret_cast<const char*>(&v), sizeof v);
}
template <class T>
void put_vec(std::ofstream& f, const std::vector<T>& v) {
  f.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
}
template <class T>
void get(std::ifstream& f, T& v, const std::string& path) {
  if (!f.read(reinterpret_cast<char*>(&v), sizeof v)) throw std::runtime_error("race database " + path + ": truncated");
}
template <class T>
void get_vec(std::ifstream& f, std::vector<T>& v, const std::string& path) {
  if (!f.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T))))
    throw std::runtime_error("race database " + path + ": truncated");
}

}  // namespace

// File: magic[8], version u32, points u32, checkers u32, positions u64, levels done u64, max folded f32; then
// the positions' finish windows (lo u8, 16 x u16 each), first-off windows, mean rolls f32,
// mean rolls to the first off f32, each array in rank order.
void RaceDatabase::save(const std::string& path) const {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw std::runtime_error("race database: cannot write " + tmp);
    f.write(kMagic, sizeof kMagic);
    put(f, kVersion);
    put(f, static_cast<std::uint32_t>(points_));
    put(f, static_cast<std::uint32_t>(checkers_));
    put(f, static_cast<std::uint64_t>(size()));
    put(f, static_cast<std::uint64_t>(levels_done_));
    put(f, max_folded_);
    for (const auto* v : {&finish_, &first_})
      for (const Dist& d : *v) {
        put(f, d.lo);
        f.write(reinterpret_cast<const char*>(d.p.data()), sizeof d.p);
      }
    put_vec(f, mean_);
    put_vec(f, first_mean_);
    if (!f) throw std::runtime_error("race database: cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("race database: cannot rename " + tmp);
}

std::unique_ptr<RaceDatabase> RaceDatabase::load(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("race database: cannot read " + path);
  char magic[8];
  if (!f.read(magic, sizeof magic) || std::memcmp(magic, kMagic, sizeof kMagic) != 0)
    throw std::runtime_error("race database " + path + ": not a race database file");
  std::uint32_t version = 0, points = 0, checkers = 0;
  std::uint64_t n = 0, done = 0;
  float folded = 0;
  get(f, version, path);
  if (version != kVersion) throw std::runtime_error("race database " + path + ": version " + std::to_string(version));
  get(f, points, path);
  get(f, checkers, path);
  if (points < kMinPoints || points > kMaxPoints || checkers < 1 || checkers > kCheckers)
    throw std::runtime_error("race database " + path + ": bad points or checkers");
  std::unique_ptr<RaceDatabase> db(new RaceDatabase(static_cast<int>(points), static_cast<int>(checkers)));
  get(f, n, path);
  get(f, done, path);
  get(f, folded, path);
  if (n != static_cast<std::uint64_t>(db->size()) || done >= db->levels_.size())
    throw std::runtime_error("race database " + path + ": sizes out of step with its points");
  db->levels_done_ = static_cast<std::size_t>(done);
  db->max_folded_ = folded;
  for (auto* v : {&db->finish_, &db->first_})
    for (Dist& d : *v) {
      get(f, d.lo, path);
      if (!f.read(reinterpret_cast<char*>(d.p.data()), sizeof d.p)) throw std::runtime_error("race database " + path + ": truncated");
      if (d.lo + kWindow > kMaxRolls) throw std::runtime_error("race database " + path + ": bad window");
    }
  get_vec(f, db->mean_, path);
  get_vec(f, db->first_mean_, path);
  char extra;
  if (f.read(&extra, 1)) throw std::runtime_error("race database " + path + ": trailing bytes");
  return db;
}

std::shared_ptr<const RaceDatabase> race_database(int points, int checkers, const std::string& cache_dir, int threads) {
  // As BearoffTable::get: waiters poll their stop requests, a stopped build is kept (and saved
  // beside the finished file's name) for the next call.
  static std::mutex building;
  static std::map<std::tuple<int, int, std::string>, std::shared_ptr<RaceDatabase>> tables;  // guarded by `building`
  while (!building.try_lock()) {
    check_stop();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::lock_guard<std::mutex> lock(building, std::adopt_lock);
  std::shared_ptr<RaceDatabase>& t = tables[{points, checkers, cache_dir}];
  if (t && t->complete()) return t;
  const std::string file = cache_dir.empty() ? "" : cache_dir + "/race-" + std::to_string(points) +
                                                        (checkers == kCheckers ? "" : "-" + std::to_string(checkers)) + ".tdb";
  if (!t && !file.empty()) {
    for (const std::string& p : {file, file + ".partial"}) {
      if (!std::ifstream(p)) continue;
      try {
        std::unique_ptr<RaceDatabase> got = RaceDatabase::load(p);
        if (got->points() == points && got->checkers() == checkers) t = std::move(got);
      } catch (const std::runtime_error&) {
        // A stale (older version) or damaged cache file: built again below, and overwritten.
      }
      if (t) break;
    }
    if (t && t->complete()) return t;
  }
  if (!t) t = std::make_shared<RaceDatabase>(points, checkers);
  try {
    t->build(threads);
  } catch (const Interrupted&) {
    if (!file.empty()) t->save(file + ".partial");
    throw;
  } catch (const TimeLimitReached&) {
    if (!file.empty()) t->save(file + ".partial");
    throw;
  }
  if (!file.empty()) {
    t->save(file);
    std::remove((file + ".partial").c_str());
  }
  return t;
}

Probabilities race_db_probabilities(const RaceDatabase& db, const Position& pos) {
  constexpr int K = RaceDatabase::kMaxRolls;
  const std::int64_t mi = db.index(pos.own()), oi = db.index(pos.opp());
  float me[K], op[K], me_first[K], op_first[K];
  db.rolls_to_finish(mi, me);
  db.rolls_to_finish(oi, op);
  db.rolls_to_first(mi, me_first);
  db.rolls_to_first(oi, op_first);
  Probabilities p = race_from_rolls(me, op, me_first, op_first, K, pos.opp().off == 0, pos.own().off == 0);
  p.win = std::min(1.0f, std::max(0.0f, p.win));
  p.win_double = std::min(p.win, p.win_double);
  p.lose_double = std::min(1.0f - p.win, p.lose_double);
  return p;
}

}  // namespace tavli
