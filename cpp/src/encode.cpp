#include "tavli/encode.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "tavli/block_features.h"
#include "tavli/contact_features.h"
#include "tavli/encode_race.h"
#include "tavli/eval.h"
#include "tavli/hit_features.h"
#include "tavli/mobility_features.h"
#include "tavli/plakoto_features.h"
#include "tavli/simd.h"
#include "tavli/structure_features.h"

namespace tavli {

namespace {
// A side's hits as the expert encodings read them: "expert" only the shots; the later ones also
// the double shots and pip loss (encode_contact_features), all from the same walk over the rolls.
HitCounts expert_hits(Encoding e, const SideState& me, const SideState& them) {
  if (e != Encoding::Expert) return hit_counts(me, them);
  HitCounts h;
  h.shots = shots(me, them);
  return h;
}
}  // namespace

Encoding default_encoding(const Rules& rules) { return encoding_from_name(rules.info().facts.encoding); }

bool encoding_fits(Encoding e, const Rules& rules) {
  const Encoding d = default_encoding(rules);
  return e == d || (e == Encoding::Block2 && d == Encoding::Block) || (e == Encoding::Plakoto2 && d == Encoding::Plakoto) ||
         ((expert_family(e) || e == Encoding::Race) && rules.contact == Contact::Hit);
}

Encoding encoding_from_name(const std::string& name) {
  if (name == "tesauro") return Encoding::Tesauro;
  if (name == "plakoto") return Encoding::Plakoto;
  if (name == "block") return Encoding::Block;
  if (name == "expert") return Encoding::Expert;
  if (name == "race") return Encoding::Race;
  if (name == "expert2") return Encoding::Expert2;
  if (name == "expert3") return Encoding::Expert3;
  if (name == "expert4") return Encoding::Expert4;
  if (name == "block2") return Encoding::Block2;
  if (name == "plakoto2") return Encoding::Plakoto2;
  throw std::invalid_argument("unknown encoding '" + name +
                              "' (known: tesauro, expert, expert2, expert3, expert4, race, plakoto, plakoto2, block, block2)");
}

const char* encoding_name(Encoding e) {
  switch (e) {
    case Encoding::Tesauro: return "tesauro";
    case Encoding::Plakoto: return "plakoto";
    case Encoding::Block: return "block";
    case Encoding::Expert: return "expert";
    case Encoding::Race: return "race";
    case Encoding::Expert2: return "expert2";
    case Encoding::Expert3: return "expert3";
    case Encoding::Expert4: return "expert4";
    case Encoding::Block2: return "block2";
    case Encoding::Plakoto2: return "plakoto2";
  }
  return "";
}

int encoding_size(Encoding e, bool with_dice) {
  constexpr int kExpert3 = 219 + 2 * kStructureUnits;
  const int base = e == Encoding::Block      ? 152
                   : e == Encoding::Block2   ? 152 + 2 * kBlockUnits + 1
                   : e == Encoding::Plakoto2 ? 198 + 2 * kPlakotoUnits + 1
                   : e == Encoding::Expert   ? 205
                   : e == Encoding::Race     ? kRaceEncodingSize
                   : e == Encoding::Expert2  ? 219
                   : e == Encoding::Expert3  ? kExpert3
                   : e == Encoding::Expert4  ? kExpert3 + 2 * kMobilityUnits
                                             : 198;
  return base + (with_dice ? 21 : 0);
}

int roll_index(Dice d) {
  const int a = d.high(), b = d.low();
  return a * (a - 1) / 2 + (b - 1);  // 1-1 -> 0, 2-1 -> 1, 2-2 -> 2, 3-1 -> 3, ...
}

void encode(const Position& pos, Player to_move, const Rules& rules, Encoding e, const Dice* dice, float* out) {
  float* o = out;
  if (e == Encoding::Race) o = encode_race(pos, o);
  for (int s = 0; s < 2 && e != Encoding::Race; ++s) {
    const SideState& side = pos.side[s];
    for (int r = 0; r < kPoints; ++r) {
      const int n = side.n[r];
      switch (e) {
        case Encoding::Tesauro:
        case Encoding::Expert:
        case Encoding::Expert2:
        case Encoding::Expert3:
        case Encoding::Expert4:
          *o++ = n >= 1;
          *o++ = n >= 2;
          *o++ = n >= 3;
          *o++ = n > 3 ? (n - 3) / 2.0f : 0.0f;
          break;
        case Encoding::Plakoto:
        case Encoding::Plakoto2:
          *o++ = n >= 1;
          *o++ = n >= 2;
          *o++ = n > 2 ? (n - 2) / 13.0f : 0.0f;
          *o++ = (side.pinned >> r) & 1u;
          break;
        case Encoding::Block:
        case Encoding::Block2:
          *o++ = n >= 1;
          *o++ = n >= 2;
          *o++ = n > 2 ? (n - 2) / 13.0f : 0.0f;
          break;
        case Encoding::Race: break;  // encode_race above
      }
    }
    switch (e) {
      case Encoding::Tesauro:
      case Encoding::Expert:
      case Encoding::Expert2:
      case Encoding::Expert3:
      case Encoding::Expert4:
        *o++ = side.bar / 2.0f;
        *o++ = side.off / 15.0f;
        break;
      case Encoding::Plakoto:
      case Encoding::Plakoto2:
        *o++ = side.off / 15.0f;
        *o++ = side.n[0] == 1 && (side.pinned & 1u);
        break;
      case Encoding::Block:
      case Encoding::Block2: {
        const int t = rules.runner_threshold;
        *o++ = side.off / 15.0f;
        *o++ = t > 0 && side.off == 0 && (side.occ >> t) == 0;
        *o++ = (side.flags & SideState::kFirstTurn) != 0;
        break;
      }
      case Encoding::Race: break;
    }
  }
  if (e != Encoding::Race) {
    *o++ = to_move == kWhite;
    *o++ = to_move == kBlack;
  }
  if (expert_family(e)) {
    HitCounts hits[2];
    for (int s = 0; s < 2; ++s) {
      const SideState &me = pos.side[s], &them = pos.side[1 - s];
      hits[s] = expert_hits(e, me, them);
      *o++ = pip_count(me) / 167.0f;
      *o++ = hits[s].shots / 36.0f;
      *o++ = trapping_prime(me, them) / 6.0f;
    }
    *o++ = !is_race(pos, rules);  // eval.h: no checker has an opposing one ahead of it
    if (e != Encoding::Expert) o = encode_contact_features(pos, hits, o);
  }
  if (e == Encoding::Expert3 || e == Encoding::Expert4) o = encode_structure_features(pos, o);
  if (e == Encoding::Expert4) o = encode_mobility_features(pos, o);
  if (e == Encoding::Block2) o = encode_block_features(pos, rules.movement, o);
  if (e == Encoding::Plakoto2) o = encode_plakoto_features(pos, o);
  if (dice) {
    std::fill(o, o + 21, 0.0f);
    o[roll_index(*dice)] = 1.0f;
  }
}

namespace {

// Writes (index, value) pairs in increasing index order.
struct SparseOut {
  std::uint16_t* index;
  float* value;
  int n = 0;
  void put(int i, float v) {
    index[n] = static_cast<std::uint16_t>(i);
    value[n] = v;
    ++n;
  }
  // Branch-free: the slot is always written, kept only when `keep` (callers leave room for one
  // entry past the last kept one).
  void put_if(bool keep, int i, float v) {
    index[n] = static_cast<std::uint16_t>(i);
    value[n] = v;
    n += keep;
  }
};

// Lists the non-zero x[k] (k < count) as units first + k, in order: the hand-made features, most of
// them non-zero. put_if's loop, or 16 at a time by AVX-512 compress (in registers, then masked
// stores of exactly the kept entries).
#ifdef TAVLI_X86_SIMD
__attribute__((target("avx512f"))) void put_nonzero_avx512(SparseOut& o, const float* x, int count, int first) {
  const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  for (int k = 0; k < count; k += 16) {
    const __mmask16 in = static_cast<__mmask16>(count - k >= 16 ? 0xffffu : (1u << (count - k)) - 1);
    const __m512 v = _mm512_maskz_loadu_ps(in, x + k);
    // Not equal or unordered: C++'s x != 0.0f (a NaN is kept, -0.0f is not).
    const __mmask16 keep = _mm512_mask_cmp_ps_mask(in, v, _mm512_setzero_ps(), _CMP_NEQ_UQ);
    const int kept = __builtin_popcount(keep);
    const __mmask16 head = static_cast<__mmask16>((1u << kept) - 1);
    _mm512_mask_storeu_ps(o.value + o.n, head, _mm512_maskz_compress_ps(keep, v));
    const __m512i units = _mm512_add_epi32(_mm512_set1_epi32(first + k), lanes);
    _mm512_mask_cvtepi32_storeu_epi16(o.index + o.n, head, _mm512_maskz_compress_epi32(keep, units));
    o.n += kept;
  }
}
#endif

void put_nonzero(SparseOut& o, const float* x, int count, int first) {
#ifdef TAVLI_X86_SIMD
  if (simd::has_avx512f()) return put_nonzero_avx512(o, x, count, first);
#endif
  for (int k = 0; k < count; ++k) o.put_if(x[k] != 0.0f, first + k, x[k]);
}

// The Tesauro units of one point by its count n (0..15): how many of the point's 4 units are
// non-zero (they come first) and their values, by encode()'s expressions.
struct TesauroPoint {
  int kept[16];
  float value[16][4];
  constexpr TesauroPoint() : kept(), value() {
    for (int n = 0; n < 16; ++n) {
      kept[n] = (n >= 1) + (n >= 2) + (n >= 3) + (n > 3);
      value[n][0] = value[n][1] = value[n][2] = 1.0f;
      value[n][3] = n > 3 ? (n - 3) / 2.0f : 0.0f;
    }
  }
};
constexpr TesauroPoint kTesauroPoint;

// Quotients q / d for q = 0..N-1, computed once: the same float divisions encode() does (a
// division per feature was a tenth of the sparse encoding's time), looked up instead.
template <int N>
struct Quotients {
  float v[N];
  constexpr explicit Quotients(float d) : v() {
    for (int q = 0; q < N; ++q) v[q] = static_cast<float>(q) / d;
  }
  float operator[](int q) const { return v[q]; }
};
constexpr int kMaxPips = 25 * 15 + 1;  // every checker on the bar
constexpr Quotients<kMaxPips> kPipUnit(167.0f);
constexpr Quotients<37> kShotUnit(36.0f);
constexpr Quotients<kPoints + 1> kPrimeUnit(6.0f);
constexpr Quotients<16> kBarUnit(2.0f), kOffUnit(15.0f);

// One side's point columns (encode.h), numbered from the side's first one: one per occupied point.
void sparse_point_columns(const SideState& side, int first, SparseOut& o) {
  for (std::uint32_t m = side.occ; m; m &= m - 1) {
    const int r = __builtin_ctz(m);
    o.put(first + r * kPointColumnCounts + side.n[r] - 1, 1.0f);
  }
}

// One side's point units, visiting only the occupied (or pinned) points: `base` is the side's
// first unit.
template <Encoding e>
void sparse_points(const SideState& side, int base, SparseOut& o) {
  for (std::uint32_t m = side.occ | side.pinned; m; m &= m - 1) {
    const int r = __builtin_ctz(m);
    const int n = side.n[r];
    switch (e) {  // a constant: each instance keeps one case
      case Encoding::Tesauro:
      case Encoding::Expert: {
        // All four slots written from the table, the first kept[n] kept (callers leave room).
        const int u = base + 4 * r;
        for (int j = 0; j < 4; ++j) o.index[o.n + j] = static_cast<std::uint16_t>(u + j);
        std::memcpy(o.value + o.n, kTesauroPoint.value[n], sizeof kTesauroPoint.value[n]);
        o.n += kTesauroPoint.kept[n];
        break;
      }
      case Encoding::Plakoto: {
        const int u = base + 4 * r;
        o.put_if(n >= 1, u, 1.0f);
        o.put_if(n >= 2, u + 1, 1.0f);
        o.put_if(n > 2, u + 2, n > 2 ? (n - 2) / 13.0f : 0.0f);
        o.put_if((side.pinned >> r) & 1u, u + 3, 1.0f);
        break;
      }
      case Encoding::Block: {
        const int u = base + 3 * r;
        o.put_if(n >= 1, u, 1.0f);
        o.put_if(n >= 2, u + 1, 1.0f);
        o.put_if(n > 2, u + 2, n > 2 ? (n - 2) / 13.0f : 0.0f);
        break;
      }
    }
  }
}

}  // namespace

PointUnits point_units(Encoding e) {
  if (e == Encoding::Tesauro || expert_family(e)) return {4, 98};
  if (e == Encoding::Block || e == Encoding::Block2) return {3, 75};
  return {};
}

float point_unit_value(Encoding e, int n, int j) {  // encode()'s expressions
  if (e == Encoding::Block || e == Encoding::Block2) {
    const float units[3] = {static_cast<float>(n >= 1), static_cast<float>(n >= 2), n > 2 ? (n - 2) / 13.0f : 0.0f};
    return units[j];
  }
  return j < kTesauroPoint.kept[n] ? kTesauroPoint.value[n][j] : 0.0f;  // the table sparse_points reads
}

int encode_sparse(const Position& pos, Player to_move, const Rules& rules, Encoding e, std::uint16_t* index,
                  float* value, int point_columns) {
  if (e == Encoding::Race) {
    // No hand-written sparse form for it: the dense units, their non-zeros listed in order
    // (so the sparse forward pass adds exactly the terms the dense one adds).
    thread_local std::vector<float> dense;
    dense.resize(static_cast<std::size_t>(encoding_size(e, false)));
    encode(pos, to_move, rules, e, nullptr, dense.data());
    int n = 0;
    for (std::size_t u = 0; u < dense.size(); ++u)
      if (dense[u] != 0.0f) {
        index[n] = static_cast<std::uint16_t>(u);
        value[n++] = dense[u];
      }
    return n;
  }
  SparseOut o{index, value};
  const bool block = e == Encoding::Block || e == Encoding::Block2;
  const int per_side = block ? 75 : 98;
  // With point columns, both sides' columns come first, then the other units in increasing order.
  const bool columns = point_columns > 0 && point_units(e).per_point > 0;
  if (columns)
    for (int s = 0; s < 2; ++s) sparse_point_columns(pos.side[s], point_column(point_columns, s, 0, 1), o);
  for (int s = 0; s < 2; ++s) {
    const SideState& side = pos.side[s];
    const int base = s * per_side;
    if (!columns) {  // else listed above
      switch (e) {
        case Encoding::Tesauro: sparse_points<Encoding::Tesauro>(side, base, o); break;
        case Encoding::Expert:
        case Encoding::Expert2:
        case Encoding::Expert3:
        case Encoding::Expert4: sparse_points<Encoding::Expert>(side, base, o); break;
        case Encoding::Plakoto:
        case Encoding::Plakoto2: sparse_points<Encoding::Plakoto>(side, base, o); break;
        case Encoding::Block:
        case Encoding::Block2: sparse_points<Encoding::Block>(side, base, o); break;
        case Encoding::Race: break;  // encoded densely above
      }
    }
    const int tail = base + (block ? 72 : 96);  // the side's units after its points
    switch (e) {
      case Encoding::Tesauro:
      case Encoding::Expert:
      case Encoding::Expert2:
      case Encoding::Expert3:
      case Encoding::Expert4:
        if (side.bar) o.put(tail, kBarUnit[side.bar]);
        if (side.off) o.put(tail + 1, kOffUnit[side.off]);
        break;
      case Encoding::Plakoto:
      case Encoding::Plakoto2:
        if (side.off) o.put(tail, side.off / 15.0f);
        if (side.n[0] == 1 && (side.pinned & 1u)) o.put(tail + 1, 1.0f);
        break;
      case Encoding::Block:
      case Encoding::Block2: {
        const int t = rules.runner_threshold;
        if (side.off) o.put(tail, side.off / 15.0f);
        if (t > 0 && side.off == 0 && (side.occ >> t) == 0) o.put(tail + 1, 1.0f);
        if (side.flags & SideState::kFirstTurn) o.put(tail + 2, 1.0f);
        break;
      }
      case Encoding::Race: break;  // encoded densely above
    }
  }
  const int turn = 2 * per_side;
  o.put(to_move == kWhite ? turn : turn + 1, 1.0f);
  if (expert_family(e)) {
    int u = turn + 2;
    HitCounts hits[2];
    for (int s = 0; s < 2; ++s) {
      const SideState &me = pos.side[s], &them = pos.side[1 - s];
      hits[s] = expert_hits(e, me, them);
      o.put(u++, kPipUnit[pip_count(me)]);
      o.put(u++, kShotUnit[hits[s].shots]);
      o.put(u++, kPrimeUnit[trapping_prime(me, them)]);
    }
    if (!is_race(pos, rules)) o.put(u, 1.0f);
    if (e != Encoding::Expert) {
      // The later encodings' units after "expert"'s 205, by encode()'s own functions; the zeros
      // left out.
      float extra[14 + 2 * kStructureUnits + 2 * kMobilityUnits];
      float* end = encode_contact_features(pos, hits, extra);
      if (e == Encoding::Expert3 || e == Encoding::Expert4) end = encode_structure_features(pos, end);
      if (e == Encoding::Expert4) end = encode_mobility_features(pos, end);
      put_nonzero(o, extra, static_cast<int>(end - extra), 205);
    }
  }
  if (e == Encoding::Block2) {
    float extra[2 * kBlockUnits + 1];
    float* end = encode_block_features(pos, rules.movement, extra);
    put_nonzero(o, extra, static_cast<int>(end - extra), turn + 2);
  }
  if (e == Encoding::Plakoto2) {
    float extra[2 * kPlakotoUnits + 1];
    float* end = encode_plakoto_features(pos, extra);
    put_nonzero(o, extra, static_cast<int>(end - extra), turn + 2);
  }
  return o.n;
}

}  // namespace tavli
