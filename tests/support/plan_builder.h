// Small C++ plan builders for the rule and work-model tests: a plan (ExecNode) with its scenario nodes
// (PlanNode) and the finished map stages the rules look at, without a scenario or an engine.
// A materialized shuffle's driver view is exact (MapStatusMode::kExact), so thresholds can be
// met to the byte.
#ifndef AQESIM_TESTS_SUPPORT_PLAN_BUILDER_H_
#define AQESIM_TESTS_SUPPORT_PLAN_BUILDER_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/aqe/decision.h"
#include "models/aqe/rule.h"
#include "models/plan/exec_node.h"
#include "models/plan/planned_properties.h"
#include "models/plan/query_stage.h"
#include "models/shuffle/shuffle_sizes.h"

namespace aqesim::testing {

using Matrix = std::vector<std::vector<int64_t>>;  // [map][reducer], bytes

class PlanBuilder {
 public:
  explicit PlanBuilder(SqlConf conf = SqlConf()) : conf_(std::move(conf)) {}

  /// A scan of `bytes` in `tasks` splits.
  std::unique_ptr<ExecNode> Scan(const std::string& id, int64_t bytes, int tasks) {
    PlanNode& p = Source(PlanOp::kScan, id);
    p.scan_bytes = bytes;
    p.tasks = tasks;
    return Node(p, {});
  }

  /// An exchange whose map stage has run: `matrix` rows are its map tasks; the driver sees the
  /// sizes exactly. `data_size_bytes` (runtime broadcast decisions): default 3 x the bytes.
  std::unique_ptr<ExecNode> Shuffle(const std::string& id, const Matrix& matrix,
                                    ShuffleOrigin origin = ShuffleOrigin::kEnsureRequirements,
                                    std::optional<int64_t> data_size_bytes = std::nullopt) {
    PlanNode& p = Source(PlanOp::kExchange, id);
    p.origin = origin;
    SizeMatrix m(static_cast<int>(matrix.size()), static_cast<int>(matrix.at(0).size()));
    int64_t total = 0;
    for (int map = 0; map < m.num_maps(); ++map)
      for (int r = 0; r < m.num_reducers(); ++r) total += m.at(map, r) = matrix[map][r];
    auto n = std::make_unique<ExecNode>();
    n->op = PlanOp::kExchange;
    n->id = id;
    n->source = &p;
    n->shuffle = std::make_unique<ShuffleState>();
    ShuffleData& d = *n->shuffle->data;
    d.num_reducers = m.num_reducers();
    d.data_size_bytes = data_size_bytes.value_or(3 * total);
    d.actual = ShuffleSizes(m);
    d.reported = std::make_unique<ReportedShuffleSizes>(
        ReportShuffleSizes(d.actual, MapStatusConfig{}, MapStatusMode::kExact));
    d.map_executor.assign(static_cast<size_t>(m.num_maps()), 0);
    stages_.emplace_back();
    QueryStage& st = stages_.back();
    st.kind = StageKind::kShuffleMap;
    st.name = id + " map";
    st.output = n.get();
    st.num_tasks = m.num_maps();
    st.done = true;
    d.stage = &st;
    d.materialized = true;
    Attach(n.get(), Scan(id + "-input", total, m.num_maps()));
    n->planned_partitions = m.num_reducers();
    n->estimated_bytes = total;
    return n;
  }

  /// An exchange whose stage has not been created, with `reducers` reducers.
  std::unique_ptr<ExecNode> PendingShuffle(const std::string& id, std::unique_ptr<ExecNode> child,
                                           int reducers) {
    PlanNode& p = Source(PlanOp::kExchange, id);
    auto n = std::make_unique<ExecNode>();
    n->op = PlanOp::kExchange;
    n->id = id;
    n->source = &p;
    n->shuffle = std::make_unique<ShuffleState>();
    n->shuffle->data->num_reducers = reducers;
    Attach(n.get(), std::move(child));
    ComputePlannedProperties(n.get(), conf_);
    return n;
  }

