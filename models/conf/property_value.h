// Spark property values: the one checked parser of the strings Spark's configuration holds —
// numbers, booleans, sizes, times and the master URL — used for scenario `conf`,
// --properties-file, --conf, sweep grids and the `Spark Properties` of an event log alike.
// Nothing here throws or wraps: a value that does not parse, or does not fit, is reported.
//
// Every value is trimmed first, as Spark's ConfigHelpers do with Java's String.trim()
// (common/utils/.../internal/config/ConfigBuilder.scala): every character <= ' ' goes.
//  * Booleans: "true" / "false", any case (ConfigHelpers.toBoolean).
//  * Integers: optional sign, decimal digits, within int / long (Integer.parseInt,
//    Long.parseLong through ConfigHelpers.toNumber).
//  * Doubles: decimal notation, finite (no hex floats, NaN or infinities).
//  * Sizes follow JavaUtils.byteStringAs (common/utils/.../network/util/JavaUtils.java) as
//    reached through ConfigHelpers.byteFromString: optional leading '-', then digits, then an
//    optional suffix (b, k/kb, m/mb, g/gb, t/tb, p/pb; case-insensitive; binary units,
//    1k = 1024); fractions ("1.5g") are rejected; a value that does not fit in a signed 64-bit
//    long is rejected. A bare number is in the key's default unit (bytes for most keys, MiB
//    for spark.executor.memory / spark.driver.memory).
//  * Times follow JavaUtils.timeStringAs: optional '-', digits, optional suffix us, ms, s,
//    m or min, h, d; a bare number is in the key's default unit.
//  * spark.master follows SparkContext.createTaskScheduler (core/.../SparkContext.scala):
//    "local", "local[N]", "local[*]", "local[N, F]" / "local[*, F]" (F task failures) run in
//    the driver's JVM with N threads (* = the machine's cores); "local-cluster[W, C, M]" and
//    every other URL (yarn, spark://, k8s://, mesos://) run executors of their own. Spark
//    refuses a local master whose thread count is not a positive int.
#ifndef AQESIM_MODELS_CONF_PROPERTY_VALUE_H_
#define AQESIM_MODELS_CONF_PROPERTY_VALUE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace aqesim {

/// Java's String.trim(): strips every character <= ' ' at both ends.
std::string_view Trim(std::string_view s);
/// ASCII lower case.
std::string Lower(std::string_view s);

std::optional<bool> ParseBool(std::string_view s);
/// Integer.parseInt of the trimmed value: nullopt when it is not an integer or not an int.
std::optional<int> ParseInt(std::string_view s);
/// Long.parseLong of the trimmed value.
std::optional<int64_t> ParseLong(std::string_view s);
/// A finite decimal number.
std::optional<double> ParseDouble(std::string_view s);

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

/// Parses a Spark byte string ("64m", "1g", "100MB", "1048576"): bytes, or nullopt if invalid
/// or out of range.
std::optional<int64_t> ParseByteString(std::string_view s);

/// Parses a Spark time string into seconds (exact: "100ms" = 0.1); failure is reported
/// through `ok`.
struct TimeStringResult {
  double seconds = 0;
  bool ok = false;
};
TimeStringResult ParseTimeString(std::string_view s, double default_unit_seconds);
/// As ParseTimeString: seconds ("300s", "5min", "100ms"), a bare number in
/// `default_unit_seconds` units; nullopt when invalid.
std::optional<double> ParseTimeStringSeconds(std::string_view s, double default_unit_seconds);

/// Where spark.master runs the tasks.
struct SparkMaster {
  /// True for local / local[N] / local[*] / local[N, F]: one executor, the driver's JVM.
  bool local = false;
  /// Local threads (task slots); nullopt for local[*] (the driver machine's cores).
  std::optional<int> local_threads;
  /// local[N, F]: F, the task failures allowed (unset: local mode allows 1).
  std::optional<int> local_max_failures;

  bool operator==(const SparkMaster&) const = default;
};
/// The master URL, or nullopt with `*error` ("expected ..., found ...") for a local master
/// Spark refuses: "local[0]", "local[99999999999]", "local[x]".
std::optional<SparkMaster> ParseSparkMaster(std::string_view s, std::string* error);

}  // namespace aqesim

#endif  // AQESIM_MODELS_CONF_PROPERTY_VALUE_H_
