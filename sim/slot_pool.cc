#include "sim/slot_pool.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace aqesim {

SlotPool::SlotPool(int executors, int slots_per_executor, bool all_present)
    : executors_(executors), slots_per_executor_(slots_per_executor), free_count_(0) {
  if (executors < 0 || slots_per_executor < 0) {
    throw std::logic_error("SlotPool: negative executors (" + std::to_string(executors) +
                           ") or slots per executor (" + std::to_string(slots_per_executor) + ")");
  }
  slots_of_.assign(static_cast<size_t>(executors), slots_per_executor);
  Init(all_present);
}

SlotPool::SlotPool(const std::vector<int>& slots_per_executor, bool all_present)
    : executors_(static_cast<int>(slots_per_executor.size())),
      slots_per_executor_(0),
      slots_of_(slots_per_executor),
      free_count_(0) {
  for (int s : slots_per_executor) {
    if (s < 0) throw std::logic_error("SlotPool: negative slots per executor (" + std::to_string(s) + ")");
    slots_per_executor_ = std::max(slots_per_executor_, s);
  }
  Init(all_present);
}

void SlotPool::Init(bool all_present) {
  const int64_t grid = int64_t{executors_} * slots_per_executor_;
  if (grid > (int64_t{1} << 30)) throw std::logic_error("SlotPool: too many slots");
  for (int s : slots_of_) total_slots_ += s;
  words_.assign(static_cast<size_t>((grid + 63) / 64), 0);
  busy_.assign(static_cast<size_t>(grid), 0);
  present_.assign(static_cast<size_t>(executors_), 0);
  acquisitions_.assign(static_cast<size_t>(executors_), 0);
  if (all_present) {
    for (int e = 0; e < executors_; ++e) SetPresent(e, true);
  }
}

void SlotPool::SetPresent(int executor, bool present) {
  if (executor < 0 || executor >= executors_) {
    throw std::logic_error("SlotPool::SetPresent: no executor " + std::to_string(executor));
  }
  if ((present_[executor] != 0) == present) return;
  present_[executor] = present ? 1 : 0;
  present_count_ += present ? 1 : -1;
  for (int s = 0; s < slots_of_[executor]; ++s) {
    const int id = FlatId(SlotRef{executor, s});
    if (busy_[id]) continue;  // a running task keeps its slot until Release()
    const uint64_t bit = uint64_t{1} << (id % 64);
    if (present) {
      words_[id / 64] |= bit;
      ++free_count_;
      if (static_cast<size_t>(id / 64) < first_word_) first_word_ = id / 64;
    } else {
      words_[id / 64] &= ~bit;
      --free_count_;
    }
  }
}

std::optional<SlotRef> SlotPool::Acquire() {
  if (free_count_ == 0) return std::nullopt;
  while (words_[first_word_] == 0) ++first_word_;  // free_count_ > 0: terminates
  uint64_t& word = words_[first_word_];
  const int bit = __builtin_ctzll(word);
  word &= word - 1;
  --free_count_;
  ++busy_count_;
  busy_[first_word_ * 64 + bit] = 1;
  const SlotRef s = FromFlatId(static_cast<int>(first_word_ * 64) + bit);
  ++acquisitions_[s.executor];
  ++total_acquisitions_;
  return s;
}

std::optional<SlotRef> SlotPool::AcquireOn(int executor) {
  for (int slot = 0; slot < slots_of_[executor]; ++slot) {
    const SlotRef s{executor, slot};
    if (!IsFree(s)) continue;
    const int id = FlatId(s);
    words_[id / 64] &= ~(uint64_t{1} << (id % 64));
    --free_count_;
    ++busy_count_;
    busy_[id] = 1;
    ++acquisitions_[executor];
    ++total_acquisitions_;
    return s;
  }
  return std::nullopt;
}

bool SlotPool::HasFreeSlotOn(int executor) const {
  for (int slot = 0; slot < slots_of_[executor]; ++slot) {
    if (IsFree(SlotRef{executor, slot})) return true;
  }
  return false;
}

bool SlotPool::IsFree(SlotRef s) const {
  const int id = FlatId(s);
  return (words_[id / 64] >> (id % 64)) & 1;
}

void SlotPool::Release(SlotRef s) {
  if (s.executor < 0 || s.executor >= executors_ || s.slot < 0 || s.slot >= slots_of_[s.executor]) {
    throw std::logic_error("SlotPool::Release: no slot (" + std::to_string(s.executor) + ", " +
                           std::to_string(s.slot) + ")");
  }
  if (!IsBusy(s)) {
    throw std::logic_error("SlotPool::Release: slot (" + std::to_string(s.executor) + ", " +
                           std::to_string(s.slot) + ") is already free");
  }
  const int id = FlatId(s);
  busy_[id] = 0;
  --busy_count_;
  if (!present_[s.executor]) return;  // removed while running: not granted again
  words_[id / 64] |= uint64_t{1} << (id % 64);
  if (static_cast<size_t>(id / 64) < first_word_) first_word_ = id / 64;
  ++free_count_;
}

}  // namespace aqesim
