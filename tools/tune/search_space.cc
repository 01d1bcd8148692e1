#include "tools/tune/search_space.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "models/conf/property_value.h"
#include "tools/sweep/grid_value_key.h"

namespace aqesim::tune {

namespace {

// Spark's size suffixes (JavaUtils.byteStringAs), smallest first, with their bytes.
const std::vector<std::pair<std::string, int64_t>>& SizeUnits() {
  static const std::vector<std::pair<std::string, int64_t>> units = {
      {"b", 1}, {"k", 1LL << 10}, {"m", 1LL << 20}, {"g", 1LL << 30}, {"t", 1LL << 40}};
  return units;
}

// "16m" → (16, "m"); "400" → (400, ""); nullopt when not digits + an optional size suffix.
std::optional<std::pair<int64_t, std::string>> SplitSize(const std::string& s) {
  size_t digits = 0;
  while (digits < s.size() && s[digits] >= '0' && s[digits] <= '9') ++digits;
  if (digits == 0 || digits > 15) return std::nullopt;
  std::string suffix = Lower(s.substr(digits));
  if (suffix.size() == 2 && suffix[1] == 'b' && suffix != "bb") suffix.pop_back();  // "mb" → "m"
  if (!suffix.empty() &&
      std::none_of(SizeUnits().begin(), SizeUnits().end(), [&](const auto& u) { return u.first == suffix; }))
    return std::nullopt;
  return std::make_pair(std::stoll(s.substr(0, digits)), suffix);
}

int64_t UnitBytes(const std::string& unit) {
  for (const auto& [name, bytes] : SizeUnits())
    if (name == unit) return bytes;
  return 1;
}

// 3 significant digits, no exponent, no trailing zeros: 2.5, 0.125, 1230.
std::string FormatDecimal(double v) {
  if (v == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  const int decimals = std::max(0, 2 - magnitude);
  // Sized for the value (1e300 has 301 digits, 1e-300 302 decimals): a fixed 64-byte buffer cut
  // both bounds of 1e300..1e301 to the same 63 digits ("LOW must be below HIGH").
  std::string s(static_cast<size_t>(std::snprintf(nullptr, 0, "%.*f", decimals, v)) + 1, '\0');
  s.resize(static_cast<size_t>(std::snprintf(s.data(), s.size(), "%.*f", decimals, v)));
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

// v rounded to 3 significant digits.
double RoundDecimal(double v) {
  const std::optional<double> parsed = ParseDouble(FormatDecimal(v));
  return parsed ? *parsed : v;
}

std::string AxisValue(const SpaceAxis& a, double v) {
  if (a.kind == SpaceAxis::Kind::kDecimal) return FormatDecimal(v);
  return std::to_string(static_cast<int64_t>(std::llround(v))) + a.unit;
}

}  // namespace

std::string SpaceAxis::ToString() const {
  std::string s = key + "=";
  if (kind == Kind::kChoice) {
    for (size_t i = 0; i < choices.size(); ++i) s += (i ? "," : "") + choices[i];
    return s;
  }
  s += AxisValue(*this, low) + ".." + AxisValue(*this, high);
  if (log_scale) s += ":log";
  return s;
}

uint64_t SpaceAxis::Cardinality() const {
  switch (kind) {
    case Kind::kChoice:
      return choices.size();
    case Kind::kInteger:
      return static_cast<uint64_t>(high - low) + 1;
    case Kind::kDecimal:
      return 0;
  }
  return 0;
}

std::optional<SpaceAxis> ParseSpaceArg(const std::string& arg, std::string* error) {
  const auto fail = [&](const std::string& why) {
    *error = "--space " + arg + ": " + why;
    return std::nullopt;
  };
  const size_t eq = arg.find('=');
  if (eq == std::string::npos || eq == 0) return fail("expected KEY=V1,V2,... or KEY=LOW..HIGH[:log]");
  SpaceAxis axis;
  axis.key = std::string(Trim(arg.substr(0, eq)));
  std::string rest = std::string(Trim(arg.substr(eq + 1)));
  for (char c : arg)
    if (static_cast<unsigned char>(c) < 0x20) return fail("control characters are not allowed");
  const size_t dots = rest.find("..");
  if (dots == std::string::npos) {
    size_t start = 0;
    while (true) {
      const size_t comma = rest.find(',', start);
      const std::string v(
          Trim(rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
      if (v.empty()) return fail("empty value");
      for (const std::string& earlier : axis.choices)
        if (sweep::GridValueKey(earlier) == sweep::GridValueKey(v))
          return fail(earlier == v ? "value " + v + " given twice"
                                   : "value " + v + " is " + earlier + " again");
      axis.choices.push_back(v);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return axis;
  }
  if (rest.size() > 4 && rest.compare(rest.size() - 4, 4, ":log") == 0) {
    axis.log_scale = true;
    rest.resize(rest.size() - 4);
  }
  const std::string lo(Trim(rest.substr(0, dots)));
  const std::string hi(Trim(rest.substr(dots + 2)));
  if (lo.empty() || hi.empty()) return fail("a range needs LOW..HIGH");
  const auto lo_size = SplitSize(lo);
  const auto hi_size = SplitSize(hi);
  if (lo_size && hi_size) {
    axis.kind = SpaceAxis::Kind::kInteger;
    // The smaller unit of the two; both bounds in it.
    const int64_t lo_unit = UnitBytes(lo_size->second);
    const int64_t hi_unit = UnitBytes(hi_size->second);
    axis.unit = lo_unit <= hi_unit ? lo_size->second : hi_size->second;
    if ((lo_size->second.empty()) != (hi_size->second.empty()))
      return fail("give both bounds a size suffix or neither");
    const int64_t unit = std::min(lo_unit, hi_unit);
    // In doubles: 15 digits of terabytes in bytes overflow an int64 (the check below refuses them).
    axis.low = static_cast<double>(lo_size->first) * static_cast<double>(lo_unit / unit);
    axis.high = static_cast<double>(hi_size->first) * static_cast<double>(hi_unit / unit);
  } else {
    const std::optional<double> l = ParseDouble(lo);
    const std::optional<double> h = ParseDouble(hi);
    if (!l || !h) return fail("expected numbers, or sizes such as 16m..1g");
    if (std::fabs(*l) > 1e15 || std::fabs(*h) > 1e15) return fail("bounds beyond ±10^15 are not supported");
    axis.kind = SpaceAxis::Kind::kDecimal;
    axis.low = RoundDecimal(*l);
    axis.high = RoundDecimal(*h);
  }
  if (!(axis.low < axis.high)) return fail("LOW must be below HIGH");
  if (axis.log_scale && !(axis.low > 0)) return fail("a log-scale range must be above 0");
  if (axis.high > 1e15) return fail("HIGH is too large");
  return axis;
}

SpaceEncoding Encode(const std::vector<SpaceAxis>& axes) {
  SpaceEncoding e;
  for (const SpaceAxis& a : axes) {
    if (a.kind == SpaceAxis::Kind::kChoice && a.choices.size() < 2) {
      e.variable_of_axis.push_back(-1);
      continue;
    }
    e.variable_of_axis.push_back(static_cast<int>(e.lower.size()));
    if (a.kind == SpaceAxis::Kind::kChoice) {
      e.lower.push_back(0);
      e.upper.push_back(static_cast<double>(a.choices.size() - 1));
      e.is_integer.push_back(true);
    } else if (a.log_scale) {
      e.lower.push_back(std::log(a.low));
      e.upper.push_back(std::log(a.high));
      e.is_integer.push_back(false);
    } else {
      e.lower.push_back(a.low);
      e.upper.push_back(a.high);
      e.is_integer.push_back(a.kind == SpaceAxis::Kind::kInteger);
    }
  }
  return e;
}

std::vector<std::string> Decode(const std::vector<SpaceAxis>& axes, const SpaceEncoding& encoding,
                                const std::vector<double>& x) {
  std::vector<std::string> values;
  for (size_t i = 0; i < axes.size(); ++i) {
    const SpaceAxis& a = axes[i];
    const int var = encoding.variable_of_axis[i];
    if (var < 0) {
      values.push_back(a.choices.front());
      continue;
    }
    const size_t v = static_cast<size_t>(var);
    const double xi = std::clamp(x[v], encoding.lower[v], encoding.upper[v]);
    if (a.kind == SpaceAxis::Kind::kChoice) {
      values.push_back(a.choices[static_cast<size_t>(std::llround(xi))]);
      continue;
    }
    double value = a.log_scale ? std::exp(xi) : xi;
    value = std::clamp(value, a.low, a.high);
    if (a.kind == SpaceAxis::Kind::kInteger) value = std::clamp(std::round(value), a.low, a.high);
    values.push_back(AxisValue(a, value));
  }
  return values;
}

std::vector<double> EncodeValues(const std::vector<SpaceAxis>& axes, const SpaceEncoding& encoding,
                                 const std::vector<std::string>& values) {
  std::vector<double> x(encoding.lower.size(), 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    const int var = encoding.variable_of_axis[i];
    if (var < 0) continue;
    const SpaceAxis& a = axes[i];
    double v = 0;
    if (a.kind == SpaceAxis::Kind::kChoice) {
      v = static_cast<double>(std::find(a.choices.begin(), a.choices.end(), values[i]) - a.choices.begin());
    } else {
      const std::string& text = values[i];
      const std::string number = a.unit.empty() ? text : text.substr(0, text.size() - a.unit.size());
      v = ParseDouble(number).value_or(a.low);
      if (a.log_scale) v = std::log(v);
    }
    x[static_cast<size_t>(var)] = v;
  }
  return x;
}

std::optional<std::vector<std::vector<std::string>>> Enumerate(const std::vector<SpaceAxis>& axes,
                                                               uint64_t limit) {
  uint64_t count = 1;
  for (const SpaceAxis& a : axes) {
    const uint64_t n = a.Cardinality();
    if (n == 0 || count > limit / n) return std::nullopt;
    count *= n;
  }
  std::vector<std::vector<std::string>> points;
  points.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    std::vector<std::string> values(axes.size());
    uint64_t rest = i;
    for (size_t k = axes.size(); k-- > 0;) {
      const SpaceAxis& a = axes[k];
      const uint64_t n = a.Cardinality();
      const uint64_t j = rest % n;
      rest /= n;
      values[k] =
          a.kind == SpaceAxis::Kind::kChoice ? a.choices[j] : AxisValue(a, a.low + static_cast<double>(j));
    }
    points.push_back(std::move(values));
  }
  return points;
}

}  // namespace aqesim::tune
