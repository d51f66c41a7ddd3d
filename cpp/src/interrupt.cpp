#include "tavli/interrupt.h"

#include <cmath>

namespace tavli {

StopToken::StopToken(double time_limit) {
  if (!(time_limit >= 0) || !std::isfinite(time_limit))
    throw std::invalid_argument("time_limit must be a finite number of seconds >= 0 (0 or None: no limit)");
  if (time_limit > 0) {
    timed_ = true;
    // Beyond a year the limit is no limit (and the clock arithmetic stays far from overflow).
    const double capped = std::min(time_limit, 366.0 * 86400.0);
    deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(capped));
  }
}

StopToken::StopToken(const StopToken* parent) : parent_(parent) {
  if (parent) {
    timed_ = parent->timed_;
    deadline_ = parent->deadline_;
  }
}

void StopToken::set_poll(std::function<bool()> poll) {
  poll_ = std::move(poll);
  poll_thread_ = std::this_thread::get_id();
  last_poll_ = Clock::now();
}

void StopToken::request_stop(Reason why) const noexcept {
  int expected = 0;  // the first reason stays
  reason_.compare_exchange_strong(expected, static_cast<int>(why), std::memory_order_relaxed);
}

StopToken::Reason StopToken::reason() const noexcept {
  for (const StopToken* t = this; t; t = t->parent_) {
    const int r = t->reason_.load(std::memory_order_relaxed);
    if (r != 0) return static_cast<Reason>(r);
  }
  return Reason::None;
}

void StopToken::throw_reason() const {
  switch (reason()) {
    case Reason::TimeLimit:
      throw TimeLimitReached("the time limit was reached before the call finished");
    case Reason::Aborted:  // a sibling's error is reported instead; this only unwinds
    case Reason::Interrupted:
    case Reason::None:
      break;
  }
  throw Interrupted();
}

void StopToken::check_now() {
  if (reason() != Reason::None) throw_reason();
  if (!timed_ && !parent_ && !poll_) return;
  const Clock::time_point now = Clock::now();
  if (timed_ && now > deadline_) {
    request_stop(Reason::TimeLimit);
    throw_reason();
  }
  // The hooks of this token and its ancestors that belong to this thread.
  for (const StopToken* t = this; t; t = t->parent_) {
    if (!t->poll_ || t->poll_thread_ != std::this_thread::get_id() || now - t->last_poll_ < kPollInterval) continue;
    t->last_poll_ = now;
    if (t->poll_()) {
      t->request_stop(Reason::Interrupted);
      throw_reason();
    }
  }
}

}  // namespace tavli
