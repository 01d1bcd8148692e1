#include "models/scenario/plan_checks.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace aqesim {

namespace {

// Pre-order (a node, then its children in order), without recursion.
void PreOrder(PlanNode* root, const std::function<void(PlanNode*)>& visit) {
  std::vector<PlanNode*> stack = {root};
  while (!stack.empty()) {
    PlanNode* node = stack.back();
    stack.pop_back();
    visit(node);
    for (auto it = node->children.rbegin(); it != node->children.rend(); ++it) stack.push_back(it->get());
  }
}

// A count of partitions (or tasks) and the JSON pointer of what fixes it.
struct FixedCount {
  int count;
  std::string source;
};

// The partition count of `node`'s output as planned without AQE, when the scenario fixes
// it (explicit scan tasks, numPartitions, singlePartition, sizes); nullopt when it follows
// the configuration.
std::optional<FixedCount> OutputPartitions(const PlanNode& node) {
  switch (node.op) {
    case PlanOp::kScan:
      // A bucketed table's scan has numBuckets (or fewer, coalesced) tasks when read bucketed,
      // its splits otherwise: the configuration decides.
      if (node.bucketing) return std::nullopt;
      if (node.tasks) return FixedCount{*node.tasks, PointerAppend(node.pointer, "tasks")};
      return std::nullopt;
    case PlanOp::kExchange:
      if (node.single_partition) return FixedCount{1, PointerAppend(node.pointer, "singlePartition")};
      if (node.num_partitions)
        return FixedCount{*node.num_partitions, PointerAppend(node.pointer, "numPartitions")};
      if (node.sizes) {
        if (auto n = FixedPartitionCount(*node.sizes))
          return FixedCount{*n, PointerAppend(node.pointer, "sizes")};
      }
      return std::nullopt;
    case PlanOp::kJoin: {
      if (node.children.size() != 2) return std::nullopt;
      switch (node.strategy) {
        case JoinStrategy::kSortMerge:
        case JoinStrategy::kShuffledHash:
          if (auto l = OutputPartitions(node.child(0))) return l;
          return OutputPartitions(node.child(1));
        case JoinStrategy::kBroadcastHash:
        case JoinStrategy::kBroadcastNestedLoop:
          // The streamed side's partitioning (the build side is broadcast).
          return OutputPartitions(node.child(node.build_side == BuildSide::kLeft ? 1 : 0));
        case JoinStrategy::kCartesianProduct:
          return std::nullopt;
      }
      return std::nullopt;
    }
    case PlanOp::kUnion: {
      int64_t total = 0;
      for (const auto& child : node.children) {
        auto c = OutputPartitions(*child);
        if (!c) return std::nullopt;
        total += c->count;
      }
      if (node.children.empty() || total > INT32_MAX) return std::nullopt;
      return FixedCount{static_cast<int>(total), node.pointer};
    }
    default:
      if (node.children.empty()) return std::nullopt;
      return OutputPartitions(node.child(0));
  }
}

}  // namespace

void AssignIds(PlanNode* root, DiagnosticSink* sink, const std::map<std::string, std::string>* in_use) {
  std::map<std::string, std::string> first_use;  // id → pointer of its "id" field
  if (in_use != nullptr) first_use = *in_use;
  PreOrder(root, [&](PlanNode* node) {
    if (node->id.empty()) return;
    const std::string id_pointer = PointerAppend(node->pointer, "id");
    auto [it, inserted] = first_use.emplace(node->id, id_pointer);
    if (!inserted)
      sink->Error(id_pointer, "expected a unique id, found " + Json(node->id).dump() + " (already used at " +
                                  it->second + ")");
  });
  std::map<std::string, int> next;  // per operator
  PreOrder(root, [&](PlanNode* node) {
    if (!node->id.empty()) return;
    const std::string op(PlanOpName(node->op));
    int& n = next[op];
    std::string id;
    do id = op + std::to_string(++n);
    while (first_use.count(id) != 0);
    first_use.emplace(id, node->pointer);
    node->id = id;
  });
}

void CheckCounts(PlanNode* root, DiagnosticSink* sink) {
  PreOrder(root, [&](PlanNode* node_ptr) {
    const PlanNode& node = *node_ptr;
    if (node.op == PlanOp::kExchange) {
      // Every fixed partition count of the exchange agrees.
      std::vector<FixedCount> fixed;
      if (node.num_partitions)
        fixed.push_back({*node.num_partitions, PointerAppend(node.pointer, "numPartitions")});
      if (node.single_partition) fixed.push_back({1, PointerAppend(node.pointer, "singlePartition")});
      if (node.sizes) {
        if (auto n = FixedPartitionCount(*node.sizes))
          fixed.push_back({*n, PointerAppend(node.pointer, "sizes")});
      }
      for (size_t i = 1; i < fixed.size(); ++i) {
        if (fixed[i].count != fixed[0].count) {
          sink->Error(fixed[i].source, "expected " + std::to_string(fixed[0].count) + " partitions like " +
                                           fixed[0].source + ", found " + std::to_string(fixed[i].count));
          break;
        }
      }
      // The sizes' rows are the child's tasks.
      if (node.sizes && !node.children.empty()) {
        auto rows = FixedMapTaskCount(*node.sizes);
        auto tasks = OutputPartitions(node.child(0));
        if (rows && tasks && *rows != tasks->count)
          sink->Error(PointerAppend(node.pointer, "sizes"), "expected " + std::to_string(tasks->count) +
                                                                " map tasks like " + tasks->source +
                                                                ", found " + std::to_string(*rows));
      }
    }
    if (node.op == PlanOp::kJoin && node.children.size() == 2 &&
        (node.strategy == JoinStrategy::kSortMerge || node.strategy == JoinStrategy::kShuffledHash)) {
      auto left = OutputPartitions(node.child(0));
      auto right = OutputPartitions(node.child(1));
      if (left && right && left->count != right->count)
        sink->Error(right->source, "expected " + std::to_string(left->count) +
                                       " partitions like the other side of join " + Json(node.id).dump() +
                                       " (" + left->source + "), found " + std::to_string(right->count));
    }
  });
}

}  // namespace aqesim
