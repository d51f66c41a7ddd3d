// Neural nets (nnet.h): initialisation, the two forward implementations, the weight file, and the
// evaluator. Layouts and the file format are documented in nnet.h.
#include "tavli/nnet.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "tavli/rng.h"
#include "tavli/simd.h"

#if defined(_WIN32)
#include <process.h>
#define tavli_getpid _getpid
#else
#include <unistd.h>
#define tavli_getpid getpid
#endif

namespace tavli {

// --- families ------------------------------------------------------------------------------------

const char* net_family(Variant v) { return variant_info(v).facts.net_family.c_str(); }

namespace {
constexpr const char* kFamilies[] = {"backgammon", "plakoto", "fevga", "narde", "tawla31"};
}  // namespace

void check_net_family(const std::string& name) {
  for (const char* f : kFamilies)
    if (name == f) return;
  throw std::invalid_argument("unknown net family '" + name + "' (known: backgammon, plakoto, fevga, narde, tawla31)");
}

Encoding net_family_encoding(const std::string& family) {
  check_net_family(family);
  for (const VariantInfo& v : variant_table())
    if (family == net_family(v.variant)) return default_encoding(make_rules(v.variant));
  throw std::logic_error("net family '" + family + "' has no game");
}

// --- shared arithmetic ---------------------------------------------------------------------------

namespace {

// exp(x) by Cephes' expf: x = n ln2 + r with |r| <= ln2 / 2, a degree-6 polynomial for e^r (about
// 1e-7 relative), then 2^n through the exponent bits. Both paths use this same algorithm (the
// AVX2 one with FMA), so they agree far below the documented tolerance; the clamp keeps 2^n a
// normal float (sigmoid is 0 or 1 to float precision well before it).
constexpr float kExpClamp = 80.0f;
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
constexpr float kP0 = 1.9875691500e-4f, kP1 = 1.3981999507e-3f, kP2 = 8.3334519073e-3f, kP3 = 4.1665795894e-2f,
                kP4 = 1.6666665459e-1f, kP5 = 5.0000001201e-1f;

inline float exp_approx(float x) {
  x = std::min(kExpClamp, std::max(-kExpClamp, x));
  const float n = std::floor(x * kLog2e + 0.5f);
  float r = x - n * kLn2Hi;
  r = r - n * kLn2Lo;
  float y = kP0;
  y = y * r + kP1;
  y = y * r + kP2;
  y = y * r + kP3;
  y = y * r + kP4;
  y = y * r + kP5;
  y = y * (r * r) + r + 1.0f;
  const std::int32_t bits = (static_cast<std::int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return y * scale;
}

inline float sigmoid(float x) { return 1.0f / (1.0f + exp_approx(-x)); }

// Per-thread scratch (forward runs in several search threads at once; no allocation per call
// once grown): 0 hidden activations, 1 packed inputs.
std::vector<float>& scratch(int which) {
  thread_local std::vector<float> buffers[2];
  return buffers[which];
}

// --- portable path -------------------------------------------------------------------------------

void hidden_scalar(const float* x, int I, int H, const float* w1, const float* b1, float* acc) {
  std::copy(b1, b1 + H, acc);
  for (int i = 0; i < I; ++i) {
    const float v = x[i];
    if (v == 0.0f) continue;  // most units of an encoding are zero: skip the row
    const float* row = w1 + static_cast<std::size_t>(i) * H;
    for (int h = 0; h < H; ++h) acc[h] += v * row[h];
  }
  for (int h = 0; h < H; ++h) acc[h] = sigmoid(acc[h]);
}

// One row from its listed units: the same sum as hidden_scalar (it skips the zero inputs).
void hidden_sparse_scalar(const std::uint16_t* ix, const float* xv, int u, int H, const float* w1, const float* b1,
                          float* acc) {
  std::copy(b1, b1 + H, acc);
  for (int k = 0; k < u; ++k) {
    const float v = xv[k];
    if (v == 0.0f) continue;
    const float* row = w1 + static_cast<std::size_t>(ix[k]) * H;
    for (int h = 0; h < H; ++h) acc[h] += v * row[h];
  }
  for (int h = 0; h < H; ++h) acc[h] = sigmoid(acc[h]);
}

void output_scalar(const float* hid, int H, const float* w2, const float* b2, float* out) {
  for (int o = 0; o < NeuralNet::kOutputs; ++o) {
    const float* row = w2 + static_cast<std::size_t>(o) * H;
    float s = 0.0f;
    for (int h = 0; h < H; ++h) s += hid[h] * row[h];
    out[o] = sigmoid(b2[o] + s);
  }
}

// --- AVX2 + FMA path -----------------------------------------------------------------------------

#ifdef TAVLI_X86_SIMD

#define TAVLI_AVX2 __attribute__((target("avx2,fma")))

TAVLI_AVX2 inline __m256 exp_avx2(__m256 x) {
  x = _mm256_min_ps(_mm256_set1_ps(kExpClamp), _mm256_max_ps(_mm256_set1_ps(-kExpClamp), x));
  const __m256 n = _mm256_floor_ps(_mm256_fmadd_ps(x, _mm256_set1_ps(kLog2e), _mm256_set1_ps(0.5f)));
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Hi), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Lo), r);
  __m256 y = _mm256_set1_ps(kP0);
  y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(kP1));
  y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(kP2));
  y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(kP3));
  y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(kP4));
  y = _mm256_fmadd_ps(y, r, _mm256_set1_ps(kP5));
  y = _mm256_add_ps(_mm256_fmadd_ps(y, _mm256_mul_ps(r, r), r), _mm256_set1_ps(1.0f));
  const __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(y, _mm256_castsi256_ps(bits));
}

TAVLI_AVX2 inline __m256 sigmoid_avx2(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f);
  return _mm256_div_ps(one, _mm256_add_ps(one, exp_avx2(_mm256_sub_ps(_mm256_setzero_ps(), x))));
}

