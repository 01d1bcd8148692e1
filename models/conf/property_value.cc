#include "models/conf/property_value.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

namespace aqesim {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLowerAlpha(char c) { return c >= 'a' && c <= 'z'; }

// Splits "digits[letters]" (after lowercasing); false when the shape does not match.
bool SplitNumberSuffix(std::string_view s, std::string_view* digits, std::string_view* suffix) {
  size_t i = 0;
  while (i < s.size() && IsDigit(s[i])) ++i;
  if (i == 0) return false;
  size_t j = i;
  while (j < s.size() && IsLowerAlpha(s[j])) ++j;
  if (j != s.size()) return false;
  *digits = s.substr(0, i);
  *suffix = s.substr(i);
  return true;
}

// Long.parseLong of a digit string: false on overflow.
bool ParseDigits(std::string_view digits, int64_t* out) {
  int64_t v = 0;
  for (char c : digits) {
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, c - '0', &v)) return false;
  }
  *out = v;
  return true;
}

int64_t SizeSuffixBytes(std::string_view suffix) {
  static constexpr std::pair<std::string_view, int64_t> kSuffixes[] = {
      {"b", 1},          {"k", 1LL << 10}, {"kb", 1LL << 10}, {"m", 1LL << 20},
      {"mb", 1LL << 20}, {"g", 1LL << 30}, {"gb", 1LL << 30}, {"t", 1LL << 40},
      {"tb", 1LL << 40}, {"p", 1LL << 50}, {"pb", 1LL << 50},
  };
  for (const auto& [name, bytes] : kSuffixes)
    if (name == suffix) return bytes;
  return 0;
}

}  // namespace

std::string_view Trim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::optional<bool> ParseBool(std::string_view s) {
  const std::string v = Lower(Trim(s));
  if (v == "true") return true;
  if (v == "false") return false;
  return std::nullopt;
}

std::optional<int64_t> ParseLong(std::string_view s) {
  const std::string v(Trim(s));
  if (v.empty()) return std::nullopt;
  const size_t i = (v[0] == '-' || v[0] == '+') ? 1 : 0;
  if (i == v.size()) return std::nullopt;
  for (size_t j = i; j < v.size(); ++j)
    if (!IsDigit(v[j])) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long long r = std::strtoll(v.c_str(), &end, 10);
  if (errno == ERANGE) return std::nullopt;
  return static_cast<int64_t>(r);
}

std::optional<int> ParseInt(std::string_view s) {
  auto v = ParseLong(s);
  if (!v || *v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max()) return std::nullopt;
  return static_cast<int>(*v);
}

