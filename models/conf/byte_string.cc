#include "models/conf/byte_string.h"

#include <cctype>
#include <limits>
#include <utility>

namespace aqesim {
namespace {

// Java's String.trim(): strips every character <= ' ' at both ends.
std::string_view JavaTrim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

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

SizeStringResult ParseSizeString(std::string_view s, int64_t default_unit_bytes) {
  SizeStringResult result;
  bool negative = false;
  // ConfigHelpers.byteFromString strips one leading '-' before trimming.
  if (!s.empty() && s.front() == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  const std::string lower = Lower(JavaTrim(s));
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
  std::string lower = Lower(JavaTrim(s));
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

}  // namespace aqesim
