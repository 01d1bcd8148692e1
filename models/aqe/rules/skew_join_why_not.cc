#include "models/aqe/rules/skew_join_why_not.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "models/aqe/decision.h"
#include "models/plan/bucketed_scan.h"
#include "models/plan/plan_queries.h"
#include "models/shuffle/map_status.h"

namespace aqesim {

namespace {

constexpr const char* kRule = "OptimizeSkewedJoin";

int64_t SkewThreshold(int64_t median, const SkewJoinParams& p) {
  const double x = static_cast<double>(median) * p.skewed_partition_factor;
  const int64_t scaled =
      x >= 9.2e18 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(std::max(0.0, x));
  return std::max(p.skewed_partition_threshold_bytes, scaled);
}

std::string Factor(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", f);
  return buf;
}

/// One side's sizes as the driver sees them and as an exact MapStatus would report them.
struct SideView {
  std::string name;  // "left" / "right"
  const ShuffleData* data = nullptr;
  std::vector<int64_t> reported, exact;
  int64_t median = 1, threshold = 0, exact_median = 1, exact_threshold = 0;
  int max_index = 0, exact_max_index = 0;
  bool hcms = false;

  int64_t max() const { return reported.empty() ? 0 : reported[max_index]; }
  int64_t exact_max() const { return exact.empty() ? 0 : exact[exact_max_index]; }
  bool skewed() const { return max() > threshold; }
  bool truly_skewed() const { return exact_max() > exact_threshold; }
};

int ArgMax(const std::vector<int64_t>& v) {
  return v.empty() ? 0 : static_cast<int>(std::max_element(v.begin(), v.end()) - v.begin());
}

SideView ViewOf(std::string name, const ShuffleData& d, const SkewJoinParams& p) {
  SideView s;
  s.name = std::move(name);
  s.data = &d;
  s.reported = d.reported->BytesByPartitionId();
  for (int64_t b : d.actual.PartitionBytes()) s.exact.push_back(ReportedBlockBytes(b, d.reported_size_ratio));
  s.median = MedianBytes(s.reported);
  s.threshold = SkewThreshold(s.median, p);
  s.exact_median = MedianBytes(s.exact);
  s.exact_threshold = SkewThreshold(s.exact_median, p);
  s.max_index = ArgMax(s.reported);
  s.exact_max_index = ArgMax(s.exact);
  s.hcms = d.reported->kind() == MapStatusKind::kHighlyCompressed;
  return s;
}

NotApplied Entry(const RuleContext& ctx, std::string target, std::string reason, std::string message,
                 nlohmann::json numbers) {
  NotApplied n;
  n.rule = kRule;
  n.target = std::move(target);
  n.reason = std::move(reason);
  n.message = std::move(message);
  n.at = ctx.now;
  n.numbers = std::move(numbers);
  return n;
}

std::string SidesNobodySplits(JoinType type, bool left_wanted, bool right_wanted) {
  const bool l = CanSplitLeftSide(type), r = CanSplitRightSide(type);
  if (!l && !r) return "either side";
  if (left_wanted && !l && right_wanted && !r) return "either side";
  return left_wanted && !l ? "the left side" : "the right side";
}

/// The HCMS wording: "HighlyCompressedMapStatus (3000 partitions > ... 2000) reports ...".
std::string HcmsWhy(const RuleContext& ctx, const SideView& s) {
  return "HighlyCompressedMapStatus (" + std::to_string(s.reported.size()) +
         " partitions > spark.shuffle.minNumPartitionsToHighlyCompress " +
         std::to_string(ctx.conf.min_num_partitions_to_highly_compress) +
         ") reports blocks under spark.shuffle.accurateBlockThreshold " +
         FormatBytes(ctx.conf.accurate_block_threshold_bytes) + " as each map's average";
}

const ExecNode* ShuffleBelow(const ExecNode* n) {
  while (n && (n->op == PlanOp::kFilter || n->op == PlanOp::kProject || n->op == PlanOp::kSort) &&
         !n->children.empty())
    n = n->children[0].get();
  return n && n->is_exchange() ? n : nullptr;
}

void Visit(ExecNode* n, const std::function<void(ExecNode*)>& f) {
  f(n);
  for (auto& c : n->children) Visit(c.get(), f);
}

/// "9.8×": `bytes` over `median`.
std::string Times(int64_t bytes, int64_t median) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f×",
                static_cast<double>(bytes) / static_cast<double>(std::max<int64_t>(median, 1)));
  return buf;
}

/// The sort keys range partition `p` holds, integer keys: (bounds[p-1], bounds[p]], the first
/// range from the input's least key, the last up to its greatest: "sort key 0 only", "sort keys
/// 24 to 50", "sort keys up to 7" (least key unknown), "sort keys from 9".
struct RangeEnds {
  std::optional<int64_t> lo, hi;
  bool one_key() const { return lo && hi && *lo == *hi; }
};

