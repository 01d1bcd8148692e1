#include "models/aqe/plan_queries.h"

#include "models/engine/query_stage.h"
#include "models/engine/static_planner.h"

namespace aqesim {

bool HasStage(const ExecNode& n) { return n.is_exchange() && n.shuffle->data->stage != nullptr; }

bool IsMaterializedShuffle(const ExecNode& n) {
  return n.is_exchange() && n.shuffle->data->stage && n.shuffle->data->stage->done &&
         n.shuffle->data->reported;
}

bool IsBroadcastJoin(const ExecNode& n) {
  return n.is_join() && (n.join->strategy == JoinStrategy::kBroadcastHash ||
                         n.join->strategy == JoinStrategy::kBroadcastNestedLoop);
}

void VisitStage(ExecNode* root, const std::function<void(ExecNode*)>& visit) {
  visit(root);
  if (root->is_exchange()) return;
  if (IsBroadcastJoin(*root)) {
    VisitStage(&root->child(StreamedChildIndex(*root->join->build_side)), visit);
    return;
  }
  for (auto& c : root->children) VisitStage(c.get(), visit);
}

std::vector<ExecNode*> StageReads(ExecNode* root) {
  std::vector<ExecNode*> out;
  VisitStage(root, [&](ExecNode* n) {
    if (n->is_exchange()) out.push_back(n);
  });
  return out;
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
    if (p->op == PlanOp::kAggregate) return true;
    if (p->is_join()) {
      if (IsBroadcastJoin(*p)) {
        // The streamed side's partitioning passes through; the build side is broadcast.
        if (&p->child(BuildChildIndex(*p->join->build_side)) == cur) return false;
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
