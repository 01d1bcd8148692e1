#include "models/plan/stage_walk.h"

#include "models/plan/join_selection_helper.h"

namespace aqesim {

namespace {

template <typename Node>
void Visit(Node* n, const std::function<void(Node*)>& visit) {
  visit(n);
  if (n->is_exchange()) return;
  if (n->is_broadcast_join()) {
    Visit<Node>(&StreamedChild(*n), visit);
    return;
  }
  for (auto& c : n->children) Visit<Node>(c.get(), visit);
}

std::string OperatorsText(const ExecNode& n, bool with_ids) {
  const std::string id = with_ids ? " " + n.id : "";
  if (n.is_exchange()) return "read" + id;
  if (n.op == PlanOp::kScan) return "scan" + id;
  std::string out =
      (n.is_join() ? std::string(JoinStrategyName(n.join->strategy)) : std::string(PlanOpName(n.op))) + id +
      "(";
  for (size_t i = 0; i < n.children.size(); ++i) {
    const bool broadcast = n.is_broadcast_join() && i == BuildChildIndex(*n.join->build_side);
    out += (i ? ", " : "") + (broadcast ? std::string("broadcast") : OperatorsText(*n.children[i], with_ids));
  }
  return out + ")";
}

}  // namespace

void VisitStageOperators(ExecNode* root, const std::function<void(ExecNode*)>& visit) {
  Visit<ExecNode>(root, visit);
}

void VisitStageOperators(const ExecNode* root, const std::function<void(const ExecNode*)>& visit) {
  Visit<const ExecNode>(root, visit);
}

std::vector<ExecNode*> StageReads(ExecNode* root) {
  std::vector<ExecNode*> out;
  VisitStageOperators(root, [&](ExecNode* n) {
    if (n->is_exchange()) out.push_back(n);
  });
  return out;
}

bool StageReadsShuffle(const ExecNode& root) {
  bool reads = false;
  VisitStageOperators(&root, [&](const ExecNode* n) { reads |= n->is_exchange(); });
  return reads;
}

int StageTaskCount(const ExecNode& n) {
  switch (n.op) {
    case PlanOp::kExchange:
      return n.shuffle->num_read_tasks();
    case PlanOp::kScan:
      return n.planned_partitions;
    case PlanOp::kUnion: {
      int t = 0;
      for (auto& c : n.children) t += StageTaskCount(*c);
      return t;
    }
    case PlanOp::kJoin:
      if (n.is_broadcast_join()) return StageTaskCount(StreamedChild(n));
      if (n.join->strategy == JoinStrategy::kCartesianProduct)
        return StageTaskCount(n.child(0)) * StageTaskCount(n.child(1));
      return StageTaskCount(n.child(0));
    default:
      return StageTaskCount(n.child(0));
  }
}

std::optional<UnionTask> UnionTaskOf(const ExecNode& union_node, int task) {
  UnionTask out;
  int offset_tasks = 0;
  for (size_t i = 0; i < union_node.children.size(); ++i) {
    const ExecNode& c = *union_node.children[i];
    const int t = StageTaskCount(c);
    if (task < offset_tasks + t) {
      out.child = i;
      out.task = task - offset_tasks;
      return out;
    }
    offset_tasks += t;
    out.partition_offset += c.planned_partitions;
  }
  return std::nullopt;
}

std::pair<int, int> CartesianTaskOf(const ExecNode& join, int task) {
  const int right_tasks = StageTaskCount(join.child(1));
  return {task / right_tasks, task % right_tasks};
}

std::string DescribeStageOperators(const ExecNode& root) { return OperatorsText(root, true); }
std::string StageCodeKey(const ExecNode& root) { return OperatorsText(root, false); }

}  // namespace aqesim
