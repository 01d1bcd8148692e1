#include "models/engine/disable_unnecessary_bucketed_scan.h"

#include <string>

#include "models/aqe/decision.h"
#include "models/plan/join_selection_helper.h"
#include "models/plan/planned_properties.h"

namespace aqesim {
namespace {

/// Requires a clustered or all-tuples distribution of its children.
bool HasInterestingPartition(const ExecNode& n) {
  if (n.op == PlanOp::kAggregate) return !(n.source && n.source->partial_aggregate);
  if (n.op == PlanOp::kWindow) return true;
  return n.is_join() &&
         (n.join->strategy == JoinStrategy::kSortMerge || n.join->strategy == JoinStrategy::kShuffledHash);
}

bool IsAllowedUnary(const ExecNode& n) {
  return n.op == PlanOp::kFilter || n.op == PlanOp::kProject || n.op == PlanOp::kSort ||
         (n.op == PlanOp::kAggregate && n.source && n.source->partial_aggregate);
}

class Disabler {
 public:
  Disabler(const SqlConf& conf, std::vector<Decision>* decisions) : conf_(conf), decisions_(decisions) {}

  void Visit(ExecNode* n, bool interesting, bool exchange, bool allowed) {
    if (HasInterestingPartition(*n)) {
      for (auto& c : n->children) Visit(c.get(), true, false, true);
    } else if (n->is_exchange()) {
      for (auto& c : n->children) Visit(c.get(), interesting, true, allowed);
    } else if (n->op == PlanOp::kScan) {
      if (n->bucketed_read_tasks && (!interesting || (exchange && allowed))) Disable(n, interesting);
    } else {
      const bool still = allowed && IsAllowedUnary(*n);
      for (size_t i = 0; i < n->children.size(); ++i) {
        const bool build =
            n->is_broadcast_join() && i == BuildChildIndex(n->join->build_side.value_or(BuildSide::kRight));
        Visit(n->children[i].get(), interesting, exchange || build, still);
      }
    }
  }

 private:
  void Disable(ExecNode* scan, bool interesting) {
    const int buckets = *scan->bucketed_read_tasks;
    scan->bucketed_read_tasks.reset();
    ComputePlannedProperties(scan, conf_);
    Decision d;
    d.rule = "DisableUnnecessaryBucketedScan";
    d.message =
        scan->id + ": bucketed scan (" + std::to_string(buckets) + " buckets) read as a normal scan of " +
        Counted(scan->planned_partitions, "task") + " (" +
        (interesting ? "an exchange above it re-partitions it" : "no operator above needs its partitioning") +
        "; spark.sql.sources.bucketing.autoBucketedScan.enabled)";
    d.fields = {
        {"scan", scan->id}, {"buckets", buckets}, {"tasks", scan->planned_partitions}, {"static", true}};
    decisions_->push_back(std::move(d));
  }

  const SqlConf& conf_;
  std::vector<Decision>* decisions_;
};

}  // namespace

void DisableUnnecessaryBucketedScan(ExecNode* root, const SqlConf& conf, std::vector<Decision>* decisions) {
  if (!conf.bucketing_enabled || !conf.auto_bucketed_scan_enabled) return;
  Disabler(conf, decisions).Visit(root, false, false, true);
}

}  // namespace aqesim
