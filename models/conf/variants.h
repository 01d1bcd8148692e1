// Named what-if variants: designs published around Spark's AQE (ByteDance's LAS skew-join
// enhancements, Intel and Baidu's adaptive execution for Spark 2.x) that a scenario can switch
// on to see what they would change on its own shuffles. Every variant is off by default, so a
// run without one is Apache Spark's behaviour.
//
// A variant is a configuration key under the aqesim namespace, `aqesim.variant.<group>.<name>`
// (`--conf aqesim.variant.las.exactReducerTotals=true`, or the scenario's `conf`), with a
// boolean value. An unknown name under `aqesim.variant.` is an error with "did you mean".
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
  /// bytedance.oneToManyBucketJoin: a join of two bucketed tables of k and m·k buckets runs in
  /// m·k tasks without a shuffle, the k-bucket side read through a bucket union
  /// (models/engine/bytedance_one_to_many_bucket_join.h).
  bool bytedance_one_to_many_bucket_join = false;

  bool operator==(const VariantSwitches&) const = default;
  bool any() const {
    return las_exact_reducer_totals || las_split_by_exact_totals || bytedance_one_to_many_bucket_join;
  }
  /// Names of the variants that are on ("las.exactReducerTotals", ...), in table order.
  std::vector<std::string> EnabledNames() const;
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

/// True when `key` is under kVariantKeyPrefix.
bool IsVariantKey(std::string_view key);

/// Applies `key` = `value` (a boolean). Returns "" on success, else the message of the error
/// ("unknown variant ...; did you mean ...", "expected a boolean ...").
std::string ApplyVariantKey(std::string_view key, std::string_view value, VariantSwitches* switches);

}  // namespace aqesim

#endif  // AQESIM_MODELS_CONF_VARIANTS_H_
