// Stopping long calls: a Ctrl-C seen by the caller, or a time limit, ends the work of every
// thread of a call within a few milliseconds, without leaving anything half done.
//
// A call that can run long runs under a StopToken that its caller installs for the calling thread
// (a StopScope). The work calls check_stop() at bounded intervals (a search node, a ply of a game,
// a row of a batch: microseconds of work, never a second); check_stop() throws
//   - Interrupted when a stop was requested (request_stop, or the token's poll hook said so: the
//     Python bindings poll Python's signal handlers there, on the calling thread only), and
//   - TimeLimitReached once the token's time limit has passed.
// Worker threads started through parallel.h inherit the calling thread's token (as a child group:
// one failing worker stops its siblings), and the calling thread keeps polling while it waits for
// them, so a Ctrl-C is seen even when all the work runs on other threads.
//
// The exceptions unwind through the core: results are built in locals and only returned whole,
// so the caller's objects (a Game, a Match) are never left changed.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <thread>

namespace tavli {

// A stop was requested (Ctrl-C in Python: KeyboardInterrupt).
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

// The call's time limit passed before it finished (TimeoutError in Python).
struct TimeLimitReached : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class StopToken {
 public:
  using Clock = std::chrono::steady_clock;
  // How often, at most, the poll hook runs (it may take a lock such as Python's GIL).
  static constexpr std::chrono::milliseconds kPollInterval{10};

  // time_limit: seconds, finite and >= 0 (0: none); std::invalid_argument otherwise.
  explicit StopToken(double time_limit = 0);
  // A group under `parent` (the workers of one parallel section): stops when the parent does, and
  // can be stopped alone; it has the parent's deadline and no hook of its own.
  explicit StopToken(const StopToken* parent);
  StopToken(const StopToken&) = delete;
  StopToken& operator=(const StopToken&) = delete;

  // `poll` returns true when the work must stop (Interrupted); it runs on the thread that
  // installs it, at most every kPollInterval.
  void set_poll(std::function<bool()> poll);

  enum class Reason : int { None = 0, Interrupted = 1, TimeLimit = 2, Aborted = 3 };
  // Aborted: a sibling worker failed; its own error is the one the caller sees.
  void request_stop(Reason why = Reason::Interrupted) const noexcept;
  Reason reason() const noexcept;  // this token's or an ancestor's, None while running

  // Cheap: one atomic load, and every kSlowEvery calls the clock and (on its thread) the hook.
  void check() {
    if (reason_.load(std::memory_order_relaxed) != 0) throw_reason();
    if ((++tick() & (kSlowEvery - 1)) == 0) check_now();
  }
  // The full check: the ancestors, the deadline, the hook.
  void check_now();

 private:
  static constexpr unsigned kSlowEvery = 16;
  static unsigned& tick() {
    thread_local unsigned n = 0;
    return n;
  }
  [[noreturn]] void throw_reason() const;

  const StopToken* parent_ = nullptr;
  mutable std::atomic<int> reason_{0};  // a Reason; stopping is allowed through a const ancestor
  bool timed_ = false;
  Clock::time_point deadline_{};
  std::function<bool()> poll_;
  std::thread::id poll_thread_{};
  mutable Clock::time_point last_poll_{};  // touched on poll_thread_ only
};

// The calling thread's token (null when none is installed: then nothing stops the work).
inline StopToken*& current_stop_slot() noexcept {
  thread_local StopToken* token = nullptr;
  return token;
}
inline StopToken* current_stop() noexcept { return current_stop_slot(); }

// Installs `token` as the calling thread's for the scope's lifetime (the previous one is restored).
class StopScope {
 public:
  explicit StopScope(StopToken* token) noexcept : previous_(current_stop_slot()) { current_stop_slot() = token; }
  ~StopScope() { current_stop_slot() = previous_; }
  StopScope(const StopScope&) = delete;
  StopScope& operator=(const StopScope&) = delete;

 private:
  StopToken* previous_;
};

// The check points of long work.
inline void check_stop() {
  if (StopToken* t = current_stop()) t->check();
}

}  // namespace tavli
