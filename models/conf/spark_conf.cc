#include "models/conf/spark_conf.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/conf/conf_key_table.h"
#include "models/conf/did_you_mean.h"
#include "models/conf/property_value.h"
#include "models/conf/unmodelled_keys.h"

namespace aqesim {
namespace {

std::string LastComponent(std::string_view key) {
  const size_t dot = key.rfind('.');
  return std::string(dot == std::string_view::npos ? key : key.substr(dot + 1));
}

// A known key close to `key`: by the whole key first, else by its last dotted component
// when exactly one known key's last component is the closest ("spark.sql.adaptive.
// minPartitionSize" → "...coalescePartitions.minPartitionSize").
std::optional<std::string> SuggestKey(const std::string& key) {
  const auto& known = KnownConfKeys();
  if (auto s = DidYouMean(key, known)) return s;
  const std::string last = Lower(LastComponent(key));
  if (last.size() < 4) return std::nullopt;
  int best = DefaultMaxEditDistance(last.size()) + 1;
  std::vector<std::string> best_keys;
  for (const std::string& k : known) {
    const int d = EditDistance(last, Lower(LastComponent(k)));
    if (d < best) {
      best = d;
      best_keys = {k};
    } else if (d == best) {
      best_keys.push_back(k);
    }
  }
  if (best_keys.size() == 1) return best_keys.front();
  return std::nullopt;
}

}  // namespace

const std::vector<std::string>& KnownConfKeys() {
  static const std::vector<std::string>* keys = [] {
    auto* k = new std::vector<std::string>();
    for (const ConfKeyInfo& info : ConfKeyTable()) k->push_back(info.key);
    return k;
  }();
  return *keys;
}

SqlConf ResolveSqlConf(const RawConf& raw, std::vector<ConfProblem>* problems) {
  std::vector<ConfProblem> scratch;
  if (problems == nullptr) problems = &scratch;
  SqlConf conf;
  const auto& table = ConfKeyTable();
  // advisoryPartitionSizeInBytes falls back to the deprecated targetPostShuffleInputSize.
  const std::string kAdvisory = "spark.sql.adaptive.advisoryPartitionSizeInBytes";
  const std::string kTarget = "spark.sql.adaptive.shuffle.targetPostShuffleInputSize";
  // The first kMaxUnknownKeyWarnings unknown keys are warned one by one (with a suggestion,
  // which compares with every known key); the rest in one line.
  size_t unknown = 0;
  std::string first_unlisted;
  for (const auto& [key, value] : raw) {
    const ConfKeyInfo* info = nullptr;
    for (const ConfKeyInfo& candidate : table)
      if (candidate.key == key) info = &candidate;
    if (IsVariantKey(key)) {
      std::string error = ApplyVariantKey(key, value, &conf.variants);
      if (!error.empty()) problems->push_back({key, error, true});
      continue;
    }
    if (info == nullptr && key.find_first_not_of(" \t") == std::string::npos) {
      problems->push_back({key, "expected a configuration key, found \"" + key + "\"", true});
      continue;
    }
    if (info == nullptr && ++unknown > kMaxUnknownKeyWarnings) {
      if (first_unlisted.empty()) first_unlisted = key;
      continue;
    }
    if (info == nullptr) {
      if (IsUnmodelledSparkKey(key)) {
        problems->push_back(
            {key, "'" + key + "' is a Spark key that aqesim does not model (ignored)", false});
        continue;
      }
      const bool spark_key = key.rfind("spark.", 0) == 0;
      std::string message = spark_key ? "unused configuration key '" + key + "'"
                                      : "ignoring non-Spark configuration key '" + key + "'";
      if (auto s = SuggestKey(spark_key ? key : "spark." + key)) message += "; did you mean '" + *s + "'?";
      problems->push_back({key, message, false});
      continue;
    }
    std::vector<ConfProblem> warnings;
    std::string error = info->apply(value, &conf, &warnings);
    if (!error.empty()) problems->push_back({key, error, true});
    for (ConfProblem& w : warnings) problems->push_back(std::move(w));
  }
  if (unknown > kMaxUnknownKeyWarnings)
    problems->push_back({first_unlisted,
                         std::to_string(unknown - kMaxUnknownKeyWarnings) +
                             " more unused or non-Spark configuration keys, from '" + first_unlisted +
                             "' on, not listed one by one",
                         false});
  if (raw.count(kAdvisory) == 0) {
    auto it = raw.find(kTarget);
    if (it != raw.end()) {
      const SizeStringResult r = ParseSizeString(it->second);
      if (r.ok() && r.value > 0) conf.advisory_partition_size_bytes = r.value;
    }
  }
  return conf;
}

}  // namespace aqesim
