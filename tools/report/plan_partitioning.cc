#include "tools/report/plan_partitioning.h"

#include <vector>

namespace aqesim::report {
namespace {

class Walker {
 public:
  explicit Walker(std::map<std::string, ShufflePartitioning>* out) : out_(out) {}

  /// The exchanges whose partition count `n`'s output has (empty when it is not one
  /// exchange's count: a scan's tasks, a union's sum, a cartesian product).
  std::vector<const PlanNode*> Sources(const PlanNode& n) {
    switch (n.op) {
      case PlanOp::kExchange: {
        (*out_)[n.id].fixed = n.num_partitions.has_value() || n.single_partition;
        Sources(n.child());  // visit the exchanges below
        return {&n};
      }
      case PlanOp::kJoin: {
        std::vector<const PlanNode*> left = Sources(n.child(0));
        std::vector<const PlanNode*> right = Sources(n.child(1));
        if (n.strategy == JoinStrategy::kSortMerge || n.strategy == JoinStrategy::kShuffledHash) {
          std::vector<const PlanNode*> both = left;
          both.insert(both.end(), right.begin(), right.end());
          Pin(both);
          return left;
        }
        if (n.strategy == JoinStrategy::kBroadcastHash || n.strategy == JoinStrategy::kBroadcastNestedLoop) {
          // The output is partitioned as the streamed side (the side not built).
          return n.build_side.value_or(BuildSide::kRight) == BuildSide::kRight ? left : right;
        }
        return {};
      }
      case PlanOp::kScan:
        return {};
      case PlanOp::kUnion:
        for (const auto& c : n.children) Sources(*c);
        return {};
      default:
        return n.children.empty() ? std::vector<const PlanNode*>{} : Sources(n.child());
    }
  }

 private:
  /// Exchanges that a shuffle join reads partition by partition: the configured ones are
  /// pinned to the first fixed one.
  void Pin(const std::vector<const PlanNode*>& exchanges) {
    const PlanNode* fixed = nullptr;
    for (const PlanNode* e : exchanges)
      if (fixed == nullptr && (*out_)[e->id].fixed) fixed = e;
    if (fixed == nullptr) return;
    for (const PlanNode* e : exchanges) {
      ShufflePartitioning& p = (*out_)[e->id];
      if (!p.fixed && p.pinned_by.empty()) p.pinned_by = fixed->id;
    }
  }

  std::map<std::string, ShufflePartitioning>* out_;
};

}  // namespace

std::map<std::string, ShufflePartitioning> PartitioningOfShuffles(const PlanNode& plan) {
  std::map<std::string, ShufflePartitioning> out;
  Walker(&out).Sources(plan);
  return out;
}

}  // namespace aqesim::report