// sigmoid() on 8 lanes with exactly its operations: separate multiplies and adds (no fused ones;
// the project compiles ISO C++, where GCC does not contract the scalar code), so each lane is
// bit-identical to the scalar function the output layer has always used.
TAVLI_AVX2 inline __m256 sigmoid_unfused_avx2(__m256 x) {
  const __m256 one = _mm256_set1_ps(1.0f);
  x = _mm256_sub_ps(_mm256_setzero_ps(), x);
  x = _mm256_min_ps(_mm256_set1_ps(kExpClamp), _mm256_max_ps(_mm256_set1_ps(-kExpClamp), x));
  const __m256 n = _mm256_floor_ps(_mm256_add_ps(_mm256_mul_ps(x, _mm256_set1_ps(kLog2e)), _mm256_set1_ps(0.5f)));
  __m256 r = _mm256_sub_ps(x, _mm256_mul_ps(n, _mm256_set1_ps(kLn2Hi)));
  r = _mm256_sub_ps(r, _mm256_mul_ps(n, _mm256_set1_ps(kLn2Lo)));
  __m256 y = _mm256_set1_ps(kP0);
  y = _mm256_add_ps(_mm256_mul_ps(y, r), _mm256_set1_ps(kP1));
  y = _mm256_add_ps(_mm256_mul_ps(y, r), _mm256_set1_ps(kP2));
  y = _mm256_add_ps(_mm256_mul_ps(y, r), _mm256_set1_ps(kP3));
  y = _mm256_add_ps(_mm256_mul_ps(y, r), _mm256_set1_ps(kP4));
  y = _mm256_add_ps(_mm256_mul_ps(y, r), _mm256_set1_ps(kP5));
  y = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(y, _mm256_mul_ps(r, r)), r), one);
  const __m256i bits = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvttps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_div_ps(one, _mm256_add_ps(one, _mm256_mul_ps(y, _mm256_castsi256_ps(bits))));
}

TAVLI_AVX2 inline float hsum_avx2(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// The hidden layer of T rows at once. First the inputs that are non-zero in any of the T rows
// (a SIMD scan), with the rows' values packed side by side; then, 16 hidden units at a time, each
// of those weight rows is loaded once and feeds all T rows' accumulators (T x 2 registers). A row
// whose input is zero adds an exact 0, so every row's sum is the same as alone, in the same order
// as the scalar path.
template <int T>
TAVLI_AVX2 void hidden_tile_avx2(const float* const* x, int I, int H, const float* w1, const float* b1,
                                 float* const* acc, std::vector<int>& idx, std::vector<float>& xs) {
  idx.resize(static_cast<std::size_t>(I));
  xs.resize(static_cast<std::size_t>(I) * T);
  int u = 0;
  auto take = [&](int i) {
    idx[static_cast<std::size_t>(u)] = i;
    for (int t = 0; t < T; ++t) xs[static_cast<std::size_t>(u) * T + t] = x[t][i];
    ++u;
  };
  int i = 0;
  const __m256 zero = _mm256_setzero_ps();
  for (; i + 8 <= I; i += 8) {
    int mask = 0;
    for (int t = 0; t < T; ++t) mask |= _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(x[t] + i), zero, _CMP_NEQ_UQ));
    for (; mask; mask &= mask - 1) take(i + __builtin_ctz(static_cast<unsigned>(mask)));
  }
  for (; i < I; ++i) {
    bool any = false;
    for (int t = 0; t < T; ++t) any |= x[t][i] != 0.0f;
    if (any) take(i);
  }
  const int* ix = idx.data();
  const float* xv = xs.data();

  int c = 0;
  for (; c + 16 <= H; c += 16) {
    __m256 a[T][2];
    for (int t = 0; t < T; ++t) a[t][0] = _mm256_loadu_ps(b1 + c), a[t][1] = _mm256_loadu_ps(b1 + c + 8);
    for (int k = 0; k < u; ++k) {
      const float* row = w1 + static_cast<std::size_t>(ix[k]) * H + c;
      const __m256 w0 = _mm256_loadu_ps(row), wb = _mm256_loadu_ps(row + 8);
      for (int t = 0; t < T; ++t) {
        const __m256 v = _mm256_broadcast_ss(xv + static_cast<std::size_t>(k) * T + t);
        a[t][0] = _mm256_fmadd_ps(v, w0, a[t][0]);
        a[t][1] = _mm256_fmadd_ps(v, wb, a[t][1]);
      }
    }
    for (int t = 0; t < T; ++t) _mm256_storeu_ps(acc[t] + c, a[t][0]), _mm256_storeu_ps(acc[t] + c + 8, a[t][1]);
  }
  for (; c + 8 <= H; c += 8) {
    __m256 a[T];
    for (int t = 0; t < T; ++t) a[t] = _mm256_loadu_ps(b1 + c);
    for (int k = 0; k < u; ++k) {
      const __m256 w0 = _mm256_loadu_ps(w1 + static_cast<std::size_t>(ix[k]) * H + c);
      for (int t = 0; t < T; ++t)
        a[t] = _mm256_fmadd_ps(_mm256_broadcast_ss(xv + static_cast<std::size_t>(k) * T + t), w0, a[t]);
    }
    for (int t = 0; t < T; ++t) _mm256_storeu_ps(acc[t] + c, a[t]);
  }
  for (; c < H; ++c)  // fewer than 8 left: one unit at a time
    for (int t = 0; t < T; ++t) {
      float s = b1[c];
      for (int k = 0; k < u; ++k) s = std::fma(xv[static_cast<std::size_t>(k) * T + t], w1[static_cast<std::size_t>(ix[k]) * H + c], s);
      acc[t][c] = s;
    }

  for (int t = 0; t < T; ++t) {
    float* h = acc[t];
    int j = 0;
    for (; j + 8 <= H; j += 8) _mm256_storeu_ps(h + j, sigmoid_avx2(_mm256_loadu_ps(h + j)));
    for (; j < H; ++j) h[j] = sigmoid(h[j]);
  }
}

