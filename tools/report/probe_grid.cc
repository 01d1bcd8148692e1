#include "tools/report/probe_grid.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "models/conf/conf_key_table.h"
#include "models/conf/property_value.h"

namespace aqesim::report {

namespace {

constexpr int64_t kMiB = 1LL << 20;
const char* const kAdvisoryKey = "spark.sql.adaptive.advisoryPartitionSizeInBytes";
const char* const kForceSkewKey = "spark.sql.adaptive.forceOptimizeSkewedJoin";
const char* const kMinPartitionNumKey = "spark.sql.adaptive.coalescePartitions.minPartitionNum";

// A grid value as a number: a byte string ("64m" = 67108864) or a plain number ("5.0").
std::optional<double> AsNumber(const std::string& s) {
  if (auto b = ParseByteString(s)) return static_cast<double>(*b);
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  if (!s.empty() && end && *end == '\0') return d;
  return std::nullopt;
}

// The key's value in the scenario, else Spark's default as the key table writes it; nullopt
// when neither is a literal ("(none)", "(value of ...)").
std::optional<std::string> OwnValue(const std::string& key, const RawConf& raw) {
  if (auto it = raw.find(key); it != raw.end()) return it->second;
  // Unset, AQE's runtime broadcast threshold is the static one.
  if (key == "spark.sql.adaptive.autoBroadcastJoinThreshold")
    return OwnValue("spark.sql.autoBroadcastJoinThreshold", raw);
  for (const ConfKeyInfo& k : ConfKeyTable()) {
    if (k.key != key) continue;
    const std::string& d = k.doc.spark_default;
    if (d.empty() || d.front() == '(') return std::nullopt;
    // "256MB" as the sweep's other values are written ("256m").
    if (d.back() == 'B')
      if (const std::optional<int64_t> bytes = ParseByteString(d)) return SparkByteString(*bytes);
    return d;
  }
  return std::nullopt;
}

// Adds `value` to the axis unless an equal one (same text or same number) is there.
void AddValue(sweep::GridAxis* axis, const std::string& value) {
  const std::optional<double> n = AsNumber(value);
  for (const std::string& v : axis->values) {
    if (v == value) return;
    const std::optional<double> m = AsNumber(v);
    if (n && m && *n == *m) return;
  }
  axis->values.push_back(value);
}

// Ascending when every value is a number; as given otherwise (booleans: own value first).
void SortValues(sweep::GridAxis* axis) {
  if (!std::all_of(axis->values.begin(), axis->values.end(),
                   [](const std::string& v) { return AsNumber(v).has_value(); }))
    return;
  std::stable_sort(axis->values.begin(), axis->values.end(),
                   [](const std::string& a, const std::string& b) { return *AsNumber(a) < *AsNumber(b); });
}

std::string ShellQuoted(const std::string& s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("_-.,/=:+@%").find(c) != std::string_view::npos;
  });
  if (plain) return s;
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q.push_back(c);
  }
  q.push_back('\'');
  return q;
}

}  // namespace

std::vector<sweep::GridAxis> ProbeGrid(const TuningFacts& facts, const RawConf& raw,
                                       const Recommendation& rules) {
  std::vector<sweep::GridAxis> axes;
  if (!facts.shuffles.empty()) {
    const int64_t own = facts.conf.advisory_partition_size_bytes;
    sweep::GridAxis a;
    a.key = kAdvisoryKey;
    // The scenario's own text first (so the baseline reads as it is written), then ÷ 4 and × 4.
    const auto it = raw.find(kAdvisoryKey);
    a.values.push_back(it != raw.end() ? it->second : SparkByteString(own));
    if (own / 4 >= kMiB) AddValue(&a, SparkByteString(own / 4));
    if (own <= (int64_t{1} << 60)) AddValue(&a, SparkByteString(own * 4));
    axes.push_back(std::move(a));
  }
  // OptimizeSkewedJoin left a skew unsplit because splitting needs an extra shuffle: the rule
  // proposes spark.sql.adaptive.forceOptimizeSkewedJoin=true (why_not_advice.cc), and only a
  // simulation tells whether the extra shuffle pays off, so the grid holds it.
  const bool extra_shuffle = std::any_of(facts.not_applied.begin(), facts.not_applied.end(),
                                         [](const NotApplied& n) { return n.reason == "needsExtraShuffle"; });
  if (extra_shuffle) {
    const std::optional<std::string> own = OwnValue(kForceSkewKey, raw);
    axes.push_back({kForceSkewKey, {own.value_or("false")}});
    AddValue(&axes.back(), "true");
  }
  for (const ConfLine& l : rules.lines) {
    if (l.key == "spark.sql.adaptive.enabled") continue;  // not a grid key: a rule of its own
    auto it =
        std::find_if(axes.begin(), axes.end(), [&](const sweep::GridAxis& a) { return a.key == l.key; });
    if (it == axes.end()) {
      std::optional<std::string> own = OwnValue(l.key, raw);
      // Unset, CoalesceShufflePartitions' minimum is Spark's default parallelism under
      // parallelismFirst (spark.default.parallelism, else the cluster's cores), 1 otherwise.
      if (!own && l.key == kMinPartitionNumKey)
        own = std::to_string(!facts.conf.coalesce_parallelism_first ? 1
                             : facts.conf.default_parallelism       ? *facts.conf.default_parallelism
                                                                    : std::max(facts.total_cores, 1));
      if (!own) continue;  // no baseline to compare with: the sweep could not prefer it
      axes.push_back({l.key, {*own}});
      it = axes.end() - 1;
    }
    AddValue(&*it, l.value);
  }
  axes.erase(
      std::remove_if(axes.begin(), axes.end(), [](const sweep::GridAxis& a) { return a.values.size() < 2; }),
      axes.end());
  for (sweep::GridAxis& a : axes) SortValues(&a);
  return axes;
}

std::string SweepCommand(const sweep::SweepInfo& info) {
  std::string cmd = "aqesim sweep " + ShellQuoted(info.scenario_file);
  if (!info.properties_file.empty()) cmd += " --properties-file " + ShellQuoted(info.properties_file);
  if (!info.cost_file.empty()) cmd += " --cost " + ShellQuoted(info.cost_file);
  for (const std::string& kv : info.conf) cmd += " --conf " + ShellQuoted(kv);
  for (const sweep::GridAxis& a : info.grid) {
    std::string arg = a.key + "=";
    for (size_t i = 0; i < a.values.size(); ++i) arg += (i ? "," : "") + a.values[i];
    cmd += " --grid " + ShellQuoted(arg);
  }
  return cmd + " -o SWEEP.json";
}

}  // namespace aqesim::report
