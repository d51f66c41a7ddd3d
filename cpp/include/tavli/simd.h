// Run-time SIMD dispatch for the hot paths (the nets, the encodings' features, training): which x86
// vector extensions this CPU has. TAVLI_X86_SIMD is defined where functions can be built for a
// wider target than the rest of the program (GCC or Clang on x86) and the build did not opt out
// with -DTAVLI_NNET_NO_AVX2; elsewhere only the portable code is built and every query is false.
// A vector path is chosen per call by these queries and must give the portable path's results
// (bit for bit where its file says so).
#pragma once

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(TAVLI_NNET_NO_AVX2)
#define TAVLI_X86_SIMD 1
#include <immintrin.h>
#endif

namespace tavli::simd {

#ifdef TAVLI_X86_SIMD
inline bool has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
inline bool has_avx2_fma() {
  static const bool has = has_avx2() && __builtin_cpu_supports("fma");
  return has;
}
// AVX-512 Foundation (16-lane floats and ints, masks, compress), with AVX2 and FMA beside it.
inline bool has_avx512f() {
  static const bool has = has_avx2_fma() && __builtin_cpu_supports("avx512f");
  return has;
}
#else
inline bool has_avx2() { return false; }
inline bool has_avx2_fma() { return false; }
inline bool has_avx512f() { return false; }
#endif

}  // namespace tavli::simd