// One row's hidden layer from its listed units, 64 hidden units (8 registers) at a time: per unit
// the same fused multiply-adds, in the same order, as hidden_tile_avx2 (which adds exact zeros
// for the inputs only its other rows use).
TAVLI_AVX2 void hidden_sparse_avx2(const std::uint16_t* ix, const float* xv, int u, int H, const float* w1,
                                   const float* b1, float* acc) {
  int c = 0;
  for (; c + 64 <= H; c += 64) {
    __m256 a[8];
    for (int j = 0; j < 8; ++j) a[j] = _mm256_loadu_ps(b1 + c + 8 * j);
    for (int k = 0; k < u; ++k) {
      const float* row = w1 + static_cast<std::size_t>(ix[k]) * H + c;
      const __m256 v = _mm256_broadcast_ss(xv + k);
      for (int j = 0; j < 8; ++j) a[j] = _mm256_fmadd_ps(v, _mm256_loadu_ps(row + 8 * j), a[j]);
    }
    for (int j = 0; j < 8; ++j) _mm256_storeu_ps(acc + c + 8 * j, sigmoid_avx2(a[j]));
  }
  for (; c + 8 <= H; c += 8) {
    __m256 a = _mm256_loadu_ps(b1 + c);
    for (int k = 0; k < u; ++k)
      a = _mm256_fmadd_ps(_mm256_broadcast_ss(xv + k), _mm256_loadu_ps(w1 + static_cast<std::size_t>(ix[k]) * H + c), a);
    _mm256_storeu_ps(acc + c, sigmoid_avx2(a));
  }
  for (; c < H; ++c) {
    float s = b1[c];
    for (int k = 0; k < u; ++k) s = std::fma(xv[k], w1[static_cast<std::size_t>(ix[k]) * H + c], s);
    acc[c] = sigmoid(s);
  }
}

// AVX-512F: the sparse hidden layer only (the evaluator's path), chosen at run time like AVX2.
#define TAVLI_AVX512 __attribute__((target("avx512f,avx2,fma")))
// GCC 12's AVX-512 intrinsics start from a self-initialised "undefined" vector, which its
// uninitialised-use warnings flag once inlined (a false positive; the lanes are all written).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// exp_avx2 on 16 lanes with the same operations in the same order (floor as a round toward minus
// infinity), so every lane is bit-identical to exp_avx2's.
TAVLI_AVX512 inline __m512 exp_avx512(__m512 x) {
  x = _mm512_min_ps(_mm512_set1_ps(kExpClamp), _mm512_max_ps(_mm512_set1_ps(-kExpClamp), x));
  const __m512 n = _mm512_roundscale_ps(_mm512_fmadd_ps(x, _mm512_set1_ps(kLog2e), _mm512_set1_ps(0.5f)),
                                        _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Hi), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(kLn2Lo), r);
  __m512 y = _mm512_set1_ps(kP0);
  y = _mm512_fmadd_ps(y, r, _mm512_set1_ps(kP1));
  y = _mm512_fmadd_ps(y, r, _mm512_set1_ps(kP2));
  y = _mm512_fmadd_ps(y, r, _mm512_set1_ps(kP3));
  y = _mm512_fmadd_ps(y, r, _mm512_set1_ps(kP4));
  y = _mm512_fmadd_ps(y, r, _mm512_set1_ps(kP5));
  y = _mm512_add_ps(_mm512_fmadd_ps(y, _mm512_mul_ps(r, r), r), _mm512_set1_ps(1.0f));
  const __m512i bits = _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23);
  return _mm512_mul_ps(y, _mm512_castsi512_ps(bits));
}

TAVLI_AVX512 inline __m512 sigmoid_avx512(__m512 x) {
  const __m512 one = _mm512_set1_ps(1.0f);
  return _mm512_div_ps(one, _mm512_add_ps(one, exp_avx512(_mm512_sub_ps(_mm512_setzero_ps(), x))));
}

// hidden_sparse_avx2 on 16-lane registers: up to 8 accumulators (128 units) per pass over the
// listed rows, the last one masked when H is not a multiple of 16. Each lane does exactly what
// hidden_sparse_avx2's lane for that unit does, in the same order, so the two are bit-identical;
// with half the instructions per weight row this is what keeps the row loads streaming.
template <int N>
TAVLI_AVX512 void hidden_block_avx512(const std::uint16_t* ix, const float* xv, int u, int H, const float* w1,
                                      const float* b1, float* acc, __mmask16 last) {
  __m512 a[N];
  for (int j = 0; j < N; ++j) a[j] = _mm512_maskz_loadu_ps(j + 1 < N ? __mmask16(0xffff) : last, b1 + 16 * j);
  for (int k = 0; k < u; ++k) {
    const float* row = w1 + static_cast<std::size_t>(ix[k]) * H;
    const __m512 v = _mm512_set1_ps(xv[k]);
    for (int j = 0; j + 1 < N; ++j) a[j] = _mm512_fmadd_ps(v, _mm512_loadu_ps(row + 16 * j), a[j]);
    a[N - 1] = _mm512_fmadd_ps(v, _mm512_maskz_loadu_ps(last, row + 16 * (N - 1)), a[N - 1]);
  }
  for (int j = 0; j + 1 < N; ++j) _mm512_storeu_ps(acc + 16 * j, sigmoid_avx512(a[j]));
  _mm512_mask_storeu_ps(acc + 16 * (N - 1), last, sigmoid_avx512(a[N - 1]));
}

TAVLI_AVX512 void hidden_sparse_avx512(const std::uint16_t* ix, const float* xv, int u, int H, const float* w1,
                                       const float* b1, float* acc) {
  for (int c = 0; c < H; c += 128) {
    const int lanes = std::min(128, H - c), blocks = (lanes + 15) / 16;
    const __mmask16 last = static_cast<__mmask16>(lanes % 16 ? (1u << (lanes % 16)) - 1 : 0xffffu);
    // The block's weights start at column c of each row: pass w1 + c with the full row stride.
    switch (blocks) {
      case 1: hidden_block_avx512<1>(ix, xv, u, H, w1 + c, b1 + c, acc + c, last); break;
      case 2: hidden_block_avx512<2>(ix, xv, u, H, w1 + c, b1 + c, acc + c, last); break;
      case 3: hidden_block_avx512<3>(ix, xv, u, H, w1 + c, b1 + c, acc + c, last); break;
      case 4: hidden_block_avx512<4>(ix, xv, u, H, w1 + c, b1 + c, acc + c, last); break;
      case 5: hidden_block_avx512<5>(ix, xv, u, H, w1 + c, b1 + c, acc + c, last); break;
      case 6: hidden_block_avx512<6>(ix, xv, u, H, w1 + c, b1 + c, acc + c, last); break;
      case 7: hidden_block_avx512<7>(ix, xv, u, H, w1 + c, b1 + c, acc + c, last); break;
      default: hidden_block_avx512<8>(ix, xv, u, H, w1 + c, b1 + c, acc + c, last); break;
    }
  }
}

