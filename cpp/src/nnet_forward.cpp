// The forward-pass arithmetic of nnet_forward.h: the shared exp and sigmoid, the portable path,
// the AVX2 + FMA path (dense rows four at a time, sparse rows two at a time) and the AVX-512F
// sparse layers.
#include "tavli/nnet_forward.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

#include "tavli/simd.h"

namespace tavli::nnet_forward {

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
  for (int o = 0; o < kOutputs; ++o) {
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

// AVX-512F: the sparse path's layers (the evaluator's); the dense path stays on AVX2.
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
  constexpr int O = kOutputs;
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
  constexpr int O = kOutputs;
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
  constexpr int O = kOutputs;
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
    for (int t = 0; t < T; ++t) output_avx2(hr[t], H, w2, b2, out + static_cast<std::size_t>(r + t) * kOutputs);
  }
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif  // TAVLI_X86_SIMD

}  // namespace

void dense(const Layers& net, const float* x, int n, float* out, float* hidden, Path path) {
  if (n <= 0) return;
  const int I = net.inputs, H = net.hidden;
#ifdef TAVLI_X86_SIMD
  if (path != Path::kScalar) {
    forward_avx2(x, n, I, H, net.w1, net.b1, net.w2, net.b2, out, hidden);
    return;
  }
#else
  (void)path;
#endif
  std::vector<float>& one = scratch(0);
  if (!hidden) one.resize(static_cast<std::size_t>(H));
  for (int r = 0; r < n; ++r) {
    float* h = hidden ? hidden + static_cast<std::size_t>(r) * H : one.data();
    hidden_scalar(x + static_cast<std::size_t>(r) * I, I, H, net.w1, net.b1, h);
    output_scalar(h, H, net.w2, net.b2, out + static_cast<std::size_t>(r) * kOutputs);
  }
}

void sparse(const Layers& net, const std::uint16_t* index, const float* value, const int* start, int n, float* out,
            Path path) {
  if (n <= 0) return;
  const int H = net.hidden;
#ifdef TAVLI_X86_SIMD
  const bool avx2 = path != Path::kScalar, avx512 = path == Path::kAvx512;
#else
  (void)path;
#endif
  std::vector<float>& hid = scratch(0);
  if (hid.size() < static_cast<std::size_t>(2 * H)) hid.resize(static_cast<std::size_t>(2 * H));  // grown only (see evaluate)
  int r = 0;
#ifdef TAVLI_X86_SIMD
  if (avx2 && H % 8 == 0)  // two rows at a time: their output layers overlap
    for (; r + 2 <= n; r += 2) {
      const std::uint16_t* const ix[2] = {index + start[r], index + start[r + 1]};
      const float* const xv[2] = {value + start[r], value + start[r + 1]};
      const int u[2] = {start[r + 1] - start[r], start[r + 2] - start[r + 1]};
      float* const acc[2] = {hid.data(), hid.data() + H};
      if (!(avx512 && hidden_pair_avx512(ix, xv, u, H, net.w1, net.b1, acc)))
        for (int t = 0; t < 2; ++t) hidden_sparse(ix[t], xv[t], u[t], H, net.w1, net.b1, acc[t], avx512);
      float* const o[2] = {out + static_cast<std::size_t>(r) * kOutputs, out + static_cast<std::size_t>(r + 1) * kOutputs};
      if (avx512)
        output_pair_avx512(acc[0], acc[1], H, net.w2, net.b2, o[0], o[1]);
      else
        output_pair_avx2(acc[0], acc[1], H, net.w2, net.b2, o[0], o[1]);
    }
#endif
  for (; r < n; ++r) {
    const int b = start[r], u = start[r + 1] - b;
    float* o = out + static_cast<std::size_t>(r) * kOutputs;
#ifdef TAVLI_X86_SIMD
    if (avx2) {
      hidden_sparse(index + b, value + b, u, H, net.w1, net.b1, hid.data(), avx512);
      output_avx2(hid.data(), H, net.w2, net.b2, o);
      continue;
    }
#endif
    hidden_sparse_scalar(index + b, value + b, u, H, net.w1, net.b1, hid.data());
    output_scalar(hid.data(), H, net.w2, net.b2, o);
  }
}

}  // namespace tavli::nnet_forward
