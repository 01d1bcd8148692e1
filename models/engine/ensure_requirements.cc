#include "models/engine/ensure_requirements.h"

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "models/plan/join_selection_helper.h"
#include "models/plan/planned_properties.h"

namespace aqesim {
namespace {

enum class Partitioning { kUnknown, kHash, kSingle };
enum class Required { kNone, kClustered, kAllTuples };

Partitioning OutputPartitioning(const ExecNode& n) {
  switch (n.op) {
    case PlanOp::kScan:
    case PlanOp::kUnion:
      return Partitioning::kUnknown;
    case PlanOp::kExchange:
      if (n.single_partition()) return Partitioning::kSingle;
      return n.origin() == ShuffleOrigin::kRebalancePartitionsByNone ? Partitioning::kUnknown
                                                                     : Partitioning::kHash;
    case PlanOp::kJoin:
      switch (n.join->strategy) {
        case JoinStrategy::kSortMerge:
        case JoinStrategy::kShuffledHash:
          return OutputPartitioning(n.child(0));
        case JoinStrategy::kBroadcastHash:
        case JoinStrategy::kBroadcastNestedLoop:
          return OutputPartitioning(
              n.child(StreamedChildIndex(n.join->build_side.value_or(BuildSide::kRight))));
        case JoinStrategy::kCartesianProduct:
          return Partitioning::kUnknown;
      }
      return Partitioning::kUnknown;
    default:
      return OutputPartitioning(n.child(0));
  }
}

Required RequiredOf(const ExecNode& n) {
  if (n.is_join())
    return n.join->strategy == JoinStrategy::kSortMerge || n.join->strategy == JoinStrategy::kShuffledHash
               ? Required::kClustered
               : Required::kNone;
  if (n.op == PlanOp::kAggregate)
    return n.source && !n.source->grouped ? Required::kAllTuples : Required::kClustered;
  return Required::kNone;
}

bool Satisfies(Partitioning p, Required r) {
  switch (r) {
    case Required::kNone:
      return true;
    case Required::kClustered:
      return p == Partitioning::kHash || p == Partitioning::kSingle;
    case Required::kAllTuples:
      return p == Partitioning::kSingle;
  }
  return true;
}

/// The fixed partition count of a side that satisfies its distribution: an exchange (below
/// unary operators) with numPartitions.
std::optional<int> FixedCount(const ExecNode& n) {
  const ExecNode* x = &n;
  while (!x->is_exchange() && x->children.size() == 1) x = &x->child(0);
  if (x->is_exchange() && x->source && x->source->num_partitions) return x->source->num_partitions;
  return std::nullopt;
}

std::string SideName(const ExecNode& parent, size_t i) {
  if (parent.is_join()) return i == 0 ? "left" : "right";
  return "child";
}

class Inserter {
 public:
  Inserter(const SqlConf& conf, std::deque<PlanNode>* sources, std::vector<Decision>* decisions)
      : conf_(conf), sources_(sources), decisions_(decisions) {}

  /// Remembers every id of the plan, so that inserted exchanges get ids of their own.
  void CollectIds(const ExecNode& n) {
    used_.insert(n.id);
    for (const auto& c : n.children) CollectIds(*c);
  }

  void Visit(ExecNode* n) {
    for (auto& c : n->children) Visit(c.get());
    const Required req = RequiredOf(*n);
    if (req == Required::kNone) return;
    std::vector<bool> ok(n->children.size());
    for (size_t i = 0; i < n->children.size(); ++i)
      ok[i] = Satisfies(OutputPartitioning(*n->children[i]), req);
    for (size_t i = 0; i < n->children.size(); ++i) {
      if (ok[i]) continue;
      std::optional<int> count;
      if (req == Required::kAllTuples) count = 1;
      if (n->is_join()) {
        const size_t other = 1 - i;
        if (ok[other]) count = FixedCount(*n->children[other]);
      }
      Insert(n, i, req, count);
    }
    ComputePlannedProperties(n, conf_);
  }

 private:
  void Insert(ExecNode* parent, size_t i, Required req, std::optional<int> count) {
    ExecNode& child = *parent->children[i];
    PlanNode& p = sources_->emplace_back();
    p.op = PlanOp::kExchange;
    p.id = FreeId(child.id + "-exchange");
    p.pointer = parent->source ? parent->source->pointer : "/plan";
    p.origin = ShuffleOrigin::kEnsureRequirements;
    p.num_partitions = count;
    p.single_partition = req == Required::kAllTuples;
    auto ex = std::make_unique<ExecNode>();
    ex->op = PlanOp::kExchange;
    ex->id = p.id;
    ex->source = &p;
    ex->parent = parent;
    ex->shuffle = std::make_unique<ShuffleState>();
    std::unique_ptr<ExecNode> moved = std::move(parent->children[i]);
    moved->parent = ex.get();
    ex->children.push_back(std::move(moved));
    ComputePlannedProperties(ex.get(), conf_);
    const std::string partitions =
        count ? std::to_string(*count) : std::to_string(conf_.InitialShufflePartitions());
    const std::string why = req == Required::kAllTuples
                                ? "AllTuples (a global aggregate)"
                                : "ClusteredDistribution (" + std::string(PlanOpName(parent->op)) + ")";
    const std::string whence =
        req == Required::kAllTuples ? "SinglePartition"
        : count                     ? "the other side's fixed count"
        : conf_.adaptive_enabled && conf_.coalesce_partitions_enabled && conf_.initial_partition_num
            ? "spark.sql.adaptive.coalescePartitions.initialPartitionNum"
            : "spark.sql.shuffle.partitions";
    Decision d;
    d.rule = "EnsureRequirements";
    d.message = parent->id + ": ShuffleExchange " + p.id + " inserted on the " + SideName(*parent, i) + " (" +
                std::string(PlanOpName(ex->child(0).op)) + " " + ex->child(0).id + " does not satisfy " +
                why + "), " + partitions + " partitions (" + whence + ")";
    d.fields = {{"node", parent->id},
                {"exchange", p.id},
                {"side", SideName(*parent, i)},
                {"numPartitions", count ? *count : conf_.InitialShufflePartitions()},
                {"static", true}};
    decisions_->push_back(std::move(d));
    parent->children[i] = std::move(ex);
  }

  /// `wanted`, or `wanted-2`, `wanted-3`, … when the scenario already uses it (ids name stages and
  /// profiles: two exchanges must never share one).
  std::string FreeId(const std::string& wanted) {
    std::string id = wanted;
    for (int k = 2; used_.count(id) > 0; ++k) id = wanted + "-" + std::to_string(k);
    used_.insert(id);
    return id;
  }

  const SqlConf& conf_;
  std::set<std::string> used_;
  std::deque<PlanNode>* sources_;
  std::vector<Decision>* decisions_;
};

}  // namespace

void EnsureRequirements(ExecNode* root, const SqlConf& conf, std::deque<PlanNode>* sources,
                        std::vector<Decision>* decisions) {
  Inserter inserter(conf, sources, decisions);
  inserter.CollectIds(*root);
  inserter.Visit(root);
}

}  // namespace aqesim
