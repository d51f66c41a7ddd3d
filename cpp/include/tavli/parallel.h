// Running work on a few threads with results that do not depend on how many: callers write to
// slots fixed by the index, and the first error is rethrown in the calling thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace tavli {

// fn(worker) on `t` workers (the calling thread alone when t == 1).
template <class Fn>
void run_on_threads(int t, Fn fn) {
  if (t <= 1) {
    fn(0);
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(t));
  for (int w = 0; w < t; ++w)
    pool.emplace_back([&, w] {
      try {
        fn(w);
      } catch (...) {
        errors[static_cast<std::size_t>(w)] = std::current_exception();
      }
    });
  for (auto& th : pool) th.join();
  for (auto& err : errors)
    if (err) std::rethrow_exception(err);
}

inline int worker_count(std::int64_t n, int threads) {
  return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, n)));
}

// fn(begin, end, worker) over contiguous ranges of [0, n).
template <class Fn>
void parallel_ranges(std::int64_t n, int threads, Fn fn) {
  const int t = worker_count(n, threads);
  run_on_threads(t, [&](int w) { fn(n * w / t, n * (w + 1) / t, w); });
}

// fn(i) for every i in [0, n), interleaved over the workers (balances uneven items).
template <class Fn>
void parallel_for(std::int64_t n, int threads, Fn fn) {
  const int t = worker_count(n, threads);
  run_on_threads(t, [&](int w) {
    for (std::int64_t i = w; i < n; i += t) fn(i);
  });
}

}  // namespace tavli
