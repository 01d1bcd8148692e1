#include "tools/sweep/grid.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "tools/sweep/grid_value_key.h"

namespace aqesim::sweep {

namespace {

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

std::optional<int> ParsePositiveInt(const std::string& s) {
  int v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end || s.empty()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<GridAxis> ParseGridArg(const std::string& arg, std::string* error) {
  const size_t eq = arg.find('=');
  if (eq == std::string::npos) {
    *error = "--grid " + arg + ": expected KEY=V1,V2,...";
    return std::nullopt;
  }
  GridAxis axis;
  axis.key = Trim(arg.substr(0, eq));
  if (axis.key.empty()) {
    *error = "--grid " + arg + ": empty key";
    return std::nullopt;
  }
  const std::string rest = arg.substr(eq + 1);
  size_t start = 0;
  while (true) {
    const size_t comma = rest.find(',', start);
    const std::string v =
        Trim(rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (v.empty()) {
      *error = "--grid " + arg + ": empty value in the list for " + axis.key;
      return std::nullopt;
    }
    axis.values.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return axis;
}

std::string GridAxisProblem(const GridAxis& axis) {
  auto control = [](const std::string& s) {
    return std::any_of(s.begin(), s.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
  };
  auto shown = [](const std::string& s) { return nlohmann::json(s).dump(); };
  if (control(axis.key)) return "expected a key without control characters, found " + shown(axis.key);
  if (axis.values.empty()) return "expected at least one value";
  std::map<std::string, std::string> seen;  // GridValueKey -> the value as first given
  for (const std::string& v : axis.values) {
    if (v.empty()) return "empty value in the list";
    if (control(v)) return "expected values without control characters (a newline, a tab), found " + shown(v);
    const auto [first, added] = seen.emplace(GridValueKey(v), v);
    if (!added && first->second == v) return "the value " + shown(v) + " is given twice (each point once)";
    if (!added)
      return "the value " + shown(v) + " is " + shown(first->second) + " again (the same " +
             (first->first[0] == '?' ? "boolean" : "number") + "; each point once)";
  }
  return "";
}

uint64_t GridPointCount(const std::vector<GridAxis>& axes) {
  uint64_t n = 1;
  for (const GridAxis& a : axes) {
    const uint64_t k = a.values.size();
    if (k != 0 && n > std::numeric_limits<uint64_t>::max() / k) return std::numeric_limits<uint64_t>::max();
    n *= k;
  }
  return n;
}

std::vector<std::string> GridPointValues(const std::vector<GridAxis>& axes, uint64_t index) {
  std::vector<std::string> values(axes.size());
  for (size_t i = axes.size(); i-- > 0;) {
    const uint64_t k = axes[i].values.size();
    values[i] = axes[i].values[index % k];
    index /= k;
  }
  return values;
}

std::optional<Shard> ParseShard(const std::string& arg, std::string* error) {
  const size_t slash = arg.find('/');
  std::optional<int> k, n;
  if (slash != std::string::npos) {
    k = ParsePositiveInt(arg.substr(0, slash));
    n = ParsePositiveInt(arg.substr(slash + 1));
  }
  if (!k || !n || *n < 1 || *k < 1 || *k > *n) {
    *error = "--shard " + arg + ": expected K/N with 1 <= K <= N (e.g. 1/4)";
    return std::nullopt;
  }
  return Shard{*k, *n};
}

}  // namespace aqesim::sweep