RangeEnds EndsOf(const RangeSampling& r, int p) {
  const std::vector<int64_t>& bounds = r.bounds;
  const bool first = p == 0, last = p >= static_cast<int>(bounds.size());
  return {first ? r.min_key : std::optional<int64_t>(bounds[static_cast<size_t>(p) - 1] + 1),
          last ? r.max_key : std::optional<int64_t>(bounds[static_cast<size_t>(p)])};
}

std::string RangeKeys(const RangeSampling& r, int p) {
  const bool first = p == 0, last = p >= static_cast<int>(r.bounds.size());
  const auto [lo, hi] = EndsOf(r, p);
  const std::string where = first && last ? "the only range"
                            : first       ? "the first range"
                            : last        ? "the last range"
                                          : "";
  std::string keys;
  if (EndsOf(r, p).one_key())
    keys = "sort key " + std::to_string(*lo) + " only";
  else if (lo && hi)
    keys = "sort keys " + std::to_string(*lo) + " to " + std::to_string(*hi);
  else if (hi)
    keys = "sort keys up to " + std::to_string(*hi);
  else if (lo)
    keys = "sort keys from " + std::to_string(*lo);
  else
    keys = "every sort key";
  return where.empty() ? keys : where + ", " + keys;
}

/// rangePartitioned: a sort reading (through filters and projects) a materialized range
/// exchange whose largest partition is above the skew threshold. RangePartitioner gives every
/// key one partition and AQE splits no sort's partitions (only coalesces them).
std::optional<NotApplied> SkewedRangeInput(const RuleContext& ctx, const ExecNode& sort,
                                           const SkewJoinParams& params) {
  if (sort.children.empty()) return std::nullopt;
  const ExecNode* ex = ShuffleBelow(sort.children[0].get());
  if (!ex || !IsMaterializedShuffle(*ex) || !ex->shuffle->data->range) return std::nullopt;
  const SideView s = ViewOf("", *ex->shuffle->data, params);
  if (!s.skewed()) return std::nullopt;
  const RangeSampling& range = *ex->shuffle->data->range;
  const int p = s.max_index;
  return Entry(ctx, ex->id, "rangePartitioned",
               ex->id + " (range partitioning for sort " + sort.id + "): partition " + std::to_string(p) +
                   " (" + RangeKeys(range, p) + ") is " + FormatBytes(s.max()) + ", " +
                   Times(s.max(), s.median) + " the median " + FormatBytes(s.median) +
                   " (driver-seen MapStatus sizes; skew threshold " + FormatBytes(s.threshold) + ")" +
                   ": a range partitioner puts all rows of a key in one partition, and AQE never splits a "
                   "sort's partitions; salt the sort key or sort the hot key's rows apart",
               {{"sort", sort.id},
                {"partition", p},
                {"bytes", s.max()},
                {"medianBytes", s.median},
                {"skewThresholdBytes", s.threshold},
                {"oneKey", EndsOf(range, p).one_key()}});
}

/// bucketedScan: a join or aggregate reading (through filters and projects) a bucketed scan —
/// no shuffle, so no partition AQE could split — whose largest task is above the skew threshold.
std::optional<NotApplied> HotBucket(const RuleContext& ctx, const ExecNode& op, const ExecNode& input,
                                    const SkewJoinParams& params) {
  const ExecNode* scan = BucketedScanOperation(input);
  if (!scan || !scan->bucketed_read_tasks || !scan->source || !scan->source->bucketing) return std::nullopt;
  const int tasks = *scan->bucketed_read_tasks;
  if (tasks < 2) return std::nullopt;
  std::vector<int64_t> bytes;
  for (int t = 0; t < tasks; ++t)
    bytes.push_back(BucketedTaskBytes(*scan->source->bucketing, scan->source->scan_bytes, tasks, t));
  const int64_t median = MedianBytes(bytes);
  const int64_t threshold = SkewThreshold(median, params);
  const int p = ArgMax(bytes);
  if (bytes[p] <= threshold) return std::nullopt;
  const std::string what = op.is_join() ? "join " + op.id : "aggregate " + op.id;
  const std::string fix =
      op.is_join()
          ? "one key's rows stay in one partition however the table is bucketed or shuffled: salt the key "
            "or split it out, or read the table unbucketed (spark.sql.sources.bucketing.enabled=false): "
            "then the join shuffles it into one hot partition that AQE can split by map ranges"
          : "one key's rows stay in one partition however the table is bucketed or shuffled: salt the key, "
            "pre-aggregate, or split the hot key out";
  return Entry(
      ctx, scan->id, "bucketedScan",
      scan->id + " (bucketed scan read by " + what + ", " + std::to_string(tasks) + " tasks): task " +
          std::to_string(p) + " reads " + FormatBytes(bytes[p]) + ", " + Times(bytes[p], median) +
          " the median " + FormatBytes(median) + " (skew threshold " + FormatBytes(threshold) +
          "): a bucketed side is read without a shuffle, and AQE splits only shuffle partitions; " + fix,
      {{"reader", op.id},
       {"task", p},
       {"bytes", bytes[p]},
       {"medianBytes", median},
       {"skewThresholdBytes", threshold},
       {"tasks", tasks}});
}

}  // namespace