std::optional<double> ParseDouble(std::string_view s) {
  const std::string v(Trim(s));
  if (v.empty()) return std::nullopt;
  for (char c : v)  // decimal notation only (no hex floats, no "nan"/"inf")
    if (!(IsDigit(c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) return std::nullopt;
  char* end = nullptr;
  const double r = std::strtod(v.c_str(), &end);
  if (end != v.c_str() + v.size() || !std::isfinite(r)) return std::nullopt;
  return r;
}

SizeStringResult ParseSizeString(std::string_view s, int64_t default_unit_bytes) {
  SizeStringResult result;
  bool negative = false;
  // ConfigHelpers.byteFromString strips one leading '-' before trimming.
  if (!s.empty() && s.front() == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  const std::string lower = Lower(Trim(s));
  std::string_view digits, suffix;
  if (!SplitNumberSuffix(lower, &digits, &suffix)) {
    // "([0-9]+\.[0-9]+)([a-z]+)?" → a fraction, which Spark names specifically.
    const size_t dot = lower.find('.');
    std::string_view a, sa, b, sb;
    if (dot != std::string::npos && SplitNumberSuffix(std::string_view(lower).substr(0, dot), &a, &sa) &&
        sa.empty() && SplitNumberSuffix(std::string_view(lower).substr(dot + 1), &b, &sb)) {
      result.error = SizeStringError::kFraction;
    } else {
      result.error = SizeStringError::kSyntax;
    }
    return result;
  }
  int64_t unit = default_unit_bytes;
  if (!suffix.empty()) {
    unit = SizeSuffixBytes(suffix);
    if (unit == 0) {
      result.error = SizeStringError::kInvalidSuffix;
      return result;
    }
  }
  int64_t count = 0;
  if (!ParseDigits(digits, &count) || __builtin_mul_overflow(count, unit, &result.value)) {
    result.error = SizeStringError::kOverflow;
    return result;
  }
  if (negative) result.value = -result.value;
  return result;
}

std::string SizeStringErrorReason(SizeStringError e) {
  switch (e) {
    case SizeStringError::kFraction:
      return "fractional values are not supported";
    case SizeStringError::kInvalidSuffix:
      return "unknown size suffix";
    case SizeStringError::kOverflow:
      return "too large for a 64-bit byte count";
    case SizeStringError::kSyntax:
    case SizeStringError::kNone:
      return "";
  }
  return "";
}

TimeStringResult ParseTimeString(std::string_view s, double default_unit_seconds) {
  TimeStringResult result;
  std::string lower = Lower(Trim(s));
  std::string_view body = lower;
  bool negative = false;
  if (!body.empty() && body.front() == '-') {
    negative = true;
    body.remove_prefix(1);
  }
  std::string_view digits, suffix;
  if (!SplitNumberSuffix(body, &digits, &suffix)) return result;
  int64_t count = 0;
  if (!ParseDigits(digits, &count)) return result;
  double unit = default_unit_seconds;
  if (!suffix.empty()) {
    static constexpr std::pair<std::string_view, double> kSuffixes[] = {
        {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}, {"m", 60}, {"min", 60}, {"h", 3600}, {"d", 86400},
    };
    unit = 0;
    for (const auto& [name, seconds] : kSuffixes)
      if (name == suffix) unit = seconds;
    if (unit == 0) return result;
  }
  result.seconds = static_cast<double>(count) * unit * (negative ? -1 : 1);
  result.ok = true;
  return result;
}

std::optional<int64_t> ParseByteString(std::string_view s) {
  const SizeStringResult r = ParseSizeString(s);
  if (!r.ok()) return std::nullopt;
  return r.value;
}

std::optional<double> ParseTimeStringSeconds(std::string_view s, double default_unit_seconds) {
  const TimeStringResult r = ParseTimeString(s, default_unit_seconds);
  if (!r.ok) return std::nullopt;
  return r.seconds;
}

std::optional<SparkMaster> ParseSparkMaster(std::string_view s, std::string* error) {
  const std::string_view v = Trim(s);
  SparkMaster m;
  if (v == "local") {
    m.local = true;
    m.local_threads = 1;
    return m;
  }
  if (v.rfind("local[", 0) != 0) return m;  // local-cluster[...], yarn, spark://, k8s://, ...
  // local[N] / local[*], optionally ", F" (maxFailures) before the ']'.
  auto refuse = [&] {
    *error = "expected local, local[N], local[*] or local[N, F] with N from 1 to " +
             std::to_string(std::numeric_limits<int>::max()) + ", found \"" + std::string(v) + "\"";
    return std::nullopt;
  };
  if (v.back() != ']') return refuse();
  std::string_view inner = v.substr(6, v.size() - 7);
  std::string_view threads = inner, failures;
  if (const size_t comma = inner.find(','); comma != std::string_view::npos) {
    threads = inner.substr(0, comma);
    failures = inner.substr(comma + 1);
    while (!threads.empty() && threads.back() == ' ') threads.remove_suffix(1);
    while (!failures.empty() && failures.front() == ' ') failures.remove_prefix(1);
    if (failures.empty() || failures.find_first_not_of("0123456789") != std::string_view::npos ||
        !ParseInt(failures))
      return refuse();
    m.local_max_failures = ParseInt(failures);
  }
  m.local = true;
  if (threads == "*") return m;
  if (threads.empty() || threads.find_first_not_of("0123456789") != std::string_view::npos) return refuse();
  const std::optional<int> n = ParseInt(threads);
  if (!n || *n <= 0) return refuse();
  m.local_threads = *n;
  return m;
}

}  // namespace aqesim
