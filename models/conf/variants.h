// Named what-if variants: designs published around Spark's AQE (ByteDance's LAS skew-join
// enhancements, Intel and Baidu's adaptive execution for Spark 2.x) that a scenario can switch
// on to see what they would change on its own shuffles. Every variant is off by default, so a
// run without one is Apache Spark's behaviour.
//
// A variant is a configuration key under the aqesim namespace, `aqesim.variant.<group>.<name>`
// (`--conf aqesim.variant.las.exactReducerTotals=true`, or the scenario's `conf`), with a
// boolean value. A few variants have numeric parameters, also under the namespace
// (`aqesim.variant.intel.targetPostShuffleRowCount=20000000`: KnownVariantParameters); they
// change nothing while their variant is off. An unknown name under `aqesim.variant.` is an
// error with "did you mean".
// Each variant's behaviour lives in its own file beside the Spark code it modifies (the
// table in variants.cc names the file); decisions it changes say so in `explain`.
#ifndef AQESIM_MODELS_CONF_VARIANTS_H_
#define AQESIM_MODELS_CONF_VARIANTS_H_

#include <string>
#include <string_view>
#include <vector>

namespace aqesim {

/// The prefix of every variant key.
inline constexpr std::string_view kVariantKeyPrefix = "aqesim.variant.";

/// Which variants are on. Field comments give the key (after kVariantKeyPrefix).
struct VariantSwitches {
  /// las.exactReducerTotals: the driver adds every map task's exact block sizes to per-reducer
  /// totals before compressing its MapStatus; OptimizeSkewedJoin detects skew (medians,
  /// thresholds, targets) on those totals (models/shuffle/las_exact_reducer_totals.h).
  bool las_exact_reducer_totals = false;
  /// las.splitByExactTotals: a skewed reducer is split by map ranges over sizes rebuilt from
  /// its exact total (blocks >= accurateBlockThreshold as reported, the rest of the total
  /// spread evenly over the other non-empty blocks) (models/shuffle/las_split_by_exact_totals.h).
  bool las_split_by_exact_totals = false;
  /// las.skewJoinAggWindowSides: OptimizeSkewedJoin also takes a sort-merge or shuffled hash join
  /// one of whose sides is an aggregate or window directly over its shuffle (Spark matches only
  /// a sort over a shuffle stage): the other side's skewed partitions are split and the
  /// aggregate or window side's partition is read whole by every piece
  /// (models/aqe/rules/las_skew_join_agg_window_sides.h).
  bool las_skew_join_agg_window_sides = false;
  /// las.multipleSkewedJoinsInStage: consecutive sort-merge / shuffled hash joins of one stage
  /// (a key joined to several tables) are split together: a skewed reducer of one input is split
  /// and every other input's same reducer read whole by each piece, so no join above loses its
  /// partitioning (models/aqe/rules/las_multiple_skewed_joins_in_stage.h).
  bool las_multiple_skewed_joins_in_stage = false;
  /// las.skewJoinsUnderUnion: joins under a Union are checked for extra shuffles per union
  /// branch, not over the whole plan: a branch whose split would need a shuffle is left whole
  /// and the other branches keep theirs (models/aqe/rules/las_skew_joins_under_union.h).
  bool las_skew_joins_under_union = false;
  /// bytedance.oneToManyBucketJoin: a join of two bucketed tables of k and m·k buckets runs in
  /// m·k tasks without a shuffle, the k-bucket side read through a bucket union
  /// (models/engine/bytedance_one_to_many_bucket_join.h).
  bool bytedance_one_to_many_bucket_join = false;
  /// intel.rowCountTargets: CoalesceShufflePartitions keeps every coalesced partition within
  /// intel_target_post_shuffle_row_count records as well as Spark's target bytes (Intel and
  /// Baidu's adaptive execution for Spark 2.x; models/shuffle/intel_row_count_targets.h).
  bool intel_row_count_targets = false;
  /// intel.skewByRowCount: OptimizeSkewedJoin also takes a reducer for skewed when its records
  /// exceed skewedPartitionFactor x the median records and intel_skewed_partition_row_count_threshold,
  /// and splits it as that design did (models/shuffle/intel_row_count_skew.h).
  bool intel_skew_by_row_count = false;

  // Parameters (used only by their variant; names after kVariantKeyPrefix, defaults those of
  // the Intel–Baidu project's spark.sql.adaptive.* keys of the same names).
  /// intel.targetPostShuffleRowCount: records one coalesced partition may hold (> 0).
  int64_t intel_target_post_shuffle_row_count = 20'000'000;
  /// intel.skewedPartitionRowCountThreshold: records a reducer must exceed to be row-skewed (>= 0).
  int64_t intel_skewed_partition_row_count_threshold = 10'000'000;
  /// intel.skewedPartitionMaxSplits: most pieces a row-skewed reducer is split into (>= 1).
  int intel_skewed_partition_max_splits = 5;

  bool operator==(const VariantSwitches&) const = default;
  bool any() const {
    return las_exact_reducer_totals || las_split_by_exact_totals || las_skew_join_agg_window_sides ||
           las_multiple_skewed_joins_in_stage || las_skew_joins_under_union ||
           bytedance_one_to_many_bucket_join || intel_row_count_targets || intel_skew_by_row_count;
  }
  /// True when a variant that needs the shuffles' records per reducer is on.
  bool needs_records() const { return intel_row_count_targets || intel_skew_by_row_count; }
  /// Names of the variants that are on ("las.exactReducerTotals", ...), in table order.
  std::vector<std::string> EnabledNames() const;
  /// Every variant off, the parameters kept.
  VariantSwitches AllOff() const;
  /// Only `field` on (a VariantInfo::field), the parameters kept.
  VariantSwitches Only(bool VariantSwitches::*field) const;
};

/// One row of the variant table.
struct VariantInfo {
  std::string name;         // "las.exactReducerTotals" (the key is kVariantKeyPrefix + name)
  std::string origin;       // "ByteDance LAS (2022)"
  std::string modifies;     // the Spark behaviour it changes
  std::string description;  // one sentence
  bool VariantSwitches::*field = nullptr;
};

/// Every variant, in a fixed order.
const std::vector<VariantInfo>& KnownVariants();

/// One numeric parameter of a variant.
struct VariantParameterInfo {
  std::string name;         // "intel.targetPostShuffleRowCount" (the key is kVariantKeyPrefix + name)
  std::string variant;      // the variant using it, "intel.rowCountTargets"
  std::string description;  // one sentence, with the unit
  int64_t minimum = 0;      // the smallest value accepted
  int64_t maximum = 0;      // the largest
  int64_t VariantSwitches::*long_field = nullptr;  // one of the two is set
  int VariantSwitches::*int_field = nullptr;
};

/// Every variant parameter, in a fixed order.
const std::vector<VariantParameterInfo>& KnownVariantParameters();

/// True when `key` is under kVariantKeyPrefix.
bool IsVariantKey(std::string_view key);

/// Applies `key` = `value` (a boolean; a parameter: an integer in its range). Returns "" on
/// success, else the message of the error ("unknown variant ...; did you mean ...", "expected a
/// boolean ...", "expected an integer from 1 to 2147483647, found ...").
std::string ApplyVariantKey(std::string_view key, std::string_view value, VariantSwitches* switches);

}  // namespace aqesim

#endif  // AQESIM_MODELS_CONF_VARIANTS_H_
