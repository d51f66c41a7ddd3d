#include "tavli/thread_pool.h"

#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#if !defined(_WIN32)
#include <pthread.h>
#endif

namespace tavli {
namespace {

// One worker: its thread waits on `wake` for a task in the slot.
struct Worker {
  std::mutex m;
  std::condition_variable wake;
  bool has_task = false;
  std::function<void()> task, done;
};

// The idle workers. Never destroyed (workers may still be waiting on it while the process exits);
// replaced, the old one leaked, in the child of a fork().
struct Pool {
  std::mutex m;
  std::vector<Worker*> idle;
};

Pool* the_pool = nullptr;
std::once_flag pool_made;

Pool& pool() {
  std::call_once(pool_made, [] {
    the_pool = new Pool;
#if !defined(_WIN32)
    // The child of a fork has only the forking thread: the parent's idle workers are gone, and the
    // pool's lock may have been held by one of them at the fork.
    pthread_atfork(nullptr, nullptr, [] { the_pool = new Pool; });
#endif
  });
  return *the_pool;
}

// Back on the idle list; false when it is full (the worker then ends).
bool make_idle(Worker* w) {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.m);
  if (static_cast<int>(p.idle.size()) >= kMaxIdleWorkers) return false;
  p.idle.push_back(w);
  return true;
}

void work_loop(Worker* w) {
  for (;;) {
    std::function<void()> task, done;
    {
      std::unique_lock<std::mutex> lock(w->m);
      w->wake.wait(lock, [w] { return w->has_task; });
      task = std::move(w->task);
      done = std::move(w->done);
      w->task = nullptr;
      w->done = nullptr;
      w->has_task = false;
    }
    task();
    // Idle before done(): a caller that returns on done() finds this worker free for its next call.
    const bool kept = make_idle(w);
    done();
    if (!kept) break;
  }
  delete w;
}

}  // namespace

void run_on_worker(std::function<void()> task, std::function<void()> done) {
  Pool& p = pool();
  Worker* w = nullptr;
  {
    std::lock_guard<std::mutex> lock(p.m);
    if (!p.idle.empty()) {
      w = p.idle.back();
      p.idle.pop_back();
    }
  }
  if (!w) {
    w = new Worker;
    try {
      std::thread(work_loop, w).detach();
    } catch (...) {
      delete w;
      throw;
    }
  }
  {
    std::lock_guard<std::mutex> lock(w->m);
    w->task = std::move(task);
    w->done = std::move(done);
    w->has_task = true;
  }
  w->wake.notify_one();
}

int idle_workers() {
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.m);
  return static_cast<int>(p.idle.size());
}

}  // namespace tavli
