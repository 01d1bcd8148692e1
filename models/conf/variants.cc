#include "models/conf/variants.h"

#include <cstdint>

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
      {"las.skewJoinAggWindowSides", "ByteDance LAS (2022)",
       "OptimizeSkewedJoin's candidates: a sort over a shuffle stage on both sides",
       "a join whose side is an aggregate or window directly over its shuffle is split too: the other side's "
       "skewed partition by map ranges, the aggregate or window side's partition read whole by every piece",
       &VariantSwitches::las_skew_join_agg_window_sides},
      {"las.multipleSkewedJoinsInStage", "ByteDance LAS (2022)",
       "OptimizeSkewedJoin's extra-shuffle check for a join under another join of the same stage",
       "consecutive shuffled joins of one stage are split together: a skewed input's reducer by map "
       "ranges, every other input's same reducer read whole by each piece",
       &VariantSwitches::las_multiple_skewed_joins_in_stage},
      {"las.skewJoinsUnderUnion", "ByteDance LAS (2022)",
       "OptimizeSkewedJoin's all-or-nothing extra-shuffle check over the whole plan",
       "joins under a Union are kept or withdrawn per union branch: a branch whose split would need an "
       "extra shuffle no longer stops the splits of the other branches",
       &VariantSwitches::las_skew_joins_under_union},
      {"bytedance.oneToManyBucketJoin", "ByteDance (Spark+AI Summit 2020)",
       "EnsureRequirements' shuffle of the side with fewer buckets in a join of two bucketed tables",
       "a table of k buckets joins one of m x k buckets without a shuffle: a bucket union reads each of its "
       "buckets in the m tasks of the matching buckets; a preserved (outer or anti) side filters each copy "
       "to "
       "its own keys",
       &VariantSwitches::bytedance_one_to_many_bucket_join},
      {"intel.rowCountTargets", "Intel and Baidu adaptive execution (2017)",
       "CoalesceShufflePartitions' target, in bytes only",
       "where a coalesced partition holds more than intel.targetPostShuffleRowCount records, its run is "
       "packed "
       "again by Spark's target bytes and that many records",
       &VariantSwitches::intel_row_count_targets},
      {"intel.skewByRowCount", "Intel and Baidu adaptive execution (2017)",
       "OptimizeSkewedJoin's skew test, in bytes only",
       "a reducer is also skewed when its records exceed skewedPartitionFactor x the median records and "
       "intel.skewedPartitionRowCountThreshold; it is split into at most intel.skewedPartitionMaxSplits "
       "even map ranges",
       &VariantSwitches::intel_skew_by_row_count},
  };
  return *table;
}

const std::vector<VariantParameterInfo>& KnownVariantParameters() {
  static const std::vector<VariantParameterInfo>* table = new std::vector<VariantParameterInfo>{
      {"intel.targetPostShuffleRowCount", "intel.rowCountTargets",
       "records one coalesced partition may hold (default 20000000)", 1, INT64_MAX,
       &VariantSwitches::intel_target_post_shuffle_row_count, nullptr},
      {"intel.skewedPartitionRowCountThreshold", "intel.skewByRowCount",
       "records a reducer must exceed to be skewed by its records (default 10000000)", 0, INT64_MAX,
       &VariantSwitches::intel_skewed_partition_row_count_threshold, nullptr},
      {"intel.skewedPartitionMaxSplits", "intel.skewByRowCount",
       "most pieces a reducer skewed by its records is split into (default 5)", 1, 2147483647, nullptr,
       &VariantSwitches::intel_skewed_partition_max_splits},
  };
  return *table;
}

VariantSwitches VariantSwitches::AllOff() const {
  VariantSwitches out = *this;
  for (const VariantInfo& v : KnownVariants()) out.*(v.field) = false;
  return out;
}

VariantSwitches VariantSwitches::Only(bool VariantSwitches::*field) const {
  VariantSwitches out = AllOff();
  out.*field = true;
  return out;
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
  for (const VariantParameterInfo& p : KnownVariantParameters()) {
    if (p.name != name) continue;
    const std::optional<int64_t> n = ParseLong(value);
    if (!n || *n < p.minimum || *n > p.maximum)
      return "expected an integer from " + std::to_string(p.minimum) + " to " + std::to_string(p.maximum) +
             ", found \"" + std::string(value) + "\"";
    if (p.long_field) switches->*(p.long_field) = *n;
    if (p.int_field) switches->*(p.int_field) = static_cast<int>(*n);
    return "";
  }
  std::vector<std::string> keys;
  for (const VariantInfo& v : KnownVariants()) keys.push_back(std::string(kVariantKeyPrefix) + v.name);
  for (const VariantParameterInfo& p : KnownVariantParameters())
    keys.push_back(std::string(kVariantKeyPrefix) + p.name);
  std::string known;
  for (const std::string& k : keys) known += (known.empty() ? "" : ", ") + k;
  std::string message = "unknown variant '" + std::string(key) + "'";
  if (auto s = DidYouMean(key, keys)) return message + "; did you mean '" + *s + "'?";
  return message + " (known: " + known + ")";
}

}  // namespace aqesim