// One listed unit's weight row, times its value, into N accumulators of 16 units.
template <int N>
TAVLI_AVX512 inline void add_row_avx512(__m512* a, const float* w1, int unit, float x) {
  const float* row = w1 + static_cast<std::size_t>(unit) * (16 * N);
  const __m512 v = _mm512_set1_ps(x);
  for (int j = 0; j < N; ++j) a[j] = _mm512_fmadd_ps(v, _mm512_loadu_ps(row + 16 * j), a[j]);
}

// Two rows' hidden layers of H = 16 N units interleaved: 2 N independent accumulators, so one
// row's weight loads overlap the other's (with H = 128, 3-6% faster on distinct positions, 5-10%
// on siblings). Each row's sums in its own order, as alone: bit-identical to hidden_sparse_avx512.
template <int N>
TAVLI_AVX512 void hidden_pair_avx512(const std::uint16_t* const ix[2], const float* const xv[2], const int u[2],
                                     const float* w1, const float* b1, float* const acc[2]) {
  __m512 a[2][N];
  for (int j = 0; j < N; ++j) a[0][j] = a[1][j] = _mm512_loadu_ps(b1 + 16 * j);
  const int both = std::min(u[0], u[1]);
  for (int k = 0; k < both; ++k) {
    add_row_avx512<N>(a[0], w1, ix[0][k], xv[0][k]);
    add_row_avx512<N>(a[1], w1, ix[1][k], xv[1][k]);
  }
  for (int k = both; k < u[0]; ++k) add_row_avx512<N>(a[0], w1, ix[0][k], xv[0][k]);
  for (int k = both; k < u[1]; ++k) add_row_avx512<N>(a[1], w1, ix[1][k], xv[1][k]);
  for (int t = 0; t < 2; ++t)
    for (int j = 0; j < N; ++j) _mm512_storeu_ps(acc[t] + 16 * j, sigmoid_avx512(a[t][j]));
}

// hidden_pair_avx512 for the hidden sizes it is built for (16 .. 128 in steps of 16); false for others.
TAVLI_AVX512 bool hidden_pair_avx512(const std::uint16_t* const ix[2], const float* const xv[2], const int u[2], int H,
                                     const float* w1, const float* b1, float* const acc[2]) {
  switch (H) {
    case 16: hidden_pair_avx512<1>(ix, xv, u, w1, b1, acc); return true;
    case 32: hidden_pair_avx512<2>(ix, xv, u, w1, b1, acc); return true;
    case 48: hidden_pair_avx512<3>(ix, xv, u, w1, b1, acc); return true;
    case 64: hidden_pair_avx512<4>(ix, xv, u, w1, b1, acc); return true;
    case 80: hidden_pair_avx512<5>(ix, xv, u, w1, b1, acc); return true;
    case 96: hidden_pair_avx512<6>(ix, xv, u, w1, b1, acc); return true;
    case 112: hidden_pair_avx512<7>(ix, xv, u, w1, b1, acc); return true;
    case 128: hidden_pair_avx512<8>(ix, xv, u, w1, b1, acc); return true;
    default: return false;
  }
}

// The sparse hidden layer on the widest path the net may use (the two are bit-identical).
TAVLI_AVX2 inline void hidden_sparse(const std::uint16_t* ix, const float* xv, int u, int H, const float* w1,
                                     const float* b1, float* acc, bool avx512) {
  if (avx512)
    hidden_sparse_avx512(ix, xv, u, H, w1, b1, acc);
  else
    hidden_sparse_avx2(ix, xv, u, H, w1, b1, acc);
}

// The five dot products side by side (independent chains: one output's fused multiply-adds need
// not wait for the previous one's), each in the same lane order as one at a time.
TAVLI_AVX2 void output_avx2(const float* hid, int H, const float* w2, const float* b2, float* out) {
  constexpr int O = NeuralNet::kOutputs;
  __m256 s[O];
  for (int o = 0; o < O; ++o) s[o] = _mm256_setzero_ps();
  int h = 0;
  for (; h + 8 <= H; h += 8) {
    const __m256 x = _mm256_loadu_ps(hid + h);
    for (int o = 0; o < O; ++o) s[o] = _mm256_fmadd_ps(x, _mm256_loadu_ps(w2 + static_cast<std::size_t>(o) * H + h), s[o]);
  }
  for (int o = 0; o < O; ++o) {
    const float* row = w2 + static_cast<std::size_t>(o) * H;
    float t = hsum_avx2(s[o]);
    for (int k = h; k < H; ++k) t = std::fma(hid[k], row[k], t);
    out[o] = sigmoid(b2[o] + t);
  }
}

// output_avx2 for two rows at once: ten independent chains instead of five (each row's sums in
// the same order as alone), and the ten sigmoids in two vectors (bit-identical to sigmoid()).
// Requires H % 8 == 0.
TAVLI_AVX2 void output_pair_avx2(const float* hid0, const float* hid1, int H, const float* w2, const float* b2,
                                 float* out0, float* out1) {
  constexpr int O = NeuralNet::kOutputs;
  __m256 s[2][O];
  for (int o = 0; o < O; ++o) s[0][o] = s[1][o] = _mm256_setzero_ps();
  for (int h = 0; h < H; h += 8) {
    const __m256 x0 = _mm256_loadu_ps(hid0 + h), x1 = _mm256_loadu_ps(hid1 + h);
    for (int o = 0; o < O; ++o) {
      const __m256 w = _mm256_loadu_ps(w2 + static_cast<std::size_t>(o) * H + h);
      s[0][o] = _mm256_fmadd_ps(x0, w, s[0][o]);
      s[1][o] = _mm256_fmadd_ps(x1, w, s[1][o]);
    }
  }
  alignas(32) float t[2][8] = {};
  for (int o = 0; o < O; ++o) t[0][o] = b2[o] + hsum_avx2(s[0][o]), t[1][o] = b2[o] + hsum_avx2(s[1][o]);
  _mm256_store_ps(t[0], sigmoid_unfused_avx2(_mm256_load_ps(t[0])));
  _mm256_store_ps(t[1], sigmoid_unfused_avx2(_mm256_load_ps(t[1])));
  std::copy(t[0], t[0] + O, out0);
  std::copy(t[1], t[1] + O, out1);
}

