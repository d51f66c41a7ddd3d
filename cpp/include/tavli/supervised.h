// Supervised training of a NeuralNet (nnet.h) on labelled positions: the second stage of how GNU
// Backgammon's nets were made (after self-play, fit the net to the values a deeper search or a
// rollout of the engine's own gives to many positions). The labelling runs elsewhere, in parallel
// (python/tavli/supervised.py: batch_evaluate's threads or rollouts); the fit here is serial and
// deterministic.
//
// One epoch: the n examples (x: n rows of net.inputs() floats, y: n rows of 5 targets in [0, 1],
// the net's output order) in the order of a Fisher-Yates shuffle drawn from
// Rng(Rng::derive(seed, epoch)), one plain SGD step per example on the cross-entropy of each
// sigmoid output against its target, L = -sum_o [y_o log V_o + (1 - y_o) log(1 - V_o)]:
//   dL/dz2[o] = V_o - y_o (z2 the output's pre-activation), backpropagated through the sigmoid
//   hidden layer with the output weights of before the step; w -= alpha * gradient.
// Returns the mean squared error sum_o (V_o - y_o)^2 of the examples as seen before each one's
// step. The same net, data, alpha, seed and epoch give bit-identical weights on a given machine and
// forward path (the update loop has no FMA contraction of its own and a fixed order).
#pragma once

#include <cstdint>

#include "tavli/nnet.h"

namespace tavli {

// Throws std::invalid_argument for n < 0, alpha <= 0 or a target outside [0, 1] / not finite.
double supervised_epoch(NeuralNet& net, const float* x, const float* y, std::int64_t n, double alpha,
                        std::uint64_t seed, std::int64_t epoch);

// Mean squared error of the net's outputs against the targets (no training).
double supervised_error(const NeuralNet& net, const float* x, const float* y, std::int64_t n);

}  // namespace tavli
