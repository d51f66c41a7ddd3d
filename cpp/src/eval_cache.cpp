#include "tavli/eval_cache.h"

#include <cstring>
#include <stdexcept>

namespace tavli {

EvalCache::EvalCache(int bits) {
  if (bits < 4 || bits > 26) throw std::invalid_argument("EvalCache: bits must be 4..26");
  const std::size_t n = std::size_t{1} << bits;
  slots_.reset(new Slot[n]);
  mask_ = n - 1;
  for (std::size_t i = 0; i < n; ++i) {
    for (auto& w : slots_[i].key) w.store(0, std::memory_order_relaxed);
    for (auto& w : slots_[i].value) w.store(0, std::memory_order_relaxed);
  }
}

void EvalCache::new_generation() {
  if (++generation_ == 0) {  // wrapped (once every 2^32 searches): forget for real
    for (std::size_t i = 0; i <= mask_; ++i) slots_[i].key[0].store(0, std::memory_order_relaxed);
    generation_ = 1;
  }
}

void EvalCache::pack_key(const Position& pos, std::uint64_t* words) const {
  unsigned char bytes[8 * kKeyWords] = {};
  std::memcpy(bytes, &generation_, 4);
  const PositionKey k = pos.key();
  static_assert(sizeof(PositionKey) + 4 <= sizeof bytes, "key and generation fit the slot");
  std::memcpy(bytes + 4, k.data(), k.size());
  std::memcpy(words, bytes, sizeof bytes);
}

bool EvalCache::find(const Position& pos, Probabilities* out) const {
  const Slot& s = slots_[pos.hash() & mask_];
  const std::uint64_t before = s.seq.load(std::memory_order_acquire);
  if (before & 1) return false;  // being written
  std::uint64_t key[kKeyWords], value[kValueWords];
  for (int i = 0; i < kKeyWords; ++i) key[i] = s.key[i].load(std::memory_order_relaxed);
  for (int i = 0; i < kValueWords; ++i) value[i] = s.value[i].load(std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_acquire);
  if (s.seq.load(std::memory_order_relaxed) != before) return false;  // torn: a writer came by
  std::uint64_t want[kKeyWords];
  pack_key(pos, want);
  if (std::memcmp(key, want, sizeof key) != 0) return false;
  static_assert(sizeof(Probabilities) <= sizeof value, "the value fits its words");
  std::memcpy(out, value, sizeof(Probabilities));
  return true;
}

void EvalCache::store(const Position& pos, const Probabilities& v) {
  Slot& s = slots_[pos.hash() & mask_];
  std::uint64_t seq = s.seq.load(std::memory_order_relaxed);
  if ((seq & 1) || !s.seq.compare_exchange_strong(seq, seq + 1, std::memory_order_acquire)) return;  // busy: skip
  std::atomic_thread_fence(std::memory_order_release);
  std::uint64_t key[kKeyWords], value[kValueWords] = {};
  pack_key(pos, key);
  std::memcpy(value, &v, sizeof(Probabilities));
  for (int i = 0; i < kKeyWords; ++i) s.key[i].store(key[i], std::memory_order_relaxed);
  for (int i = 0; i < kValueWords; ++i) s.value[i].store(value[i], std::memory_order_relaxed);
  s.seq.store(seq + 2, std::memory_order_release);
}

}  // namespace tavli
