// Running work on a few threads with results that do not depend on how many: callers write to
// slots fixed by the index, and the first error is rethrown in the calling thread.
//
// Stopping (interrupt.h): the workers run under a group token below the calling thread's, so a
// Ctrl-C or a time limit stops them all, and so does the first error of any one of them; the
// calling thread does worker 0's share, then waits for the others in slices, still polling.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>

#include "tavli/interrupt.h"
#include "tavli/thread_pool.h"

namespace tavli {

// The one bound of every call's `threads` (search, batch, simulation, rollouts): 1..kMaxThreads,
// std::invalid_argument "threads must be 1..1024" otherwise.
constexpr int kMaxThreads = 1024;
inline void check_threads(int threads) {
  if (threads < 1 || threads > kMaxThreads)
    throw std::invalid_argument("threads must be 1.." + std::to_string(kMaxThreads));
}

// fn(worker) on `t` workers: the calling thread is worker 0, the pool's threads (thread_pool.h) the
// others; the calling thread alone when t == 1.
template <class Fn>
void run_on_threads(int t, Fn fn) {
  if (t <= 1) {
    fn(0);
    return;
  }
  StopToken group(current_stop());
  std::mutex m;
  std::condition_variable finished;
  int running = t - 1;
  std::exception_ptr first_error;  // the cause; the siblings' later errors are its consequences
  auto fail = [&](std::exception_ptr e) {
    {
      std::lock_guard<std::mutex> lock(m);
      if (!first_error) first_error = e;
    }
    group.request_stop(StopToken::Reason::Aborted);
  };
  auto work = [&](int w) {
    StopScope scope(&group);
    try {
      fn(w);
    } catch (...) {
      fail(std::current_exception());
    }
  };
  // Workers 1..t-1 on the pool's threads (thread_pool.h); a worker that cannot be started
  // leaves its share and those after it undone, so the call stops and says why.
  bool started = true;
  for (int w = 1; w < t; ++w) {
    try {
      run_on_worker([&work, w] { work(w); }, [&] {
        std::lock_guard<std::mutex> lock(m);
        if (--running == 0) finished.notify_one();
      });
    } catch (...) {
      fail(std::current_exception());
      std::lock_guard<std::mutex> lock(m);
      running -= t - w;
      started = false;
      break;
    }
  }
  if (started) work(0);
  {
    std::unique_lock<std::mutex> lock(m);
    while (!finished.wait_for(lock, StopToken::kPollInterval, [&] { return running == 0; })) {
      lock.unlock();
      try {
        StopScope scope(&group);
        group.check_now();
      } catch (...) {
        fail(std::current_exception());
      }
      lock.lock();
    }
  }
  if (first_error) std::rethrow_exception(first_error);
}

inline int worker_count(std::int64_t n, int threads) {
  return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, n)));
}

// fn(begin, end, worker) over contiguous ranges of [0, n). fn checks for stopping itself.
template <class Fn>
void parallel_ranges(std::int64_t n, int threads, Fn fn) {
  const int t = worker_count(n, threads);
  run_on_threads(t, [&](int w) { fn(n * w / t, n * (w + 1) / t, w); });
}

// fn(i) for every i in [0, n), interleaved over the workers (balances uneven items); a stop is
// checked before each item.
template <class Fn>
void parallel_for(std::int64_t n, int threads, Fn fn) {
  const int t = worker_count(n, threads);
  run_on_threads(t, [&](int w) {
    for (std::int64_t i = w; i < n; i += t) {
      check_stop();
      fn(i);
    }
  });
}

}  // namespace tavli