  std::unique_ptr<ExecNode> Join(const std::string& id, JoinStrategy strategy, JoinType type,
                                 std::unique_ptr<ExecNode> left, std::unique_ptr<ExecNode> right,
                                 std::optional<BuildSide> build_side = std::nullopt) {
    PlanNode& p = Source(PlanOp::kJoin, id);
    p.strategy = strategy;
    p.join_type = type;
    p.build_side = build_side;
    auto n = std::make_unique<ExecNode>();
    n->op = PlanOp::kJoin;
    n->id = id;
    n->source = &p;
    n->join = std::make_unique<JoinState>();
    n->join->planned_strategy = strategy;
    n->join->strategy = strategy;
    n->join->build_side = build_side;
    Attach(n.get(), std::move(left));
    Attach(n.get(), std::move(right));
    ComputePlannedProperties(n.get(), conf_);
    return n;
  }
  std::unique_ptr<ExecNode> SortMergeJoin(const std::string& id, JoinType type,
                                          std::unique_ptr<ExecNode> left, std::unique_ptr<ExecNode> right) {
    return Join(id, JoinStrategy::kSortMerge, type, std::move(left), std::move(right));
  }

  /// filter / project / aggregate / sort over `child`.
  std::unique_ptr<ExecNode> Unary(PlanOp op, const std::string& id, std::unique_ptr<ExecNode> child) {
    auto n = Node(Source(op, id), {});
    Attach(n.get(), std::move(child));
    ComputePlannedProperties(n.get(), conf_);
    return n;
  }

  std::unique_ptr<ExecNode> Union(const std::string& id, std::vector<std::unique_ptr<ExecNode>> children) {
    auto n = Node(Source(PlanOp::kUnion, id), {});
    for (auto& c : children) Attach(n.get(), std::move(c));
    ComputePlannedProperties(n.get(), conf_);
    return n;
  }

  /// The scenario node of `n` (to set hints, selectivity, advisory sizes...).
  static PlanNode& SourceOf(ExecNode& n) { return const_cast<PlanNode&>(*n.source); }

  const SqlConf& conf() const { return conf_; }
  SqlConf& conf() { return conf_; }
  RuleContext Context(bool final_stage = false) const {
    RuleContext ctx{conf_};
    ctx.default_parallelism = 1;
    ctx.is_final_stage = final_stage;
    ctx.now = SimTime::Seconds(1.5);
    return ctx;
  }

 private:
  PlanNode& Source(PlanOp op, const std::string& id) {
    sources_.emplace_back();
    PlanNode& p = sources_.back();
    p.op = op;
    p.id = id;
    p.pointer = "/plan/" + id;
    return p;
  }
  std::unique_ptr<ExecNode> Node(const PlanNode& p, std::vector<std::unique_ptr<ExecNode>> children) {
    auto n = std::make_unique<ExecNode>();
    n->op = p.op;
    n->id = p.id;
    n->source = &p;
    for (auto& c : children) Attach(n.get(), std::move(c));
    if (p.op == PlanOp::kScan) ComputePlannedProperties(n.get(), conf_);
    return n;
  }
  static void Attach(ExecNode* parent, std::unique_ptr<ExecNode> child) {
    child->parent = parent;
    parent->children.push_back(std::move(child));
  }

  SqlConf conf_;
  std::deque<PlanNode> sources_;  // deques: the plan points at these
  std::deque<QueryStage> stages_;
};

/// The exchange `id` in `plan`.
inline ExecNode& Find(ExecNode& plan, const std::string& id) {
  for (ExecNode* n : PreOrder(&plan))
    if (n->id == id) return *n;
  throw std::runtime_error("no node " + id);
}

/// The read specs of exchange `id` (the default read spelled out).
inline std::vector<ShufflePartitionSpec> SpecsOf(ExecNode& plan, const std::string& id) {
  return Find(plan, id).shuffle->ReadSpecsOrDefault();
}

/// Decisions as comparable text: "rule|message|fields".
inline std::vector<std::string> DecisionTexts(const std::vector<Decision>& decisions) {
  std::vector<std::string> out;
  for (const Decision& d : decisions)
    out.push_back(d.rule + "|" + d.message + "|" + d.fields.dump() + "|" + std::to_string(d.at.micros()));
  return out;
}

}  // namespace aqesim::testing

#endif  // AQESIM_TESTS_SUPPORT_PLAN_BUILDER_H_