// output_pair_avx2 with both rows in one 16-lane register (row 0 in the low eight lanes, row 1 in
// the high eight, each weight row broadcast to both halves): half the multiply-adds, each lane's
// sum in the same order, and each half reduced by hsum_avx2, so the bits are output_pair_avx2's.
// Requires H % 8 == 0.
TAVLI_AVX512 void output_pair_avx512(const float* hid0, const float* hid1, int H, const float* w2, const float* b2,
                                     float* out0, float* out1) {
  constexpr int O = NeuralNet::kOutputs;
  __m512 s[O];
  for (int o = 0; o < O; ++o) s[o] = _mm512_setzero_ps();
  for (int h = 0; h < H; h += 8) {
    const __m512d x = _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(_mm256_loadu_ps(hid0 + h))),
                                         _mm256_castps_pd(_mm256_loadu_ps(hid1 + h)), 1);
    for (int o = 0; o < O; ++o) {
      const __m256d w = _mm256_castps_pd(_mm256_loadu_ps(w2 + static_cast<std::size_t>(o) * H + h));
      s[o] = _mm512_fmadd_ps(_mm512_castpd_ps(x), _mm512_castpd_ps(_mm512_broadcast_f64x4(w)), s[o]);
    }
  }
  alignas(32) float t[2][8] = {};
  for (int o = 0; o < O; ++o) {
    t[0][o] = b2[o] + hsum_avx2(_mm512_castps512_ps256(s[o]));
    t[1][o] = b2[o] + hsum_avx2(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(s[o]), 1)));
  }
  _mm256_store_ps(t[0], sigmoid_unfused_avx2(_mm256_load_ps(t[0])));
  _mm256_store_ps(t[1], sigmoid_unfused_avx2(_mm256_load_ps(t[1])));
  std::copy(t[0], t[0] + O, out0);
  std::copy(t[1], t[1] + O, out1);
}

TAVLI_AVX2 void forward_avx2(const float* x, int n, int I, int H, const float* w1, const float* b1, const float* w2,
                             const float* b2, float* out, float* hidden) {
  thread_local std::vector<int> idx;
  std::vector<float>& xs = scratch(1);
  constexpr int kTile = 4;
  // Without a caller's buffer the hidden activations of one tile live in a small scratch that
  // stays in L1 (a buffer for the whole batch would stream through memory).
  std::vector<float>& tile = scratch(0);
  if (!hidden) tile.resize(static_cast<std::size_t>(kTile) * H);
  for (int r = 0; r < n; r += kTile) {
    const int T = std::min(kTile, n - r);
    const float* xr[kTile];
    float* hr[kTile];
    for (int t = 0; t < T; ++t) {
      xr[t] = x + static_cast<std::size_t>(r + t) * I;
      hr[t] = hidden ? hidden + static_cast<std::size_t>(r + t) * H : tile.data() + static_cast<std::size_t>(t) * H;
    }
    switch (T) {
      case 4: hidden_tile_avx2<4>(xr, I, H, w1, b1, hr, idx, xs); break;
      case 3: hidden_tile_avx2<3>(xr, I, H, w1, b1, hr, idx, xs); break;
      case 2: hidden_tile_avx2<2>(xr, I, H, w1, b1, hr, idx, xs); break;
      default: hidden_tile_avx2<1>(xr, I, H, w1, b1, hr, idx, xs); break;
    }
    for (int t = 0; t < T; ++t) output_avx2(hr[t], H, w2, b2, out + static_cast<std::size_t>(r + t) * NeuralNet::kOutputs);
  }
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif  // TAVLI_X86_SIMD

}  // namespace

// --- the net -------------------------------------------------------------------------------------

namespace {

void check_sizes(int inputs, int hidden) {
  if (inputs < 1 || inputs > NeuralNet::kMaxUnits)
    throw std::invalid_argument("inputs must be 1.." + std::to_string(NeuralNet::kMaxUnits) + ", got " + std::to_string(inputs));
  if (hidden < 1 || hidden > NeuralNet::kMaxUnits)
    throw std::invalid_argument("hidden must be 1.." + std::to_string(NeuralNet::kMaxUnits) + ", got " + std::to_string(hidden));
}

// The encoding name is known (or "raw"), fits the input size and the family's games.
void check_encoding(const std::string& encoding, const std::string& family, int inputs) {
  check_net_family(family);
  if (encoding == "raw") return;
  const Encoding e = encoding_from_name(encoding);
  if (encoding_size(e, false) != inputs)
    throw std::invalid_argument("encoding '" + encoding + "' has " + std::to_string(encoding_size(e, false)) +
                                " units, but the net has " + std::to_string(inputs) + " inputs");
  for (const VariantInfo& v : variant_table())
    if (family == net_family(v.variant) && !encoding_fits(e, make_rules(v.variant)))
      throw std::invalid_argument(std::string("the games of family '") + family + "' are encoded with '" +
                                  encoding_name(net_family_encoding(family)) + "'" +
                                  (family == std::string("backgammon") ? " or 'expert'" : "") + ", not '" + encoding + "'");
}

}  // namespace

