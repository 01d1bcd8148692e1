// Spark's size and time strings, parsed with the reason when they are invalid.
//
// Sizes follow JavaUtils.byteStringAs (common/utils/.../network/util/JavaUtils.java) as
// reached through ConfigHelpers.byteFromString: optional leading '-', then digits, then an
// optional suffix (b, k/kb, m/mb, g/gb, t/tb, p/pb; case-insensitive; binary units, 1k = 1024);
// surrounding whitespace is trimmed; fractions ("1.5g") are rejected; a value that does not
// fit in a signed 64-bit long is rejected. A bare number is in the key's default unit (bytes
// for most keys, MiB for spark.executor.memory / spark.driver.memory).
// Times follow JavaUtils.timeStringAs: optional '-', digits, optional suffix us, ms, s, m or
// min, h, d; a bare number is in the key's default unit.
#ifndef AQESIM_MODELS_CONF_BYTE_STRING_H_
#define AQESIM_MODELS_CONF_BYTE_STRING_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace aqesim {

enum class SizeStringError {
  kNone,
  kSyntax,         // not digits + suffix
  kFraction,       // "1.5g": Spark rejects fractional sizes
  kInvalidSuffix,  // "5x"
  kOverflow,       // does not fit in a signed 64-bit count of bytes
};

struct SizeStringResult {
  int64_t value = 0;
  SizeStringError error = SizeStringError::kNone;
  bool ok() const { return error == SizeStringError::kNone; }
};

/// Parses a Spark byte string; a bare number is multiplied by `default_unit_bytes`
/// (1 for bytes, 1 << 20 for MiB).
SizeStringResult ParseSizeString(std::string_view s, int64_t default_unit_bytes = 1);

/// A short reason for an error, for messages: "fractional values are not supported",
/// "unknown size suffix", "too large for a 64-bit byte count", "" for kSyntax / kNone.
std::string SizeStringErrorReason(SizeStringError e);

/// Parses a Spark time string into seconds (exact: "100ms" = 0.1); nullopt-like failure is
/// reported through `ok`.
struct TimeStringResult {
  double seconds = 0;
  bool ok = false;
};
TimeStringResult ParseTimeString(std::string_view s, double default_unit_seconds);

}  // namespace aqesim

#endif  // AQESIM_MODELS_CONF_BYTE_STRING_H_