SkewJoinParams SkewParamsOf(const SqlConf& conf) {
  SkewJoinParams p;
  p.advisory_partition_size_bytes = conf.advisory_partition_size_bytes;
  p.skewed_partition_factor = conf.skewed_partition_factor;
  p.skewed_partition_threshold_bytes = conf.skewed_partition_threshold_bytes;
  return p;
}

NotApplied SkewJoinWhyNot(const RuleContext& ctx, const ExecNode& join, const SkewJoinSplitResult& result,
                          const SkewJoinParams& params) {
  const JoinType type = join.source->join_type;
  const std::string type_name(JoinTypeName(type));
  const std::string& j = join.id;
  const SideView l = ViewOf("left", *join.child(0).shuffle->data, params);
  const SideView r = ViewOf("right", *join.child(1).shuffle->data, params);
  if (l.reported.size() != r.reported.size()) {
    return Entry(ctx, j, "partitionCountsDiffer",
                 j + ": not split: left has " + std::to_string(l.reported.size()) +
                     " partitions, right has " + std::to_string(r.reported.size()),
                 {{"leftPartitions", l.reported.size()}, {"rightPartitions", r.reported.size()}});
  }
  const bool can[2] = {CanSplitLeftSide(type), CanSplitRightSide(type)};
  const SideView* sides[2] = {&l, &r};
  // 2. Skew the driver sees.
  if (l.skewed() || r.skewed()) {
    const bool splittable_skewed = (l.skewed() && can[0]) || (r.skewed() && can[1]);
    const SideView& s = l.skewed() && (!splittable_skewed || can[0]) ? l : r;
    nlohmann::json numbers = {{"side", s.name},
                              {"partition", s.max_index},
                              {"bytes", s.max()},
                              {"medianBytes", s.median},
                              {"skewThresholdBytes", s.threshold}};
    const std::string above = s.name + " partition " + std::to_string(s.max_index) + " (" +
                              FormatBytes(s.max()) + ") is above the skew threshold " +
                              FormatBytes(s.threshold);
    if (!splittable_skewed) {
      numbers["joinType"] = type_name;
      numbers["exchange"] = join.child(&s == &l ? 0 : 1).id;
      return Entry(ctx, j, "joinTypeCannotSplit",
                   j + ": " + type_name + " join cannot split " +
                       SidesNobodySplits(type, l.skewed(), r.skewed()) + ": " + above,
                   std::move(numbers));
    }
    const int64_t target =
        s.name == "left" ? result.meta.left_target_size_bytes : result.meta.right_target_size_bytes;
    numbers["targetSizeBytes"] = target;
    numbers["mapTasks"] = s.data->reported->num_maps();
    return Entry(ctx, j, "singleMapPartition",
                 j + ": " + above +
                     " but its map outputs do not split into more than one range of the target " +
                     FormatBytes(target) + " (" + Counted(s.data->reported->num_maps(), "map task") + ")",
                 std::move(numbers));
  }
  // 3. Skew only the true sizes show.
  for (int i = 0; i < 2; ++i) {
    const SideView& s = *sides[i];
    if (!s.truly_skewed()) continue;
    const int p = s.exact_max_index;
    nlohmann::json numbers = {{"side", s.name},
                              {"partition", p},
                              {"trueBytes", s.exact_max()},
                              {"reportedBytes", s.reported[p]},
                              {"skewThresholdBytes", s.exact_threshold},
                              {"mapStatus", std::string(s.data->reported->StatusKind())}};
    const std::string sizes = s.name + " partition " + std::to_string(p) + " (true " +
                              FormatBytes(s.exact_max()) + ", reported " + FormatBytes(s.reported[p]) + ")";
    if (!can[i]) {
      numbers["joinType"] = type_name;
      numbers["exchange"] = join.child(static_cast<size_t>(i)).id;
      return Entry(ctx, j, "joinTypeCannotSplit",
                   j + ": " + type_name + " join cannot split " + SidesNobodySplits(type, i == 0, i == 1) +
                       ": " + sizes + " is above the skew threshold " + FormatBytes(s.exact_threshold),
                   std::move(numbers));
    }
    if (!s.hcms) continue;
    numbers["numPartitions"] = s.reported.size();
    numbers["minNumPartitionsToHighlyCompress"] = ctx.conf.min_num_partitions_to_highly_compress;
    numbers["accurateBlockThresholdBytes"] = ctx.conf.accurate_block_threshold_bytes;
    return Entry(ctx, j, "hiddenByMapStatus",
                 j + ": " + s.name + " partition " + std::to_string(p) + " is skewed (true " +
                     FormatBytes(s.exact_max()) + " > skew threshold " + FormatBytes(s.exact_threshold) +
                     ") but the driver sees " + FormatBytes(s.reported[p]) + ": " + HcmsWhy(ctx, s),
                 std::move(numbers));
  }
  // 4. Not skewed.
  const SideView& s = r.max() > l.max() ? r : l;
  const int64_t by_factor = SkewThreshold(s.median, {0, params.skewed_partition_factor, 0});
  nlohmann::json numbers = {{"side", s.name},
                            {"partition", s.max_index},
                            {"bytes", s.max()},
                            {"medianBytes", s.median},
                            {"skewedPartitionFactor", params.skewed_partition_factor},
                            {"skewedPartitionThresholdBytes", params.skewed_partition_threshold_bytes}};
  const std::string largest = j + ": not skewed: largest partition " + s.name + " " +
                              std::to_string(s.max_index) + " is " + FormatBytes(s.max());
  const std::string factor_times = "skewedPartitionFactor " + Factor(params.skewed_partition_factor) +
                                   " × median " + FormatBytes(s.median);
  const char* reason = s.max() <= by_factor ? "belowSkewFactor" : "belowSkewThreshold";
  // Spark's cut is max(threshold, factor × median): name the bound that sets it.
  if (params.skewed_partition_threshold_bytes > by_factor) {
    const std::string threshold = FormatBytes(params.skewed_partition_threshold_bytes);
    return Entry(ctx, j, reason,
                 largest + " <= skew threshold " + threshold + " (max of skewedPartitionThresholdInBytes " +
                     threshold + " and " + factor_times + ")",
                 std::move(numbers));
  }
  return Entry(ctx, j, reason, largest + " <= " + factor_times + " = " + FormatBytes(by_factor),
               std::move(numbers));
}

