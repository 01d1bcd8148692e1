#include "models/plan/exec_node.h"

#include <algorithm>

namespace aqesim {

std::string_view RuntimeHintName(RuntimeHint h) {
  switch (h) {
    case RuntimeHint::kNone:
      return "NONE";
    case RuntimeHint::kNoBroadcastHash:
      return "NO_BROADCAST_HASH";
    case RuntimeHint::kShuffleHash:
      return "SHUFFLE_HASH";
    case RuntimeHint::kPreferShuffleHash:
      return "PREFER_SHUFFLE_HASH";
  }
  return "NONE";
}

int ShuffleState::num_read_tasks() const {
  return read_specs ? static_cast<int>(read_specs->size()) : data->num_reducers;
}

ShufflePartitionSpec ShuffleState::read_spec(int task) const {
  if (read_specs) return (*read_specs)[static_cast<size_t>(task)];
  return CoalescedPartitionSpec{task, task + 1, std::nullopt};
}

std::vector<ShufflePartitionSpec> ShuffleState::ReadSpecsOrDefault() const {
  if (read_specs) return *read_specs;
  std::vector<ShufflePartitionSpec> out;
  out.reserve(static_cast<size_t>(std::max(0, data->num_reducers)));
  for (int i = 0; i < data->num_reducers; ++i) out.push_back(CoalescedPartitionSpec{i, i + 1, std::nullopt});
  return out;
}

ShuffleOrigin ExecNode::origin() const {
  return source ? source->origin : ShuffleOrigin::kEnsureRequirements;
}

bool ExecNode::is_broadcast_join() const {
  return is_join() && (join->strategy == JoinStrategy::kBroadcastHash ||
                       join->strategy == JoinStrategy::kBroadcastNestedLoop);
}

bool ExecNode::single_partition() const { return source && source->single_partition; }

namespace {

template <typename Node>
std::vector<Node*> PreOrderOf(Node* root) {
  std::vector<Node*> out;
  std::vector<Node*> stack{root};
  while (!stack.empty()) {
    Node* n = stack.back();
    stack.pop_back();
    out.push_back(n);
    for (auto it = n->children.rbegin(); it != n->children.rend(); ++it) stack.push_back(it->get());
  }
  return out;
}

}  // namespace

std::vector<ExecNode*> PreOrder(ExecNode* root) { return PreOrderOf(root); }
std::vector<const ExecNode*> PreOrder(const ExecNode* root) { return PreOrderOf(root); }

std::unique_ptr<ExecNode> ClonePlan(const ExecNode& node, ExecNode* parent) {
  auto n = std::make_unique<ExecNode>();
  n->op = node.op;
  n->id = node.id;
  n->source = node.source;
  n->parent = parent;
  n->planned_partitions = node.planned_partitions;
  n->estimated_bytes = node.estimated_bytes;
  n->scan_tasks_from_sizes = node.scan_tasks_from_sizes;
  n->bucketed_read_tasks = node.bucketed_read_tasks;
  n->executing_stage = node.executing_stage;
  if (node.shuffle) n->shuffle = std::make_unique<ShuffleState>(*node.shuffle);
  if (node.join) n->join = std::make_unique<JoinState>(*node.join);
  for (const auto& c : node.children) n->children.push_back(ClonePlan(*c, n.get()));
  return n;
}

}  // namespace aqesim
