// ExecNode: the physical plan of one simulated run, with runtime state — the plan IR the AQE
// rules (models/aqe/) and the engine (models/engine/) both work on.
//
// Built from the scenario's PlanNode tree by the static planner (what Spark's planner and
// EnsureRequirements decide before anything runs: reducer counts, static broadcast joins),
// then mutated by the adaptive rules (join strategies, shuffle read specs, extra shuffles).
// Mirrors the parts of sql/core/.../adaptive/AdaptiveSparkPlanExec.scala's currentPhysicalPlan
// that AQE decisions act on. Walks over it: plan_queries.h (questions the rules ask),
// stage_walk.h (the operators and reads of one query stage), join_selection_helper.h.
#ifndef AQESIM_MODELS_PLAN_EXEC_NODE_H_
#define AQESIM_MODELS_PLAN_EXEC_NODE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/plan/plan.h"
#include "models/shuffle/las_exact_reducer_totals.h"
#include "models/shuffle/map_output_statistics.h"
#include "models/shuffle/partition_spec.h"
#include "models/shuffle/range_partitioner.h"
#include "models/shuffle/shuffle_sizes.h"
#include "models/shuffle/size_matrix.h"

namespace aqesim {

struct QueryStage;  // models/plan/query_stage.h

/// Hints DynamicJoinSelection adds to a join side (Spark's JoinStrategyHint values it uses).
enum class RuntimeHint { kNone, kNoBroadcastHash, kShuffleHash, kPreferShuffleHash };
std::string_view RuntimeHintName(RuntimeHint h);

/// What is known of one shuffle exchange's data (Spark's ShuffleExchangeExec + its query
/// stage). Shared by every copy of the plan (re-optimization works on copies).
struct ShuffleData {
  int num_reducers = 0;
  /// Rows = the child's partitions as planned without AQE, columns = reducers, true bytes.
  /// Moved into `actual` (and left 0 x 0) when the map stage's task t wrote exactly row t.
  /// Streamed (never materialised) when the scenario generates it; dense otherwise.
  ShuffleSizes planned;
  /// Rows = the map tasks that actually ran (after the child's own AQE reads), true bytes.
  /// Set when the map stage completes (still streamed when it is `planned` moved).
  ShuffleSizes actual;
  /// What the driver sees (MapStatus) of `actual`, set when the map stage completes.
  std::unique_ptr<ReportedShuffleSizes> reported;
  /// Variants las.exactReducerTotals / las.splitByExactTotals only: the driver's exact
  /// per-reducer totals, set with `reported`.
  std::optional<ExactReducerTotals> exact_totals;
  /// Variants intel.rowCountTargets / intel.skewByRowCount only: records per reducer, as their
  /// driver collected them (models/shuffle/shuffle_records.h), set with `reported`.
  std::optional<std::vector<int64_t>> records_by_partition;
  /// Executor that ran each actual map task (for local vs remote fetch).
  std::vector<int> map_executor;
  /// Uncompressed bytes (exchange "data size" metric), used for broadcast decisions.
  int64_t data_size_bytes = 0;
  bool data_size_estimated = false;
  /// MapStatus block size ÷ bytes written (the exchange's `reportedSizeRatio`; 1 in Spark).
  double reported_size_ratio = 1.0;
  QueryStage* stage = nullptr;  // the map stage writing it, once created
  bool materialized = false;
  /// A range exchange: RangePartitioner's sampling and bounds (models/engine/range_exchange.h);
  /// its sampling jobs run before the map stage. Null for hash partitioning.
  std::shared_ptr<const RangeSampling> range;
};

/// An exchange node in a plan: the shared data plus how its consumer reads it (Spark's
/// AQEShuffleReadExec over the ShuffleQueryStageExec).
struct ShuffleState {
  std::shared_ptr<ShuffleData> data = std::make_shared<ShuffleData>();
  /// Specs of the read that consumes it; nullopt = the default read (one spec per reducer).
  std::optional<std::vector<ShufflePartitionSpec>> read_specs;
  /// Engine-inserted exchange (extra shuffle of a forced skew join): its rows follow the
  /// child's output.
  bool inserted = false;

  /// Tasks of the read: one per spec (one per reducer for the default read).
  int num_read_tasks() const;
  /// Spec of read task `task`: read_specs[task], or CoalescedPartitionSpec(task, task + 1).
  ShufflePartitionSpec read_spec(int task) const;
  /// Every spec of the read, the default read spelled out.
  std::vector<ShufflePartitionSpec> ReadSpecsOrDefault() const;
};

/// Runtime state of a join.
struct JoinState {
  JoinStrategy planned_strategy = JoinStrategy::kSortMerge;  // as in the scenario
  JoinStrategy strategy = JoinStrategy::kSortMerge;          // current
  std::optional<BuildSide> build_side;
  bool is_skew_join = false;
  RuntimeHint left_runtime_hint = RuntimeHint::kNone;
  RuntimeHint right_runtime_hint = RuntimeHint::kNone;
  /// Broadcast stage of the build side (broadcast hash / nested loop joins), once created.
  QueryStage* broadcast_stage = nullptr;
  bool broadcast_materialized = false;
};

struct ExecNode {
  PlanOp op = PlanOp::kScan;
  std::string id;
  /// The scenario node this came from; null for nodes the engine inserted (extra shuffles).
  const PlanNode* source = nullptr;
  std::vector<std::unique_ptr<ExecNode>> children;
  ExecNode* parent = nullptr;

  std::unique_ptr<ShuffleState> shuffle;  // exchanges only
  std::unique_ptr<JoinState> join;        // joins only

  /// Partitions this node outputs as planned without AQE (scan tasks, reducers, ...).
  int planned_partitions = 1;
  /// The planner's estimate of this node's output, bytes (static broadcast decisions).
  int64_t estimated_bytes = 0;
  /// Scan task count fixed by the exchange above (its matrix rows), when the scan gives none.
  std::optional<int> scan_tasks_from_sizes;
  /// A scan of a bucketed table read as a bucketed scan (models/plan/bucketed_scan.h): its tasks,
  /// one per bucket or, with coalesced buckets, per group of buckets (numBuckets or fewer).
  /// nullopt: a normal scan (file splits).
  std::optional<int> bucketed_read_tasks;
  /// The stage whose tasks run this operator, once created (the plan below is then fixed).
  QueryStage* executing_stage = nullptr;

  ExecNode& child(size_t i = 0) const { return *children[i]; }
  bool is_exchange() const { return op == PlanOp::kExchange; }
  bool is_join() const { return op == PlanOp::kJoin; }
  /// A broadcast hash or broadcast nested-loop join: its build side runs in another stage.
  bool is_broadcast_join() const;
  ShuffleOrigin origin() const;
  bool single_partition() const;
};

/// Depth-first (pre-order) list of a subtree's nodes.
std::vector<ExecNode*> PreOrder(ExecNode* root);
std::vector<const ExecNode*> PreOrder(const ExecNode* root);

/// Deep copy of a plan; shuffle data (matrices, statistics, stages) is shared, read specs
/// and join states are copied. Parent pointers are set in the copy.
std::unique_ptr<ExecNode> ClonePlan(const ExecNode& node, ExecNode* parent = nullptr);

}  // namespace aqesim

#endif  // AQESIM_MODELS_PLAN_EXEC_NODE_H_