std::vector<NotApplied> SkewedAggregateInputs(const RuleContext& ctx, ExecNode* plan,
                                              const SkewJoinParams& params) {
  std::vector<NotApplied> out;
  Visit(plan, [&](ExecNode* n) {
    if (n->op == PlanOp::kSort) {
      if (std::optional<NotApplied> e = SkewedRangeInput(ctx, *n, params)) out.push_back(std::move(*e));
      return;
    }
    if ((n->op == PlanOp::kAggregate || n->is_join()) && !n->children.empty()) {
      for (auto& c : n->children)
        if (std::optional<NotApplied> e = HotBucket(ctx, *n, *c, params)) out.push_back(std::move(*e));
    }
    if ((n->op != PlanOp::kAggregate && n->op != PlanOp::kWindow) || n->children.empty()) return;
    const std::string op(PlanOpName(n->op));
    const ExecNode* ex = ShuffleBelow(n->children[0].get());
    if (!ex || !IsMaterializedShuffle(*ex) || ex->shuffle->data->range) return;
    const SideView s = ViewOf("", *ex->shuffle->data, params);
    const bool seen = s.skewed();
    if (!seen && !s.truly_skewed()) return;
    const int p = seen ? s.max_index : s.exact_max_index;
    const int64_t bytes = seen ? s.max() : s.exact_max();
    const int64_t median = seen ? s.median : s.exact_median;
    const int64_t threshold = seen ? s.threshold : s.exact_threshold;
    char times[32];
    std::snprintf(times, sizeof times, "%.1f", static_cast<double>(bytes) / static_cast<double>(median));
    std::string sizes = FormatBytes(bytes);
    if (!seen) sizes += " (the driver sees " + FormatBytes(s.reported[p]) + ")";
    out.push_back(Entry(ctx, ex->id, "notAJoin",
                        ex->id + " (read by " + op + " " + n->id + "): partition " + std::to_string(p) +
                            " is " + sizes + ", " + times + "× the median " + FormatBytes(median) + " (" +
                            (seen ? "driver-seen MapStatus sizes" : "true sizes") + "; skew threshold " +
                            FormatBytes(threshold) + "): AQE never splits " +
                            (n->op == PlanOp::kWindow ? "a window's" : "an aggregate's") +
                            " partitions; salt the key or pre-aggregate",
                        {{op, n->id},
                         {"partition", p},
                         {"bytes", bytes},
                         {"reportedBytes", s.reported[p]},
                         {"medianBytes", median},
                         {"skewThresholdBytes", threshold}}));
  });
  return out;
}

}  // namespace aqesim
