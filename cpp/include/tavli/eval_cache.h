// A bounded table of static evaluations, shared by the threads of one search.
//
// Keyed by the position hash (position.h: the incremental 64-bit hash picks the slot) and verified
// by the exact key (PositionKey, 33 bytes): a hit returns the value stored for exactly that
// position, so with a deterministic evaluator it is the value a fresh evaluation would give, bit
// for bit, and a search gives the same results with or without the cache, on any number of
// threads (tested). One search, one game, one evaluator: the owner starts a new generation (O(1))
// before another search; entries of older generations never match.
//
// Slots: 2^bits of them, direct-mapped (a store replaces what the slot held). Each slot is a
// sequence lock over words that are all std::atomic (no data race in C++ terms): a writer makes
// the sequence odd, writes, makes it even again; a reader copies the words and keeps the copy only
// if the sequence was even and unchanged across the copy. A writer that finds the slot being
// written skips its store, so nothing ever waits (lock-free), and a torn copy is only a miss.
//
// Layout of a slot (80 bytes): seq (u64; odd while written), then the generation (u32) and the
// key's 33 bytes packed into 5 words, then the 7 floats of Probabilities (eval.h) in 4 words.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "tavli/eval.h"

namespace tavli {

class EvalCache {
 public:
  // 2^bits slots (bits 4..26; 80 bytes each).
  explicit EvalCache(int bits);

  // Entries stored before are forgotten.
  void new_generation();
  bool find(const Position& pos, Probabilities* out) const;
  void store(const Position& pos, const Probabilities& value);

  std::size_t slots() const { return mask_ + 1; }

 private:
  static constexpr int kKeyWords = 5, kValueWords = 4;
  struct Slot {
    std::atomic<std::uint64_t> seq{0};
    std::atomic<std::uint64_t> key[kKeyWords];
    std::atomic<std::uint64_t> value[kValueWords];
  };
  // The generation in the low 32 bits of word 0, then the 33 key bytes.
  void pack_key(const Position& pos, std::uint64_t* words) const;

  std::unique_ptr<Slot[]> slots_;
  std::size_t mask_;
  std::uint32_t generation_ = 1;
};

}  // namespace tavli
