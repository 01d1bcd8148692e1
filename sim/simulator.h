// Simulator: the discrete-event kernel (clock, event queue, run loop).
//
// Modelled on ns-3's DefaultSimulatorImpl, with two deliberate differences: the
// simulator is an ordinary object passed by reference (no global static), and the
// queue key has a "tier" between time and sequence so that bookkeeping events at one
// instant (e.g. the task scheduler's launch pass) can be ordered after everything
// else that happens at that instant.
//
// Ordering. Events run in increasing key order (at, tier, seq):
//   - at:   simulated time (SimTime, integer microseconds);
//   - tier: an int, lower runs first among events at the same time;
//   - seq:  insertion sequence, so ties within a tier run FIFO.
// A run is therefore a pure function of the calls made: it reproduces bit for bit.
//
// Time never runs backwards: scheduling before Now() is a programmer error and throws
// std::logic_error. Scheduling at Now() (even with a lower tier than the event that is
// running) is allowed; the event runs before the clock advances.
//
// Cancel is lazy (as in ns-3): the handler is dropped immediately (its captures are
// destroyed), its queue key is skipped when it reaches the front.
//
// Cost: one 4-ary-heap push/pop of a 24-byte POD key per event; handlers live in a
// recycled slab, so a std::function whose captures fit its small buffer (two
// pointers on libstdc++) allocates nothing.
#ifndef AQESIM_SIM_SIMULATOR_H_
#define AQESIM_SIM_SIMULATOR_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sim/units.h"

namespace aqesim {

/// Handle of a scheduled event. Default-constructed = "no event" (Cancel ignores it).
struct EventId {
  uint64_t seq = 0;   // insertion sequence, starts at 1; 0 means "no event"
  uint32_t slot = 0;  // index of the handler in the simulator's slab

  bool valid() const { return seq != 0; }
  friend bool operator==(const EventId&, const EventId&) = default;
};

class Simulator {
 public:
  using Callback = std::function<void()>;

  /// Tier used when none is given.
  static constexpr int kDefaultTier = 0;
  /// Tiers must lie in [kMinTier, kMaxTier] (else std::logic_error).
  static constexpr int kMinTier = -(1 << 15);
  static constexpr int kMaxTier = (1 << 15) - 1;

  Simulator() = default;
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  /// Current simulated time. Starts at SimTime::Zero(); inside a callback it is the
  /// event's time.
  SimTime Now() const { return now_; }

  /// Schedules `callback` at absolute time `at` (>= Now(), else std::logic_error).
  EventId ScheduleAt(SimTime at, int tier, Callback callback);
  EventId ScheduleAt(SimTime at, Callback callback) {
    return ScheduleAt(at, kDefaultTier, std::move(callback));
  }
  /// Schedules `callback` at Now() + delay (delay >= 0, else std::logic_error).
  EventId ScheduleIn(SimTime delay, int tier, Callback callback);
  EventId ScheduleIn(SimTime delay, Callback callback) {
    return ScheduleIn(delay, kDefaultTier, std::move(callback));
  }
  /// Schedules `callback` at Now().
  EventId ScheduleNow(int tier, Callback callback) { return ScheduleAt(now_, tier, std::move(callback)); }

  /// Cancels a pending event. Returns true if it was pending (and now will not run);
  /// false if it already ran, was cancelled, or `id` is invalid.
  bool Cancel(EventId id);
  /// True if `id` is scheduled and neither ran nor was cancelled.
  bool IsPending(EventId id) const;

  /// Runs events until the queue is empty or Stop() is called from a callback.
  void Run();
  /// Runs events with time <= `end`, then (unless stopped) advances the clock to
  /// `end` if it is later than Now(). `end` < Now() is a logic_error.
  void RunUntil(SimTime end);
  /// Pops and runs the next live event (skipping cancelled ones). Returns false if
  /// there was none.
  bool ProcessOneEvent();
  /// Makes the current Run()/RunUntil() return after the running callback finishes.
  /// Pending events stay queued; a later Run() resumes them.
  void Stop() { stop_requested_ = true; }

  /// Time and tier of the next live event, if any (skips cancelled keys at the front).
  struct NextKey {
    SimTime at;
    int tier;
  };
  std::optional<NextKey> PeekNext();

  /// Number of events scheduled and not yet run or cancelled.
  int64_t pending_events() const { return live_events_; }
  /// Number of callbacks run so far.
  int64_t events_processed() const { return events_processed_; }
  /// Number of successful Cancel() calls so far.
  int64_t events_cancelled() const { return events_cancelled_; }

 private:
  // Queue key. `order` packs (tier + kTierBias) in the top 16 bits and the insertion
  // sequence in the low 48, so (at, order) compares as one unsigned 128-bit number.
  struct Key {
    uint64_t at_us;  // >= 0: events are never scheduled before Now() >= 0
    uint64_t order;
    uint32_t slot;
  };
  static constexpr int kTierBias = 1 << 15;
  static constexpr int kSeqBits = 48;
  static bool Before(const Key& a, const Key& b) {
    __extension__ typedef unsigned __int128 U128;
    return ((static_cast<U128>(a.at_us) << 64) | a.order) < ((static_cast<U128>(b.at_us) << 64) | b.order);
  }
  struct Handler {
    Callback callback;
    uint64_t seq = 0;  // seq of the event occupying this slot; 0 = free
    bool cancelled = false;
  };

  // 4-ary min-heap on Before(); heap_[0] is the next event.
  void PushKey(const Key& key);
  void PopFront();
  void FreeSlot(uint32_t slot);
  // Drops cancelled keys from the front of the heap.
  void SkipCancelled();

  SimTime now_ = SimTime::Zero();
  uint64_t next_seq_ = 1;
  std::vector<Key> heap_;
  std::vector<Handler> handlers_;
  std::vector<uint32_t> free_slots_;
  int64_t live_events_ = 0;
  int64_t events_processed_ = 0;
  int64_t events_cancelled_ = 0;
  bool stop_requested_ = false;
};

}  // namespace aqesim

#endif  // AQESIM_SIM_SIMULATOR_H_
