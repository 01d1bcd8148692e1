// The physical plan a scenario describes: scans, exchanges, joins, aggregates, unions...
//
// A PlanNode tree is what the scenario loader produces and what the engine turns into
// query stages. It mirrors the shape of Spark's SparkPlan (sql/core/.../execution/SparkPlan.scala)
// at the granularity that matters for AQE: exchanges are explicit nodes (Spark's
// ShuffleExchangeExec), broadcast exchanges are implied by a BroadcastHashJoin's build side.
#ifndef AQESIM_MODELS_PLAN_PLAN_H_
#define AQESIM_MODELS_PLAN_PLAN_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/shuffle/key_distribution.h"
#include "models/shuffle/sizes_spec.h"

namespace aqesim {

/// kWindow: Spark's WindowExec (JSON "window"), which requires its child clustered by its
/// partition keys (JSON `keys`, kept in grouping_keys) and keeps its child's partitioning.
enum class PlanOp { kScan, kExchange, kJoin, kAggregate, kUnion, kFilter, kProject, kSort, kWindow };

/// Spark's ShuffleOrigin (sql/core/.../exchange/ShuffleExchangeExec.scala): which AQE rules
/// may touch a shuffle (docs/aqe-behaviour.md §1.3).
enum class ShuffleOrigin {
  kEnsureRequirements,
  kRepartitionByCol,
  kRepartitionByNum,
  kRebalancePartitionsByNone,
  kRebalancePartitionsByCol,
};

/// How an exchange assigns rows to reducers (Spark's HashPartitioning / RangePartitioning).
enum class ExchangePartitioning { kHash, kRange };

enum class JoinStrategy {
  kSortMerge,
  kShuffledHash,
  kBroadcastHash,
  kBroadcastNestedLoop,
  kCartesianProduct
};
enum class JoinType { kInner, kCross, kLeftOuter, kRightOuter, kFullOuter, kLeftSemi, kLeftAnti };
enum class BuildSide { kLeft, kRight };
/// User join hints (Spark's JoinStrategyHint), per side.
enum class JoinHint { kNone, kBroadcast, kMerge, kShuffleHash, kShuffleReplicateNl };

/// A bucketed table (`CLUSTERED BY (keys) [SORTED BY (keys)] INTO num_buckets BUCKETS`, Spark's
/// BucketSpec): the scan's JSON `bucketing` (docs/aqe-behaviour.md §14).
struct BucketSpec {
  /// Bucket columns, in the table's order (the hash is over them in this order).
  std::vector<std::string> keys;
  int num_buckets = 1;
  /// SORTED BY the keys. Informational: Spark 4.0 reports no output ordering for a bucketed scan
  /// (spark.sql.legacy.bucketedTableScan.outputOrdering is off), so a sort-merge join still sorts.
  bool sorted = false;
  /// Bytes of each bucket (JSON `bucketBytes`, one per bucket, summing to the scan's bytes).
  /// Empty: the scan's bytes split evenly (the first bytes % num_buckets buckets one byte larger).
  std::vector<int64_t> bucket_bytes;
};

struct PlanNode {
  PlanOp op = PlanOp::kScan;
  /// Unique id: the scenario's `id`, or generated as "<op><n>" (e.g. "scan3") when absent.
  std::string id;
  /// JSON pointer of this node in the scenario file (e.g. "/plan/left"), for messages.
  std::string pointer;
  /// Inputs. join: {left, right}; union: its children; every other non-leaf: one child.
  std::vector<std::unique_ptr<PlanNode>> children;

  // --- scan ---
  /// Bytes the scan reads from storage.
  int64_t scan_bytes = 0;
  std::optional<int64_t> rows;
  /// Number of scan tasks; default ceil(scan_bytes / spark.sql.files.maxPartitionBytes), >= 1
  /// (or the length of task_bytes).
  std::optional<int> tasks;
  /// Bytes each scan task reads (JSON `taskBytes`, e.g. a recorded stage's Input Metrics per
  /// task index); sums to scan_bytes. Empty: scan_bytes split evenly over the tasks.
  std::vector<int64_t> task_bytes;
  /// The table's buckets (JSON `bucketing`); `tasks` / `taskBytes` then describe the scan when it
  /// is read as a normal (non-bucketed) scan.
  std::optional<BucketSpec> bucketing;
  /// The sort keys of the scan's rows (JSON `keyDistribution`): what a range exchange above it
  /// samples and partitions (models/shuffle/key_distribution.h).
  std::optional<KeyDistribution> key_distribution;

  // --- filter / project / aggregate / join ---
  /// Output bytes ÷ input bytes of this operator, used for the planner's size estimate and
  /// for the CPU cost of operators above it. Default 1.0 (aggregate: 1.0 too; set it).
  double selectivity = 1.0;
  /// The planner's size estimate of this node's output, overriding the propagated one
  /// (static broadcast decisions use it; it may be wrong, which is why AQE exists).
  std::optional<int64_t> estimated_bytes;

