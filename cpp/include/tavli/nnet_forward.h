// The arithmetic of a NeuralNet's forward pass (nnet.h): the hidden layer (sigmoid) and the five
// sigmoid outputs, from dense rows or from sparse ones (encode_sparse's form), on one of three
// paths chosen by the caller: portable scalar code, AVX2 + FMA, or AVX-512F (the sparse path's
// layers; its dense path is AVX2's). Weights in nnet.h's layouts: w1 input-major (inputs x hidden),
// w2 output-major (5 x hidden).
//
// Results: the AVX-512 path gives the AVX2 path's bits; both agree with the scalar one within
// NeuralNet::kScalarTolerance (fused multiply-adds, other summation orders). The sparse and dense
// forms of a row give the same bits on any one path. Thread-safe: scratch is per thread.
#pragma once

#include <cstdint>

namespace tavli::nnet_forward {

constexpr int kOutputs = 5;

enum class Path : std::uint8_t { kScalar, kAvx2, kAvx512 };

struct Layers {
  int inputs, hidden;
  const float *w1, *b1, *w2, *b2;
};

// n rows of `inputs` floats; out gets n x 5, hidden (when given) n x `hidden` activations.
void dense(const Layers& net, const float* x, int n, float* out, float* hidden, Path path);
// Row r's listed units are index[start[r]] .. index[start[r + 1]] - 1, with their values; every
// other input is 0. Each unit's row of w1 is added in listed order (increasing, for the dense
// path's bits; a NeuralEvaluator lists its point columns, rows past the net's inputs, first).
// out gets n x 5.
void sparse(const Layers& net, const std::uint16_t* index, const float* value, const int* start, int n, float* out,
            Path path);

}  // namespace tavli::nnet_forward
