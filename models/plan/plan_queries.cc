#include "models/plan/plan_queries.h"

#include "models/plan/join_selection_helper.h"
#include "models/plan/query_stage.h"

namespace aqesim {

bool HasStage(const ExecNode& n) { return n.is_exchange() && n.shuffle->data->stage != nullptr; }

bool IsMaterializedShuffle(const ExecNode& n) {
  return n.is_exchange() && n.shuffle->data->stage && n.shuffle->data->stage->done &&
         n.shuffle->data->reported;
}

std::vector<ExecNode*> JoinsNotYetRunning(ExecNode* plan) {
  std::vector<ExecNode*> out;
  for (ExecNode* n : PreOrder(plan))
    if (n->is_join() && !n->executing_stage) out.push_back(n);
  return out;
}

bool PartitioningRequiredAbove(const ExecNode& n) {
  const ExecNode* cur = &n;
  for (const ExecNode* p = n.parent; p; cur = p, p = p->parent) {
    if (p->is_exchange()) return false;
    if (p->op == PlanOp::kAggregate) {
      if (p->source && p->source->partial_aggregate) continue;  // needs no distribution
      return true;
    }
    if (p->op == PlanOp::kWindow) return true;
    if (p->is_join()) {
      if (p->is_broadcast_join()) {
        // The streamed side's partitioning passes through; the build side is broadcast.
        if (&BuildChild(*p) == cur) return false;
        continue;
      }
      if (p->join->strategy == JoinStrategy::kSortMerge || p->join->strategy == JoinStrategy::kShuffledHash)
        return true;
      return false;
    }
    if (p->op == PlanOp::kUnion) return false;
  }
  return false;
}

}  // namespace aqesim
