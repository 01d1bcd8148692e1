#include "models/aqe/rules/las_skew_join_view.h"

#include <memory>

#include "models/shuffle/intel_row_count_skew.h"
#include "models/shuffle/las_split_by_exact_totals.h"

namespace aqesim {
namespace {

bool SkewVariantsOn(const VariantSwitches& v) {
  return v.las_exact_reducer_totals || v.las_split_by_exact_totals || v.intel_skew_by_row_count;
}

/// intel.skewByRowCount's split of the reducers Spark leaves whole (intel_row_count_skew.h),
/// over the side's reported sizes; an empty function when the variant is off or no records.
ExtraSkewSplitFn RowCountSplit(const ShuffleData& d, const std::vector<int64_t>& bytes,
                               const SkewJoinParams& params, const VariantSwitches& v) {
  if (!v.intel_skew_by_row_count || !d.records_by_partition) return {};
  RowCountSkewParams p;
  p.skewed_partition_factor = params.skewed_partition_factor;
  p.row_count_threshold = v.intel_skewed_partition_row_count_threshold;
  p.max_splits = v.intel_skewed_partition_max_splits;
  auto skew = std::make_shared<const RowCountSkew>(*d.records_by_partition, bytes, p);
  const ReportedShuffleSizes* rep = d.reported.get();
  return [skew, rep](int reducer) { return skew->Split(reducer, rep->MapSizesForReducer(reducer)); };
}

SkewJoinSplitResult Decide(JoinType type, const ShuffleData& l, const ShuffleData& r,
                           const SkewJoinParams& params, const VariantSwitches& v, int64_t threshold) {
  auto bytes = [&](const ShuffleData& d) -> const std::vector<int64_t>& { return SkewDecisionBytes(d, v); };
  auto map_sizes = [&](const ShuffleData& d) { return SkewDecisionMapSizes(d, v, threshold); };
  return SplitSkewedJoin(type, bytes(l), bytes(r), map_sizes(l), map_sizes(r), params,
                         RowCountSplit(l, bytes(l), params, v), RowCountSplit(r, bytes(r), params, v));
}

bool SameOutcome(const SkewJoinSplitResult& a, const SkewJoinSplitResult& b) {
  if (a.specs.has_value() != b.specs.has_value()) return false;
  if (!a.specs) return true;
  return a.specs->left == b.specs->left && a.specs->right == b.specs->right;
}

}  // namespace

const std::vector<int64_t>& SkewDecisionBytes(const ShuffleData& d, const VariantSwitches& v) {
  if (v.las_exact_reducer_totals && d.exact_totals) return d.exact_totals->bytes_by_partition_id;
  return d.reported->BytesByPartitionId();
}

MapSizesForReducerFn SkewDecisionMapSizes(const ShuffleData& d, const VariantSwitches& v,
                                          int64_t accurate_block_threshold_bytes) {
  const ReportedShuffleSizes* rep = d.reported.get();
  if (v.las_split_by_exact_totals && d.exact_totals) {
    const std::vector<int64_t>* totals = &d.exact_totals->bytes_by_partition_id;
    const int64_t threshold = accurate_block_threshold_bytes;
    return [rep, totals, threshold](int reducer) {
      return MapSizesFromExactTotal(rep->MapSizesForReducer(reducer), (*totals)[static_cast<size_t>(reducer)],
                                    threshold);
    };
  }
  return [rep](int reducer) { return rep->MapSizesForReducer(reducer); };
}

VariantSkewJoinDecision SplitSkewedJoinWithVariants(JoinType type, const ShuffleData& l, const ShuffleData& r,
                                                    const SkewJoinParams& params,
                                                    const VariantSwitches& variants, int64_t threshold) {
  VariantSkewJoinDecision out;
  out.result = Decide(type, l, r, params, variants, threshold);
  if (!SkewVariantsOn(variants)) return out;
  SkewJoinSplitResult spark = Decide(type, l, r, params, variants.AllOff(), threshold);
  if (SameOutcome(spark, out.result)) return out;
  struct Named {
    const char* name;
    bool VariantSwitches::*field;
  };
  const Named skew_variants[] = {{"las.exactReducerTotals", &VariantSwitches::las_exact_reducer_totals},
                                 {"las.splitByExactTotals", &VariantSwitches::las_split_by_exact_totals},
                                 {"intel.skewByRowCount", &VariantSwitches::intel_skew_by_row_count}};
  for (const Named& n : skew_variants) {
    if (!(variants.*(n.field))) continue;
    VariantSwitches without = variants;
    without.*(n.field) = false;
    if (!SameOutcome(Decide(type, l, r, params, without, threshold), out.result))
      out.changed_by.push_back(n.name);
  }
  if (out.changed_by.empty())
    for (const Named& n : skew_variants)
      if (variants.*(n.field)) out.changed_by.push_back(n.name);
  out.spark = std::move(spark);
  return out;
}

std::string VariantChangeNote(const VariantSkewJoinDecision& d) {
  if (d.changed_by.empty() || !d.spark) return "";
  std::string names;
  for (const std::string& n : d.changed_by) names += (names.empty() ? "" : ", ") + n;
  const std::string spark =
      d.spark->specs ? std::to_string(d.spark->specs->left.size()) + " tasks" : d.spark->reason;
  return " — variant " + names + " changed this decision (Spark: " + spark + ")";
}

}  // namespace aqesim
