#include "sim/simulator.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace aqesim {

EventId Simulator::ScheduleAt(SimTime at, int tier, Callback callback) {
  if (at < now_) {
    throw std::logic_error("Simulator::ScheduleAt: time " + std::to_string(at.micros()) +
                           " us is before Now() = " + std::to_string(now_.micros()) + " us");
  }
  if (tier < kMinTier || tier > kMaxTier) {
    throw std::logic_error("Simulator::ScheduleAt: tier " + std::to_string(tier) + " outside [" +
                           std::to_string(kMinTier) + ", " + std::to_string(kMaxTier) + "]");
  }
  uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<uint32_t>(handlers_.size());
    handlers_.emplace_back();
  }
  if (next_seq_ >> kSeqBits) throw std::logic_error("Simulator: more than 2^48 events");
  const uint64_t seq = next_seq_++;
  Handler& h = handlers_[slot];
  h.callback = std::move(callback);
  h.seq = seq;
  h.cancelled = false;
  const uint64_t order = (static_cast<uint64_t>(tier + kTierBias) << kSeqBits) | seq;
  PushKey(Key{static_cast<uint64_t>(at.micros()), order, slot});
  ++live_events_;
  return EventId{seq, slot};
}

EventId Simulator::ScheduleIn(SimTime delay, int tier, Callback callback) {
  if (delay < SimTime::Zero()) {
    throw std::logic_error("Simulator::ScheduleIn: negative delay " + std::to_string(delay.micros()) + " us");
  }
  return ScheduleAt(now_ + delay, tier, std::move(callback));
}

bool Simulator::IsPending(EventId id) const {
  if (!id.valid() || id.slot >= handlers_.size()) return false;
  const Handler& h = handlers_[id.slot];
  return h.seq == id.seq && !h.cancelled;
}

bool Simulator::Cancel(EventId id) {
  if (!IsPending(id)) return false;
  Handler& h = handlers_[id.slot];
  h.cancelled = true;
  h.callback = nullptr;  // release captures now; the key is skipped when popped
  --live_events_;
  ++events_cancelled_;
  return true;
}

void Simulator::PushKey(const Key& key) {
  size_t hole = heap_.size();
  heap_.push_back(key);
  while (hole > 0) {
    const size_t parent = (hole - 1) / 4;
    if (!Before(key, heap_[parent])) break;
    heap_[hole] = heap_[parent];
    hole = parent;
  }
  heap_[hole] = key;
}

void Simulator::PopFront() {
  // Bottom-up deletion: walk the hole from the root to a leaf along the smallest
  // children (branch-free min of four), then sift the former last key up from there.
  // It usually belongs near the bottom, so this saves a comparison per level.
  const Key last = heap_.back();
  heap_.pop_back();
  const size_t n = heap_.size();
  if (n == 0) return;
  Key* h = heap_.data();
  size_t hole = 0;
  for (;;) {
    const size_t first = 4 * hole + 1;
    size_t best;
    if (first + 4 <= n) {
      const size_t b01 = first + Before(h[first + 1], h[first]);
      const size_t b23 = first + 2 + Before(h[first + 3], h[first + 2]);
      best = Before(h[b23], h[b01]) ? b23 : b01;
    } else if (first < n) {
      best = first;
      for (size_t c = first + 1; c < n; ++c) best = Before(h[c], h[best]) ? c : best;
    } else {
      break;
    }
    h[hole] = h[best];
    hole = best;
  }
  while (hole > 0) {
    const size_t parent = (hole - 1) / 4;
    if (!Before(last, h[parent])) break;
    h[hole] = h[parent];
    hole = parent;
  }
  h[hole] = last;
}

void Simulator::FreeSlot(uint32_t slot) {
  handlers_[slot].seq = 0;
  free_slots_.push_back(slot);
}

void Simulator::SkipCancelled() {
  while (!heap_.empty() && handlers_[heap_.front().slot].cancelled) {
    const uint32_t slot = heap_.front().slot;
    PopFront();
    FreeSlot(slot);
  }
}

std::optional<Simulator::NextKey> Simulator::PeekNext() {
  SkipCancelled();
  if (heap_.empty()) return std::nullopt;
  const Key& front = heap_.front();
  return NextKey{SimTime::Micros(static_cast<int64_t>(front.at_us)),
                 static_cast<int>(front.order >> kSeqBits) - kTierBias};
}

bool Simulator::ProcessOneEvent() {
  SkipCancelled();
  if (heap_.empty()) return false;
  const Key key = heap_.front();
  PopFront();
  // Keys are validated on insertion, so this only fires on a kernel bug.
  if (static_cast<int64_t>(key.at_us) < now_.micros())
    throw std::logic_error("Simulator: time ran backwards");
  Callback callback = std::move(handlers_[key.slot].callback);
  FreeSlot(key.slot);
  --live_events_;
  now_ = SimTime::Micros(static_cast<int64_t>(key.at_us));
  ++events_processed_;
  callback();
  return true;
}

void Simulator::Run() {
  stop_requested_ = false;
  while (!stop_requested_ && ProcessOneEvent()) {
  }
  stop_requested_ = false;
}

void Simulator::RunUntil(SimTime end) {
  if (end < now_) {
    throw std::logic_error("Simulator::RunUntil: end " + std::to_string(end.micros()) +
                           " us is before Now() = " + std::to_string(now_.micros()) + " us");
  }
  stop_requested_ = false;
  while (!stop_requested_) {
    const std::optional<NextKey> next = PeekNext();
    if (!next || next->at > end) {
      now_ = end;
      break;
    }
    ProcessOneEvent();
  }
  stop_requested_ = false;
}

}  // namespace aqesim
