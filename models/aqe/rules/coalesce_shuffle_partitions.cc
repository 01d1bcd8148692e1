#include "models/aqe/rules/coalesce_shuffle_partitions.h"

#include <string>

#include "models/plan/join_selection_helper.h"
#include "models/plan/plan_queries.h"
#include "models/plan/stage_walk.h"
#include "models/shuffle/intel_row_count_targets.h"
#include "models/shuffle/shuffle_partitions_util.h"

namespace aqesim {

namespace {

struct CoalesceGroup {
  std::vector<ExecNode*> reads;
  bool has_exploding_join = false;
};

/// A materialized shuffle whose partition count the user fixed (repartition(n)), and the reads
/// of its group left uncoalesced with it.
struct FixedByUser {
  ExecNode* fixed = nullptr;
  std::vector<ExecNode*> group;
};

bool IsSupported(const ExecNode& n) {
  if (!IsMaterializedShuffle(n) || n.single_partition()) return false;
  switch (n.origin()) {
    case ShuffleOrigin::kEnsureRequirements:
    case ShuffleOrigin::kRepartitionByCol:
    case ShuffleOrigin::kRebalancePartitionsByNone:
    case ShuffleOrigin::kRebalancePartitionsByCol:
      return true;
    default:
      return false;
  }
}

bool IsExplodingJoin(const ExecNode& n) {
  return n.is_join() && (n.join->strategy == JoinStrategy::kBroadcastNestedLoop ||
                         n.join->strategy == JoinStrategy::kCartesianProduct);
}

/// Leaves of a stage subtree are all query stages (shuffle reads or broadcast stages).
bool AllLeavesAreStages(ExecNode* n) {
  if (n->is_exchange()) return true;
  if (n->op == PlanOp::kScan) return false;
  if (n->is_broadcast_join()) return AllLeavesAreStages(&StreamedChild(*n));
  for (auto& c : n->children)
    if (!AllLeavesAreStages(c.get())) return false;
  return !n->children.empty();
}

bool ContainsExplodingJoin(ExecNode* n) {
  bool found = false;
  VisitStageOperators(n, [&](ExecNode* x) { found |= IsExplodingJoin(*x); });
  return found;
}

bool FixedPartitionCount(const ExecNode& n) {
  return IsMaterializedShuffle(n) && !n.single_partition() && n.origin() == ShuffleOrigin::kRepartitionByNum;
}

// collectCoalesceGroups (docs/aqe-behaviour.md §5 step 2). Shuffles the user fixed go to `fixed`.
void CollectGroups(ExecNode* n, bool exploding, std::vector<CoalesceGroup>* out,
                   std::vector<FixedByUser>* fixed) {
  if (n->is_exchange()) {
    if (IsSupported(*n)) {
      out->push_back({{n}, exploding});
    } else if (FixedPartitionCount(*n)) {
      fixed->push_back({n, {n}});
    }
    return;
  }
  switch (n->op) {
    case PlanOp::kFilter:
    case PlanOp::kProject:
    case PlanOp::kAggregate:
    case PlanOp::kWindow:
    case PlanOp::kSort:
      CollectGroups(&n->child(0), exploding, out, fixed);
      return;
    case PlanOp::kUnion:
      for (auto& c : n->children) CollectGroups(c.get(), exploding, out, fixed);
      return;
    case PlanOp::kScan:
      return;
    case PlanOp::kJoin: {
      if (n->is_broadcast_join() || n->join->strategy == JoinStrategy::kCartesianProduct) {
        const bool ex = exploding || IsExplodingJoin(*n);
        if (n->is_broadcast_join()) {
          CollectGroups(&StreamedChild(*n), ex, out, fixed);
        } else {
          for (auto& c : n->children) CollectGroups(c.get(), ex, out, fixed);
        }
        return;
      }
      if (!AllLeavesAreStages(n)) return;
      std::vector<ExecNode*> reads = StageReads(n);
      for (ExecNode* r : reads) {
        if (IsSupported(*r)) continue;
        for (ExecNode* f : reads)
          if (FixedPartitionCount(*f)) fixed->push_back({f, reads});
        return;
      }
      out->push_back({reads, exploding || ContainsExplodingJoin(n)});
      return;
    }
    default:
      return;
  }
}

/// Every read of the group carries its records per reducer (the Intel–Baidu variants are on).
bool RecordsKnown(const CoalesceGroup& g) {
  for (ExecNode* r : g.reads)
    if (!r->shuffle->data->records_by_partition) return false;
  return true;
}

int64_t GroupBytes(const CoalesceGroup& g) {
  int64_t total = 0;
  for (ExecNode* r : g.reads)
    for (int64_t b : r->shuffle->data->reported->BytesByPartitionId()) total += b;
  return total;
}

}  // namespace

bool CoalesceShufflePartitions::Enabled(const SqlConf& conf) const {
  return conf.coalesce_partitions_enabled;
}

RuleOutcome CoalesceShufflePartitions::Apply(const RuleContext& ctx, ExecNode* plan) const {
  return Run(ctx, plan, true);
}

std::vector<NotApplied> CoalesceShufflePartitions::WhatDisabledSkips(const RuleContext& ctx,
                                                                     ExecNode* plan) const {
  return Run(ctx, plan, false).not_applied;
}

RuleOutcome CoalesceShufflePartitions::Run(const RuleContext& ctx, ExecNode* plan, bool assign) const {
  RuleOutcome outcome;
  std::vector<CoalesceGroup> groups;
  std::vector<FixedByUser> fixed;
  CollectGroups(plan, false, &groups, &fixed);
  auto why_not = [&](std::string target, std::string reason, std::string message, nlohmann::json numbers) {
    NotApplied n;
    n.rule = std::string(name());
    n.target = std::move(target);
    n.reason = std::move(reason);
    n.message = std::move(message);
    n.at = ctx.now;
    n.numbers = std::move(numbers);
    outcome.not_applied.push_back(std::move(n));
  };
  if (assign) {
    for (const FixedByUser& f : fixed) {
      const int partitions = f.fixed->shuffle->data->num_reducers;
      std::string others;
      for (ExecNode* r : f.group)
        if (r != f.fixed) others += (others.empty() ? "" : ",") + r->id;
      std::string target = f.fixed->id;
      if (!others.empty()) target += "," + others;
      why_not(std::move(target), "userSpecifiedPartitions",
              f.fixed->id + ": the user fixed " + std::to_string(partitions) + " partitions (repartition(" +
                  std::to_string(partitions) + "), REPARTITION_BY_NUM): AQE never coalesces it" +
                  (others.empty() ? std::string() : " nor what it is joined with (" + others + ")") +
                  ", and spark.sql.shuffle.partitions does not apply",
              {{"origin", "REPARTITION_BY_NUM"}, {"partitions", partitions}});
    }
  }
  if (groups.empty()) return outcome;

  const SqlConf& conf = ctx.conf;
  // Step 1: the minimum partition number.
  int min_num = conf.coalesce_min_partition_num
                    ? *conf.coalesce_min_partition_num
                    : (conf.coalesce_parallelism_first ? ctx.default_parallelism : 1);
  // Step 3: split it across groups in proportion to their bytes.
  std::vector<int64_t> group_bytes;
  for (auto& g : groups) group_bytes.push_back(GroupBytes(g));
  const std::vector<int> group_min = MinNumPartitionsByGroup(min_num, group_bytes);

  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const CoalesceGroup& g = groups[gi];
    // Step 4: per-group advisory size.
    int64_t advisory = conf.advisory_partition_size_bytes;
    if (g.has_exploding_join) {
      advisory = conf.coalesce_min_partition_size_bytes;
    } else if (g.reads.size() == 1 && g.reads[0]->source &&
               g.reads[0]->source->advisory_partition_size_bytes) {
      advisory = *g.reads[0]->source->advisory_partition_size_bytes;
    }
    std::vector<std::optional<std::vector<int64_t>>> stats;
    std::vector<std::optional<std::vector<ShufflePartitionSpec>>> specs;
    int before = 0;
    bool skew_specs = false;
    for (ExecNode* r : g.reads) {
      stats.push_back(r->shuffle->data->reported->BytesByPartitionId());
      specs.push_back(r->shuffle->read_specs);
      skew_specs |= r->shuffle->read_specs.has_value();
      before = r->shuffle->num_read_tasks();
    }
    const CoalesceResult res =
        CoalescePartitions(stats, specs, advisory, group_min[gi], conf.coalesce_min_partition_size_bytes);
    std::string ids;
    for (ExecNode* r : g.reads) ids += (ids.empty() ? "" : ",") + r->id;
    const int64_t target =
        CoalesceTargetSize(group_bytes[gi], group_min[gi], advisory, conf.coalesce_min_partition_size_bytes);
    if (res.status == CoalesceResult::Status::kError) {
      if (!assign) continue;
      Decision d;
      d.rule = std::string(name());
      d.message = ids + ": not coalesced (" + res.error + ")";
      d.at = ctx.now;
      d.fields = {{"exchanges", ids}, {"applied", false}};
      outcome.decisions.push_back(std::move(d));
      continue;
    }
    if (!res.coalesced()) {
      if (!assign || before <= 1) continue;
      // The smallest sum of two adjacent partitions, over the group's shuffles.
      const std::vector<int64_t>& first = g.reads[0]->shuffle->data->reported->BytesByPartitionId();
      std::vector<int64_t> sums(first.size(), 0);
      for (ExecNode* r : g.reads) {
        const std::vector<int64_t>& b = r->shuffle->data->reported->BytesByPartitionId();
        for (size_t p = 0; p < sums.size() && p < b.size(); ++p) sums[p] += b[p];
      }
      int64_t smallest_pair = -1;
      for (size_t p = 0; p + 1 < sums.size(); ++p)
        if (smallest_pair < 0 || sums[p] + sums[p + 1] < smallest_pair) smallest_pair = sums[p] + sums[p + 1];
      const nlohmann::json numbers = {{"partitions", before},
                                      {"targetSizeBytes", target},
                                      {"smallestAdjacentPairBytes", smallest_pair},
                                      {"minNumPartitions", group_min[gi]},
                                      {"advisoryPartitionSizeBytes", advisory}};
      const std::string pair =
          "smallest adjacent pair " + FormatBytes(smallest_pair) + ", target " + FormatBytes(target);
      if (skew_specs) {
        why_not(ids, "skewSplitKept",
                ids + ": skew-split reads keep their " + std::to_string(before) +
                    " tasks: only partitions between the split ones may coalesce, and none fit (" + pair +
                    ")",
                numbers);
      } else {
        why_not(ids, "alreadyAtTarget",
                ids + ": " + Counted(before, "partition") + " already at the target: no two adjacent fit (" +
                    pair + ")",
                numbers);
      }
      continue;
    }
    int after = static_cast<int>(res.specs_per_shuffle[0].size());
    std::vector<std::vector<ShufflePartitionSpec>> coalesced = res.specs_per_shuffle;
    // Variant intel.rowCountTargets (models/shuffle/intel_row_count_targets.h): packed by the
    // record target as well where Spark's partitions pass it; Spark's count kept for the note.
    const int spark_after = after;
    const bool by_records = assign && conf.variants.intel_row_count_targets && RecordsKnown(g);
    if (by_records) {
      std::vector<const std::vector<int64_t>*> records, bytes;
      for (ExecNode* r : g.reads) {
        records.push_back(&*r->shuffle->data->records_by_partition);
        bytes.push_back(&r->shuffle->data->reported->BytesByPartitionId());
      }
      coalesced = PackByBytesAndRecords(coalesced, records, bytes, target,
                                        conf.variants.intel_target_post_shuffle_row_count);
      after = static_cast<int>(coalesced[0].size());
    }
    if (!assign) {
      why_not(ids, "coalescingDisabled",
              ids + ": spark.sql.adaptive.coalescePartitions.enabled=false: would coalesce " +
                  std::to_string(before) + " → " + Counted(after, "partition") + " (target " +
                  FormatBytes(target) + ")",
              {{"partitionsBefore", before}, {"partitionsAfter", after}, {"targetSizeBytes", target}});
      continue;
    }
    for (size_t i = 0; i < g.reads.size(); ++i) g.reads[i]->shuffle->read_specs = coalesced[i];
    Decision d;
    d.rule = std::string(name());
    const int64_t record_target = conf.variants.intel_target_post_shuffle_row_count;
    d.message = ids + ": " + std::to_string(before) + " → " + Counted(after, "partition") + " (target " +
                FormatBytes(target) +
                (by_records ? ", at most " + std::to_string(record_target) + " records" : "") + ")";
    if (after != spark_after)
      d.message += " — variant intel.rowCountTargets changed this decision (Spark: " +
                   Counted(spark_after, "partition") + ")";
    d.at = ctx.now;
    nlohmann::json ex = nlohmann::json::array();
    for (ExecNode* r : g.reads) ex.push_back(r->id);
    d.fields = {{"exchanges", ex},
                {"partitionsBefore", before},
                {"partitionsAfter", after},
                {"targetSizeBytes", target},
                {"minNumPartitions", group_min[gi]},
                {"advisoryPartitionSizeBytes", advisory}};
    if (by_records) d.fields["targetRecords"] = record_target;
    if (after != spark_after) {
      d.fields["variants"] = nlohmann::json::array({"intel.rowCountTargets"});
      d.fields["sparkPartitionsAfter"] = spark_after;
    }
    outcome.decisions.push_back(std::move(d));
    outcome.changed = true;
  }
  return outcome;
}

}  // namespace aqesim
