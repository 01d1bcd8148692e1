#include "models/aqe/rules/coalesce_shuffle_partitions.h"

#include <string>

#include "models/plan/join_selection_helper.h"
#include "models/plan/plan_queries.h"
#include "models/plan/stage_walk.h"
#include "models/shuffle/shuffle_partitions_util.h"

namespace aqesim {

namespace {

struct CoalesceGroup {
  std::vector<ExecNode*> reads;
  bool has_exploding_join = false;
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

// collectCoalesceGroups (docs/aqe-behaviour.md §5 step 2).
void CollectGroups(ExecNode* n, bool exploding, std::vector<CoalesceGroup>* out) {
  if (n->is_exchange()) {
    if (IsSupported(*n)) out->push_back({{n}, exploding});
    return;
  }
  switch (n->op) {
    case PlanOp::kFilter:
    case PlanOp::kProject:
    case PlanOp::kAggregate:
    case PlanOp::kSort:
      CollectGroups(&n->child(0), exploding, out);
      return;
    case PlanOp::kUnion:
      for (auto& c : n->children) CollectGroups(c.get(), exploding, out);
      return;
    case PlanOp::kScan:
      return;
    case PlanOp::kJoin: {
      if (n->is_broadcast_join() || n->join->strategy == JoinStrategy::kCartesianProduct) {
        const bool ex = exploding || IsExplodingJoin(*n);
        if (n->is_broadcast_join()) {
          CollectGroups(&StreamedChild(*n), ex, out);
        } else {
          for (auto& c : n->children) CollectGroups(c.get(), ex, out);
        }
        return;
      }
      if (!AllLeavesAreStages(n)) return;
      std::vector<ExecNode*> reads = StageReads(n);
      for (ExecNode* r : reads)
        if (!IsSupported(*r)) return;
      out->push_back({reads, exploding || ContainsExplodingJoin(n)});
      return;
    }
    default:
      return;
  }
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
  RuleOutcome outcome;
  std::vector<CoalesceGroup> groups;
  CollectGroups(plan, false, &groups);
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
    for (ExecNode* r : g.reads) {
      stats.push_back(r->shuffle->data->reported->BytesByPartitionId());
      specs.push_back(r->shuffle->read_specs);
      before = r->shuffle->num_read_tasks();
    }
    const CoalesceResult res =
        CoalescePartitions(stats, specs, advisory, group_min[gi], conf.coalesce_min_partition_size_bytes);
    std::string ids;
    for (ExecNode* r : g.reads) ids += (ids.empty() ? "" : ",") + r->id;
    if (res.status == CoalesceResult::Status::kError) {
      Decision d;
      d.rule = std::string(name());
      d.message = ids + ": not coalesced (" + res.error + ")";
      d.at = ctx.now;
      d.fields = {{"exchanges", ids}, {"applied", false}};
      outcome.decisions.push_back(std::move(d));
      continue;
    }
    if (!res.coalesced()) continue;
    for (size_t i = 0; i < g.reads.size(); ++i) g.reads[i]->shuffle->read_specs = res.specs_per_shuffle[i];
    const int after = static_cast<int>(res.specs_per_shuffle[0].size());
    const int64_t target =
        CoalesceTargetSize(group_bytes[gi], group_min[gi], advisory, conf.coalesce_min_partition_size_bytes);
    Decision d;
    d.rule = std::string(name());
    d.message = ids + ": " + std::to_string(before) + " → " + std::to_string(after) + " partitions (target " +
                FormatBytes(target) + ")";
    d.at = ctx.now;
    nlohmann::json ex = nlohmann::json::array();
    for (ExecNode* r : g.reads) ex.push_back(r->id);
    d.fields = {{"exchanges", ex},
                {"partitionsBefore", before},
                {"partitionsAfter", after},
                {"targetSizeBytes", target},
                {"minNumPartitions", group_min[gi]},
                {"advisoryPartitionSizeBytes", advisory}};
    outcome.decisions.push_back(std::move(d));
    outcome.changed = true;
  }
  return outcome;
}

}  // namespace aqesim
