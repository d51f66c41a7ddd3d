#include "tavli/supervised.h"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "tavli/rng.h"

namespace tavli {

namespace {
void check_targets(const float* y, std::int64_t n) {
  for (std::int64_t k = 0; k < n * NeuralNet::kOutputs; ++k)
    if (!(y[k] >= 0.0f && y[k] <= 1.0f))
      throw std::invalid_argument("target " + std::to_string(k / NeuralNet::kOutputs) + "[" +
                                  std::to_string(k % NeuralNet::kOutputs) + "] is " + std::to_string(y[k]) +
                                  " (targets are probabilities in [0, 1])");
}
}  // namespace

double supervised_error(const NeuralNet& net, const float* x, const float* y, std::int64_t n) {
  if (n <= 0) return 0.0;
  constexpr int O = NeuralNet::kOutputs;
  std::vector<float> out(static_cast<std::size_t>(n) * O);
  net.forward_batch(x, static_cast<int>(n), out.data());
  double se = 0;
  for (std::int64_t k = 0; k < n * O; ++k) se += (out[static_cast<std::size_t>(k)] - y[k]) * (out[static_cast<std::size_t>(k)] - y[k]);
  return se / static_cast<double>(n);
}

double supervised_epoch(NeuralNet& net, const float* x, const float* y, std::int64_t n, double alpha,
                        std::uint64_t seed, std::int64_t epoch) {
  if (n < 0) throw std::invalid_argument("supervised: n must be >= 0");
  if (!(alpha > 0) || !std::isfinite(alpha)) throw std::invalid_argument("supervised: alpha must be > 0");
  check_targets(y, n);
  const int I = net.inputs(), H = net.hidden();
  constexpr int O = NeuralNet::kOutputs;
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  Rng rng(Rng::derive(seed, static_cast<std::uint64_t>(epoch)));
  for (std::int64_t i = n - 1; i > 0; --i) {
    const std::int64_t j = static_cast<std::int64_t>(rng.next() % static_cast<std::uint64_t>(i + 1));
    std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
  }
  std::vector<float> hid(static_cast<std::size_t>(H)), dh(static_cast<std::size_t>(H));
  float out[O], d[O];
  const float a = static_cast<float>(alpha);
  float *w1 = net.w1(), *b1 = net.b1(), *w2 = net.w2(), *b2 = net.b2();
  double se = 0;
  for (std::int64_t k : order) {
    const float* xi = x + static_cast<std::size_t>(k) * I;
    const float* yi = y + static_cast<std::size_t>(k) * O;
    net.forward(xi, out, hid.data());
    for (int o = 0; o < O; ++o) {
      d[o] = out[o] - yi[o];
      se += static_cast<double>(d[o]) * d[o];
    }
    for (int h = 0; h < H; ++h) {
      float g = 0.0f;
      for (int o = 0; o < O; ++o) g += d[o] * w2[static_cast<std::size_t>(o) * H + h];
      dh[static_cast<std::size_t>(h)] = g * hid[static_cast<std::size_t>(h)] * (1.0f - hid[static_cast<std::size_t>(h)]);
    }
    for (int o = 0; o < O; ++o) {
      float* row = w2 + static_cast<std::size_t>(o) * H;
      const float s = a * d[o];
      for (int h = 0; h < H; ++h) row[h] -= s * hid[static_cast<std::size_t>(h)];
      b2[o] -= s;
    }
    for (int i = 0; i < I; ++i) {
      const float v = xi[i];
      if (v == 0.0f) continue;  // most inputs are zero: their rows get no gradient
      float* row = w1 + static_cast<std::size_t>(i) * H;
      const float s = a * v;
      for (int h = 0; h < H; ++h) row[h] -= s * dh[static_cast<std::size_t>(h)];
    }
    for (int h = 0; h < H; ++h) b1[h] -= a * dh[static_cast<std::size_t>(h)];
  }
  net.check_finite();
  return n ? se / static_cast<double>(n) : 0.0;
}

}  // namespace tavli