NeuralNet::NeuralNet(int inputs, int hidden, const std::string& encoding, const std::string& family,
                     std::uint64_t seed)
    : inputs_(inputs), hidden_(hidden), encoding_(encoding), family_(family) {
  check_sizes(inputs, hidden);
  check_encoding(encoding, family, inputs);
  w1_.resize(static_cast<std::size_t>(inputs) * hidden);
  b1_.assign(static_cast<std::size_t>(hidden), 0.0f);
  w2_.resize(static_cast<std::size_t>(kOutputs) * hidden);
  b2_.assign(kOutputs, 0.0f);
  Rng rng(seed);
  auto fill = [&](Weights& w, int fan_in) {
    const float a = 1.0f / std::sqrt(static_cast<float>(fan_in));
    for (float& v : w) v = a * (static_cast<float>(rng.next() >> 40) * (2.0f / 16777216.0f) - 1.0f);  // 24 bits
  };
  fill(w1_, inputs);
  fill(w2_, hidden);
  use_avx2_ = cpu_has_avx2();
  use_avx512_ = cpu_has_avx512();
}

void NeuralNet::set_metadata(std::string text) {
  if (text.size() > kMaxText) throw std::invalid_argument("metadata longer than " + std::to_string(kMaxText) + " bytes");
  metadata_ = std::move(text);
}

bool NeuralNet::cpu_has_avx2() {
  return simd::has_avx2_fma();
}

bool NeuralNet::cpu_has_avx512() {
  return simd::has_avx512f();
}

void NeuralNet::force_scalar(bool on) {
  use_avx2_ = !on && cpu_has_avx2();
  use_avx512_ = !on && cpu_has_avx512();
}

void NeuralNet::force_avx2(bool on) { use_avx512_ = !on && use_avx2_ && cpu_has_avx512(); }

void NeuralNet::check_finite() const {
  const struct {
    const char* name;
    const Weights& w;
    int cols;
  } layers[] = {{"w1", w1_, hidden_}, {"b1", b1_, 0}, {"w2", w2_, hidden_}, {"b2", b2_, 0}};
  for (const auto& l : layers)
    for (std::size_t k = 0; k < l.w.size(); ++k)
      if (!std::isfinite(l.w[k])) {
        const std::string where = l.cols ? "[" + std::to_string(k / static_cast<std::size_t>(l.cols)) + "][" +
                                               std::to_string(k % static_cast<std::size_t>(l.cols)) + "]"
                                         : "[" + std::to_string(k) + "]";
        throw std::invalid_argument(std::string("weight ") + l.name + where + " is " +
                                    (std::isnan(l.w[k]) ? "NaN" : "infinite"));
      }
}

void NeuralNet::forward_batch(const float* x, int n, float* out, float* hidden) const {
  if (n <= 0) return;
  const int I = inputs_, H = hidden_;
#ifdef TAVLI_X86_SIMD
  if (use_avx2_) {
    forward_avx2(x, n, I, H, w1_.data(), b1_.data(), w2_.data(), b2_.data(), out, hidden);
    return;
  }
#endif
  std::vector<float>& one = scratch(0);
  if (!hidden) one.resize(static_cast<std::size_t>(H));
  for (int r = 0; r < n; ++r) {
    float* h = hidden ? hidden + static_cast<std::size_t>(r) * H : one.data();
    hidden_scalar(x + static_cast<std::size_t>(r) * I, I, H, w1_.data(), b1_.data(), h);
    output_scalar(h, H, w2_.data(), b2_.data(), out + static_cast<std::size_t>(r) * kOutputs);
  }
}

void NeuralNet::forward_sparse(const std::uint16_t* index, const float* value, const int* start, int n,
                               float* out) const {
  if (n <= 0) return;
  const int H = hidden_;
  std::vector<float>& hid = scratch(0);
  if (hid.size() < static_cast<std::size_t>(2 * H)) hid.resize(static_cast<std::size_t>(2 * H));  // grown only (see evaluate)
  int r = 0;
#ifdef TAVLI_X86_SIMD
  if (use_avx2_ && H % 8 == 0)  // two rows at a time: their output layers overlap
    for (; r + 2 <= n; r += 2) {
      const std::uint16_t* const ix[2] = {index + start[r], index + start[r + 1]};
      const float* const xv[2] = {value + start[r], value + start[r + 1]};
      const int u[2] = {start[r + 1] - start[r], start[r + 2] - start[r + 1]};
      float* const acc[2] = {hid.data(), hid.data() + H};
      if (!(use_avx512_ && hidden_pair_avx512(ix, xv, u, H, w1_.data(), b1_.data(), acc)))
        for (int t = 0; t < 2; ++t) hidden_sparse(ix[t], xv[t], u[t], H, w1_.data(), b1_.data(), acc[t], use_avx512_);
      float* const o[2] = {out + static_cast<std::size_t>(r) * kOutputs, out + static_cast<std::size_t>(r + 1) * kOutputs};
      if (use_avx512_)
        output_pair_avx512(acc[0], acc[1], H, w2_.data(), b2_.data(), o[0], o[1]);
      else
        output_pair_avx2(acc[0], acc[1], H, w2_.data(), b2_.data(), o[0], o[1]);
    }
#endif
  for (; r < n; ++r) {
    const int b = start[r], u = start[r + 1] - b;
    float* o = out + static_cast<std::size_t>(r) * kOutputs;
#ifdef TAVLI_X86_SIMD
    if (use_avx2_) {
      hidden_sparse(index + b, value + b, u, H, w1_.data(), b1_.data(), hid.data(), use_avx512_);
      output_avx2(hid.data(), H, w2_.data(), b2_.data(), o);
      continue;
    }
#endif
    hidden_sparse_scalar(index + b, value + b, u, H, w1_.data(), b1_.data(), hid.data());
    output_scalar(hid.data(), H, w2_.data(), b2_.data(), o);
  }
}

// --- the weight file -----------------------------------------------------------------------------

