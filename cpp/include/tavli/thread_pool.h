// The process's worker threads, kept between calls. parallel.h's run_on_threads hands each
// worker's share of a call to one of them instead of starting a thread per call: a new thread
// cost about half a millisecond (its stack mapped, its thread-local scratch — move generator,
// encoding and net buffers — allocated and zeroed afresh), as much as a whole 2-ply decision of a
// small position, and a kept worker keeps that scratch warm.
//
// Workers start on demand (a call that finds none idle starts one, so nested calls never wait
// for each other) and at most kMaxIdleWorkers of them wait idle between calls; a worker past that
// ends when its task does. Workers never touch Python. After fork() the child starts with an
// empty pool: the parent's workers do not exist there.
#pragma once

#include <functional>

namespace tavli {

constexpr int kMaxIdleWorkers = 64;

// Runs task() on a pool worker, then, once that worker is idle again (ready for the next call),
// done() on it. Neither may throw. Throws std::system_error when no worker can be started (then
// neither runs).
void run_on_worker(std::function<void()> task, std::function<void()> done);

// Workers waiting idle now (for tests).
int idle_workers();

}  // namespace tavli
