#include "sim/slot_pool.h"

#include <stdexcept>
#include <string>

namespace aqesim {

SlotPool::SlotPool(int executors, int slots_per_executor)
    : executors_(executors), slots_per_executor_(slots_per_executor), free_count_(0) {
  if (executors < 0 || slots_per_executor < 0) {
    throw std::logic_error("SlotPool: negative executors (" + std::to_string(executors) +
                           ") or slots per executor (" + std::to_string(slots_per_executor) +
                           ")");
  }
  const int64_t total = int64_t{executors} * slots_per_executor;
  if (total > (int64_t{1} << 30)) throw std::logic_error("SlotPool: too many slots");
  free_count_ = static_cast<int>(total);
  words_.assign(static_cast<size_t>((total + 63) / 64), 0);
  for (int64_t i = 0; i < total; ++i) words_[i / 64] |= uint64_t{1} << (i % 64);
  acquisitions_.assign(static_cast<size_t>(executors), 0);
}

std::optional<SlotRef> SlotPool::Acquire() {
  if (free_count_ == 0) return std::nullopt;
  while (words_[first_word_] == 0) ++first_word_;  // free_count_ > 0: terminates
  uint64_t& word = words_[first_word_];
  const int bit = __builtin_ctzll(word);
  word &= word - 1;
  --free_count_;
  const SlotRef s = FromFlatId(static_cast<int>(first_word_ * 64) + bit);
  ++acquisitions_[s.executor];
  ++total_acquisitions_;
  return s;
}

bool SlotPool::IsFree(SlotRef s) const {
  const int id = FlatId(s);
  return (words_[id / 64] >> (id % 64)) & 1;
}

void SlotPool::Release(SlotRef s) {
  if (s.executor < 0 || s.executor >= executors_ || s.slot < 0 || s.slot >= slots_per_executor_) {
    throw std::logic_error("SlotPool::Release: no slot (" + std::to_string(s.executor) + ", " +
                           std::to_string(s.slot) + ")");
  }
  if (IsFree(s)) {
    throw std::logic_error("SlotPool::Release: slot (" + std::to_string(s.executor) + ", " +
                           std::to_string(s.slot) + ") is already free");
  }
  const int id = FlatId(s);
  words_[id / 64] |= uint64_t{1} << (id % 64);
  if (static_cast<size_t>(id / 64) < first_word_) first_word_ = id / 64;
  ++free_count_;
}

}  // namespace aqesim