namespace {

constexpr char kMagic[8] = {'T', 'A', 'V', 'L', 'I', 'N', 'E', 'T'};
constexpr std::size_t kMaxName = 64;  // encoding and family names

std::uint64_t fnv1a64(const std::uint8_t* p, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

// Little-endian writer into a byte buffer.
struct Writer {
  std::vector<std::uint8_t> bytes;
  void u32(std::uint32_t v) {
    for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
  }
  void u64(std::uint64_t v) {
    for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
  }
  void text(const std::string& s) {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  template <typename V>
  void floats(const V& w) {
    for (float f : w) {
      std::uint32_t v;
      std::memcpy(&v, &f, sizeof v);
      u32(v);
    }
  }
};

// Little-endian reader that names the field it could not read. It reads the stream only as far as
// the fields need: the header bounds how much a file can make it read (a device such as
// /dev/zero, or a huge declared size, stops at the first field out of range).
struct Reader {
  std::istream& in;
  const std::string& path;
  std::vector<std::uint8_t> bytes;  // what has been read so far
  std::size_t pos = 0;

  [[noreturn]] void fail(const std::string& what) const { throw std::invalid_argument(path + ": " + what); }
  // Reads up to `total` bytes in all; false if the stream ends first.
  bool fill(std::size_t total) {
    if (bytes.size() >= total) return true;
    const std::size_t had = bytes.size();
    bytes.resize(total);
    in.read(reinterpret_cast<char*>(bytes.data() + had), static_cast<std::streamsize>(total - had));
    bytes.resize(had + static_cast<std::size_t>(in.gcount()));
    return bytes.size() >= total;
  }
  void need(std::size_t n, const char* what) {
    if (!fill(pos + n))
      fail(std::string("truncated file: ") + what + " needs " + std::to_string(n) + " bytes at offset " +
           std::to_string(pos) + ", the file has " + std::to_string(bytes.size()));
  }
  std::uint32_t u32(const char* what) {
    need(4, what);
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v |= static_cast<std::uint32_t>(bytes[pos + k]) << (8 * k);
    pos += 4;
    return v;
  }
  std::uint64_t u64(const char* what) {
    const std::uint64_t lo = u32(what);
    return lo | static_cast<std::uint64_t>(u32(what)) << 32;
  }
  std::string text(const char* what, std::size_t max) {
    const std::uint32_t n = u32(what);
    if (n > max) fail(std::string(what) + " is " + std::to_string(n) + " bytes long (at most " + std::to_string(max) + ")");
    need(n, what);
    std::string s(reinterpret_cast<const char*>(bytes.data() + pos), n);
    pos += n;
    return s;
  }
  template <typename V>
  void floats(V& w) {
    for (float& f : w) {
      const std::uint32_t v = u32("weights");
      std::memcpy(&f, &v, sizeof f);
    }
  }
};

std::string hex64(std::uint64_t v) {
  char buf[19];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

void NeuralNet::save(const std::string& path) const {
  check_finite();
  Writer w;
  w.bytes.insert(w.bytes.end(), kMagic, kMagic + 8);
  w.u32(kFormatVersion);
  w.u32(2);
  w.u32(static_cast<std::uint32_t>(inputs_));
  w.u32(static_cast<std::uint32_t>(hidden_));
  w.u32(kOutputs);
  w.text(encoding_);
  w.text(family_);
  w.text(metadata_);
  w.floats(w1_);
  w.floats(b1_);
  w.floats(w2_);
  w.floats(b2_);
  w.u64(fnv1a64(w.bytes.data(), w.bytes.size()));

  // A reader never sees a half-written file: write a temporary next to the target, then rename
  // (atomic on POSIX within one file system).
  const std::string tmp = path + ".tmp" + std::to_string(tavli_getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw std::runtime_error("cannot write " + tmp);
    f.write(reinterpret_cast<const char*>(w.bytes.data()), static_cast<std::streamsize>(w.bytes.size()));
    f.flush();
    if (!f) {
      f.close();
      std::remove(tmp.c_str());
      throw std::runtime_error("error writing " + tmp);
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot rename " + tmp + " to " + path);
  }
}

NeuralNet NeuralNet::load(const std::string& path) {
  // Only a regular file: a directory cannot be read, and a device or a pipe may never end.
  std::error_code ec;
  const auto kind = std::filesystem::status(path, ec).type();
  if (ec || kind == std::filesystem::file_type::not_found) throw std::invalid_argument(path + ": cannot open (no such file)");
  if (kind != std::filesystem::file_type::regular)
    throw std::invalid_argument(path + ": not a regular file (" +
                                (kind == std::filesystem::file_type::directory ? "a directory" : "a device, pipe or socket") +
                                "): a net is read from a weight file");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument(path + ": cannot open");
  Reader rd{f, path, {}};
  const std::vector<std::uint8_t>& bytes = rd.bytes;

  if (!rd.fill(sizeof kMagic) || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    rd.fail("not a tavli network file (bad magic; expected \"TAVLINET\")");
  rd.pos = sizeof kMagic;
  const std::uint32_t version = rd.u32("format version");
  if (version != kFormatVersion)
    rd.fail("unsupported format version " + std::to_string(version) + " (this build reads version " +
            std::to_string(kFormatVersion) + ")");
  const std::uint32_t layers = rd.u32("layer count");
  if (layers < 2 || layers > 8) rd.fail("corrupt layer count " + std::to_string(layers));
  std::vector<std::uint32_t> sizes;
  for (std::uint32_t k = 0; k <= layers; ++k) sizes.push_back(rd.u32("layer sizes"));
  if (layers != 2)
    rd.fail(std::to_string(layers - 1) + " hidden layers: this build reads nets with one hidden layer");
  for (std::uint32_t s : sizes)
    if (s < 1 || s > static_cast<std::uint32_t>(kMaxUnits)) rd.fail("corrupt layer size " + std::to_string(s));
  if (sizes[2] != kOutputs)
    rd.fail(std::to_string(sizes[2]) + " outputs: this build reads nets with " + std::to_string(kOutputs));

  NeuralNet net;
  net.inputs_ = static_cast<int>(sizes[0]);
  net.hidden_ = static_cast<int>(sizes[1]);
  net.encoding_ = rd.text("encoding name", kMaxName);
  net.family_ = rd.text("family name", kMaxName);
  net.metadata_ = rd.text("metadata", kMaxText);
  const std::size_t I = sizes[0], H = sizes[1];
  net.w1_.resize(I * H);
  net.b1_.resize(H);
  net.w2_.resize(kOutputs * H);
  net.b2_.resize(kOutputs);
  const std::size_t expected = rd.pos + 4 * (I * H + H + kOutputs * H + kOutputs) + 8;
  const std::uintmax_t on_disk = std::filesystem::file_size(path, ec);
  if ((!ec && on_disk < expected) || !rd.fill(expected))
    rd.fail("truncated file: the header describes " + std::to_string(expected) + " bytes, the file has " +
            std::to_string(!ec && on_disk < expected ? on_disk : bytes.size()));
  // Trailing bytes, counted up to a bound (the file may have grown without end).
  constexpr std::size_t kTrailingCounted = 1u << 16;
  rd.fill(expected + kTrailingCounted);
  if (bytes.size() > expected)
    rd.fail((bytes.size() - expected < kTrailingCounted ? std::to_string(bytes.size() - expected) : "too many") +
            std::string(" unexpected bytes after the checksum (the header describes ") + std::to_string(expected) +
            " bytes)");
  rd.floats(net.w1_);
  rd.floats(net.b1_);
  rd.floats(net.w2_);
  rd.floats(net.b2_);
  const std::uint64_t computed = fnv1a64(bytes.data(), rd.pos);
  const std::uint64_t stored = rd.u64("checksum");
  if (stored != computed)
    rd.fail("checksum mismatch (the file is corrupt): stored " + hex64(stored) + ", computed " + hex64(computed));

  try {
    check_encoding(net.encoding_, net.family_, net.inputs_);
    net.check_finite();
  } catch (const std::invalid_argument& e) {
    rd.fail(e.what());
  }
  net.use_avx2_ = cpu_has_avx2();
  net.use_avx512_ = cpu_has_avx512();
  return net;
}

// --- the evaluator -------------------------------------------------------------------------------

namespace {

// The kinds of win a game's scoring has (terminal_probabilities: a double is 2 points or more, a
// triple 3 or more).
bool has_doubles(const Rules& r) { return r.scoring == Scoring::SingleDouble || r.scoring == Scoring::Backgammon; }
bool has_triples(const Rules& r) {
  return r.scoring == Scoring::Backgammon || r.koks || (r.mother != MotherRule::Off && r.mother_points >= 3);
}

// Net outputs (or exact race values) made consistent with each other and with the scoring.
Probabilities consistent(float win, float wd, float wt, float ld, float lt, const Rules& rules) {
  Probabilities p;
  p.win = std::min(1.0f, std::max(0.0f, win));
  const float lose = 1.0f - p.win;
  if (has_doubles(rules)) {
    p.win_double = std::min(std::max(0.0f, wd), p.win);
    p.lose_double = std::min(std::max(0.0f, ld), lose);
    if (has_triples(rules)) {
      p.win_triple = std::min(std::max(0.0f, wt), p.win_double);
      p.lose_triple = std::min(std::max(0.0f, lt), p.lose_double);
    }
  }
  return p;
}

}  // namespace

void net_encode(const Position& pos, const Rules& rules, Encoding e, float* out) {
  encode(pos, kWhite, rules, e, nullptr, out);
}

NeuralEvaluator::NeuralEvaluator(std::shared_ptr<const NeuralNet> net) : net_(std::move(net)) {
  if (!net_) throw std::invalid_argument("NeuralEvaluator: no net");
  if (net_->encoding() == "raw")
    throw std::invalid_argument("a net with the 'raw' encoding cannot evaluate positions (it has no encoding)");
  encoding_ = encoding_from_name(net_->encoding());
}

bool NeuralEvaluator::supports(const Rules& rules) const { return net_->family() == net_family(rules.variant); }

std::string NeuralEvaluator::refusal(const Rules& rules) const {
  if (supports(rules)) return {};
  return "a net of family '" + net_->family() + "' cannot evaluate " + rules.info().name + " (family '" +
         net_family(rules.variant) + "')";
}

void NeuralEvaluator::evaluate(const Position* positions, int n, const Rules& rules, Probabilities* out) const {
  if (!supports(rules)) throw std::invalid_argument(refusal(rules));
  // Sparse inputs (encode_sparse): no dense vector is written or scanned, and each row's forward
  // pass reads only its own units' weights; the outputs are those of net_encode + forward_batch.
  // Blocks of kBlock positions keep the scratch in the L1/L2 caches whatever n is (encoding a
  // whole bulk call first and then running the net over it streamed ~6 bytes per input unit
  // through memory: 1.27 instead of 2.1 M positions/s on 54,000 rows).
  constexpr int kBlock = 64;
  const int I = net_->inputs();
  thread_local std::vector<std::uint16_t> index;
  thread_local std::vector<float> value, y;
  thread_local std::vector<int> start, which;
  // Grown, never shrunk: a resize that grows value-initialises (memsets) the new part, and a
  // search alternates calls of different sizes (its nodes, a pruning net's and the evaluator's).
  const std::size_t need = static_cast<std::size_t>(std::min(n, kBlock)) * I + kSparseSlack;  // encode_sparse's scratch slots
  if (index.size() < need) index.resize(need);
  if (value.size() < need) value.resize(need);
  if (y.size() < static_cast<std::size_t>(kBlock) * NeuralNet::kOutputs) y.resize(static_cast<std::size_t>(kBlock) * NeuralNet::kOutputs);
  for (int b = 0; b < n; b += kBlock) {
    const int e = std::min(n, b + kBlock);
    start.assign(1, 0);
    which.clear();
    for (int i = b; i < e; ++i) {
      const Position& pos = positions[i];
      if (is_bearoff_race(pos, rules)) {
        const Probabilities p = bearoff_race(pos);
        out[i] = consistent(p.win, p.win_double, p.win_triple, p.lose_double, p.lose_triple, rules);
        continue;
      }
      const int at = start.back();
      start.push_back(at + encode_sparse(pos, kWhite, rules, encoding_, index.data() + at, value.data() + at));
      which.push_back(i);
    }
    const int m = static_cast<int>(which.size());
    net_->forward_sparse(index.data(), value.data(), start.data(), m, y.data());
    for (int k = 0; k < m; ++k) {
      const float* o = y.data() + static_cast<std::size_t>(k) * NeuralNet::kOutputs;
      out[which[static_cast<std::size_t>(k)]] = consistent(o[0], o[1], o[2], o[3], o[4], rules);
    }
  }
}

}  // namespace tavli
