// Units of the simulator: Bytes (int64 bytes) and SimTime (int64 microseconds).
//
// Both are strong types: there is no implicit conversion from a raw number, so a
// value that crosses an API boundary always says what it is. Byte arithmetic that could
// overflow 64 bits is checked by the callers that add untrusted sizes (see CheckedAdd
// below); SimTime addition saturates at Max() ("never"). Nothing wraps silently.
#ifndef AQESIM_SIM_UNITS_H_
#define AQESIM_SIM_UNITS_H_

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>
#include <optional>

namespace aqesim {

/// A byte count. Spark's sizes are `long`, so is ours.
class Bytes {
 public:
  constexpr Bytes() = default;
  constexpr explicit Bytes(int64_t count) : count_(count) {}

  static constexpr Bytes KiB(int64_t n) { return Bytes(n * 1024); }
  static constexpr Bytes MiB(int64_t n) { return Bytes(n * 1024 * 1024); }
  static constexpr Bytes GiB(int64_t n) { return Bytes(n * 1024 * 1024 * 1024); }

  constexpr int64_t count() const { return count_; }
  double mib() const { return static_cast<double>(count_) / (1024.0 * 1024.0); }

  constexpr Bytes operator+(Bytes o) const { return Bytes(count_ + o.count_); }
  constexpr Bytes operator-(Bytes o) const { return Bytes(count_ - o.count_); }
  constexpr Bytes& operator+=(Bytes o) {
    count_ += o.count_;
    return *this;
  }
  constexpr Bytes& operator-=(Bytes o) {
    count_ -= o.count_;
    return *this;
  }
  constexpr auto operator<=>(const Bytes&) const = default;

 private:
  int64_t count_ = 0;
};

/// Simulated time, integer microseconds since the start of the simulation (or a
/// duration). Integer time makes runs reproduce bit for bit (ns-3's Time does the same).
class SimTime {
 public:
  constexpr SimTime() = default;

  static constexpr SimTime Micros(int64_t us) { return SimTime(us); }
  static constexpr SimTime Millis(int64_t ms) { return SimTime(ms * 1000); }
  /// Rounds to the nearest microsecond; negative and NaN inputs become 0.
  static SimTime Seconds(double s) {
    if (!(s > 0)) return SimTime(0);
    const double us = s * 1e6;
    // Clamp before rounding: llround of a value beyond int64 (or of +inf) is unspecified.
    if (!(us < 9.2e18)) return Max();
    return SimTime(static_cast<int64_t>(std::llround(us)));
  }
  static constexpr SimTime Zero() { return SimTime(0); }
  static constexpr SimTime Max() { return SimTime(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t micros() const { return us_; }
  constexpr double seconds() const { return static_cast<double>(us_) / 1e6; }

  /// Saturates at Max() (and at the most negative time): a duration that does not fit is
  /// "never", not a wrapped, earlier time.
  constexpr SimTime operator+(SimTime o) const;
  constexpr SimTime operator-(SimTime o) const { return SimTime(us_ - o.us_); }
  constexpr SimTime& operator+=(SimTime o) { return *this = *this + o; }
  constexpr auto operator<=>(const SimTime&) const = default;

 private:
  constexpr explicit SimTime(int64_t us) : us_(us) {}
  int64_t us_ = 0;
};

/// 128-bit integer for exact products of byte counts (a × b ÷ c without overflow).
__extension__ using Int128 = __int128;

/// a + b for byte counts, or nullopt if the sum does not fit in int64 (Spark's long).
inline std::optional<int64_t> CheckedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

/// a + b, saturating at the int64 limits (for values read from untrusted input, such as a
/// corrupt event log's metrics, that must not wrap).
constexpr int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  return r;
}
/// a − b, saturating at the int64 limits.
constexpr int64_t SaturatingSub(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r))
    return a > b ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  return r;
}

constexpr SimTime SimTime::operator+(SimTime o) const { return SimTime(SaturatingAdd(us_, o.us_)); }

}  // namespace aqesim

#endif  // AQESIM_SIM_UNITS_H_
