#include "models/conf/variants.h"

#include "models/conf/did_you_mean.h"
#include "models/conf/property_value.h"

namespace aqesim {

const std::vector<VariantInfo>& KnownVariants() {
  static const std::vector<VariantInfo>* table = new std::vector<VariantInfo>{
      {"las.exactReducerTotals", "ByteDance LAS (2022)",
       "MapOutputTracker statistics as OptimizeSkewedJoin sees them",
       "the driver accumulates exact per-reducer totals before compressing each MapStatus; skew is "
       "detected on them (costs 8 bytes per reducer and one decompression per block on the driver)",
       &VariantSwitches::las_exact_reducer_totals},
      {"las.splitByExactTotals", "ByteDance LAS (2022)",
       "the per-map sizes createSkewPartitionSpecs splits a skewed reducer by",
       "a skewed reducer's exact total, less its accurately reported blocks, is spread evenly over its "
       "other non-empty blocks before the split by target size",
       &VariantSwitches::las_split_by_exact_totals},
      {"bytedance.oneToManyBucketJoin", "ByteDance (Spark+AI Summit 2020)",
       "EnsureRequirements' shuffle of the side with fewer buckets in a join of two bucketed tables",
       "a table of k buckets joins one of m x k buckets without a shuffle: a bucket union reads each of its "
       "buckets in the m tasks of the matching buckets; a preserved (outer or anti) side filters each copy "
       "to "
       "its own keys",
       &VariantSwitches::bytedance_one_to_many_bucket_join},
  };
  return *table;
}

std::vector<std::string> VariantSwitches::EnabledNames() const {
  std::vector<std::string> out;
  for (const VariantInfo& v : KnownVariants())
    if (this->*(v.field)) out.push_back(v.name);
  return out;
}

bool IsVariantKey(std::string_view key) {
  return key.substr(0, kVariantKeyPrefix.size()) == kVariantKeyPrefix;
}

std::string ApplyVariantKey(std::string_view key, std::string_view value, VariantSwitches* switches) {
  const std::string_view name = key.substr(kVariantKeyPrefix.size());
  for (const VariantInfo& v : KnownVariants()) {
    if (v.name != name) continue;
    const std::optional<bool> on = ParseBool(value);
    if (!on) return "expected a boolean (true or false), found \"" + std::string(value) + "\"";
    switches->*(v.field) = *on;
    return "";
  }
  std::vector<std::string> keys;
  for (const VariantInfo& v : KnownVariants()) keys.push_back(std::string(kVariantKeyPrefix) + v.name);
  std::string known;
  for (const std::string& k : keys) known += (known.empty() ? "" : ", ") + k;
  std::string message = "unknown variant '" + std::string(key) + "'";
  if (auto s = DidYouMean(key, keys)) return message + "; did you mean '" + *s + "'?";
  return message + " (known: " + known + ")";
}

}  // namespace aqesim