  // --- exchange ---
  /// Fixed partition count (REPARTITION_BY_NUM or a user repartition(n)); otherwise the
  /// count comes from spark.sql.shuffle.partitions / initialPartitionNum.
  std::optional<int> num_partitions;
  ShuffleOrigin origin = ShuffleOrigin::kEnsureRequirements;
  /// The partition-size matrix (absent: derived uniformly from the child's output).
  std::optional<SizesSpec> sizes;
  /// Records each reducer receives (JSON `rowsByPartition`, one count per reducer, summing to
  /// `rows` when both are given). Read only by the variants that count records
  /// (models/shuffle/shuffle_records.h). Empty: the records follow the bytes.
  std::vector<int64_t> rows_by_partition;
  /// Uncompressed bytes written into the shuffle (Spark's exchange "data size" metric), used
  /// for runtime broadcast decisions (docs/aqe-behaviour.md §3.6). Absent: shuffle bytes ×
  /// cost.compressionRatio.
  std::optional<int64_t> data_size_bytes;
  /// MapStatus block size ÷ bytes written (JSON `reportedSizeRatio`, > 0): what the map tasks
  /// report to the driver, hence what AQE decides on, relative to the bytes they write and
  /// their readers fetch. Default 1: Apache Spark's writers report the shuffle file's partition
  /// lengths (core/.../shuffle/sort/*ShuffleWriter: MapStatus(partitionLengths)). A recorded
  /// run whose driver sizes sit outside what encoding the bytes read allows (a vendor build
  /// reporting uncompressed sizes) gets the ratio estimated by the importer.
  double reported_size_ratio = 1.0;
  /// Per-stage advisory partition size (REBALANCE with an explicit size, docs/aqe-behaviour.md §5 step 4).
  std::optional<int64_t> advisory_partition_size_bytes;
  /// True when the exchange produces a single partition (SinglePartition): never coalesced or
  /// locally read.
  bool single_partition = false;
  /// JSON `partitioning`: "hash" (default) or "range" (a global sort's or repartitionByRange's
  /// RangePartitioning: sizes from the keys below, models/engine/range_exchange.h).
  ExchangePartitioning partitioning = ExchangePartitioning::kHash;

  // --- sort ---
  /// JSON `global`: a global sort (ORDER BY), which requires OrderedDistribution of its child;
  /// false: a sort within partitions.
  bool global_sort = false;

  // --- join ---
  JoinStrategy strategy = JoinStrategy::kSortMerge;
  JoinType join_type = JoinType::kInner;
  /// For hash joins planned statically: which side builds. Default: right when buildable.
  std::optional<BuildSide> build_side;
  JoinHint left_hint = JoinHint::kNone;
  JoinHint right_hint = JoinHint::kNone;
  /// Join keys of each side (JSON `keys` for both, or `leftKeys` / `rightKeys`), equally many.
  /// Empty: a side over a bucketed scan joins on its bucket keys (docs/aqe-behaviour.md §14).
  std::vector<std::string> left_keys;
  std::vector<std::string> right_keys;

  // --- aggregate ---
  /// Grouping keys present (false = global aggregate, which requires a single partition).
  bool grouped = true;
  /// Grouping keys (JSON `keys`; a window's partition keys); empty: over a bucketed scan, taken
  /// to be its bucket keys.
  std::vector<std::string> grouping_keys;
  /// Which half of Spark's two-phase aggregation (JSON `mode`): false = "final" (the default:
  /// above its exchange, requiring the distribution above), true = "partial" (Spark's partial
  /// HashAggregate in the map stage, requiredChildDistribution unspecified: EnsureRequirements
  /// puts no exchange under it, and it needs no partitioning from below, so a local shuffle read
  /// under it stays allowed and a bucketed scan under it is not kept for it).
  bool partial_aggregate = false;

  const PlanNode& child(size_t i = 0) const { return *children[i]; }
  PlanNode& child(size_t i = 0) { return *children[i]; }
  bool is_exchange() const { return op == PlanOp::kExchange; }
  bool is_join() const { return op == PlanOp::kJoin; }
};

// Names as they appear in scenario JSON and in output (Spark's spelling).
std::string_view PlanOpName(PlanOp op);               // "scan", "exchange", ...
std::string_view ShuffleOriginName(ShuffleOrigin o);  // "ENSURE_REQUIREMENTS", ...
std::string_view JoinStrategyName(JoinStrategy s);    // "SortMergeJoin", ...
std::string_view JoinTypeName(JoinType t);            // "Inner", "LeftOuter", ...
std::string_view BuildSideName(BuildSide b);          // "BuildLeft", "BuildRight"
std::string_view JoinHintName(
    JoinHint h);  // "NONE", "BROADCAST", "MERGE", "SHUFFLE_HASH", "SHUFFLE_REPLICATE_NL"

std::optional<PlanOp> ParsePlanOp(std::string_view s);
std::optional<ShuffleOrigin> ParseShuffleOrigin(std::string_view s);
std::optional<JoinStrategy> ParseJoinStrategy(std::string_view s);
std::optional<JoinType> ParseJoinType(std::string_view s);
std::optional<BuildSide> ParseBuildSide(std::string_view s);
std::optional<JoinHint> ParseJoinHint(std::string_view s);

/// Deep copy of a plan tree (the engine mutates its own copy per run).
std::unique_ptr<PlanNode> ClonePlan(const PlanNode& node);

}  // namespace aqesim

#endif  // AQESIM_MODELS_PLAN_PLAN_H_
