// RunResult: what one simulated run produced — per-stage times and bytes, per-task records,
// and (for adaptive runs) every decision and every read's partition specs.
// JSON shapes: docs/user-contract.md (`aqesim run --format json`, `aqesim explain`).
#ifndef AQESIM_MODELS_ENGINE_RUN_RESULT_H_
#define AQESIM_MODELS_ENGINE_RUN_RESULT_H_

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/aqe/decision.h"
#include "models/aqe/not_applied.h"
#include "models/cluster/allocation_state.h"
#include "models/engine/resource_usage.h"
#include "models/engine/shared_limit_use.h"
#include "models/shuffle/partition_spec.h"
#include "models/shuffle/range_partitioner.h"

namespace aqesim {

struct TaskResult {
  int index = 0;
  int executor = 0;
  int slot = 0;
  double start_seconds = 0;
  double end_seconds = 0;
  int64_t input_bytes = 0;
  int64_t shuffle_read_bytes = 0;
  int64_t shuffle_write_bytes = 0;
  int64_t spill_bytes = 0;
  /// Of its seconds, what its executor's start-up cost it: executorStartupSeconds on a fresh JVM,
  /// executorStageWarmupSeconds in its stage's first wave there, coldCodeSlowdown while the
  /// stage's code was not yet compiled there (models/engine/executor_state.h). 0 for a warm task
  /// and for a profiled stage's (its recorded times carry their own). JSON `startupSeconds`,
  /// present when above 0.
  double startup_seconds = 0;
};

struct StageResult {
  int id = 0;
  std::string name;  // "e1 map", "j1 broadcast", "result"
  std::string kind;  // "ShuffleMapStage", "BroadcastStage", "ResultStage"
  /// "profiled" (timed by the scenario's recorded profile of this stage) or "modelled" (the
  /// cost model).
  std::string time_source = "modelled";
  /// A profiled stage resized by kResizedMarkFactor or more (models/cost/stage_profile.h):
  /// ResizeFactor (JSON `resizedBy`); its seconds carry the band. Absent otherwise.
  std::optional<double> resized_by;
  /// The operators its tasks run, top-down: "SortMergeJoin j1(read e1, read e2)".
  std::string operators;
  int tasks = 0;
  double submit_seconds = 0;
  double complete_seconds = 0;
  int64_t input_bytes = 0;
  int64_t shuffle_read_bytes = 0;
  int64_t shuffle_write_bytes = 0;
  int64_t spill_bytes = 0;
  double task_min_seconds = 0;
  double task_median_seconds = 0;
  double task_max_seconds = 0;
  /// Broadcast stages: seconds from the collecting job's end to the relation being ready
  /// on every executor.
  double broadcast_seconds = 0;
  std::vector<std::string> reads;  // exchange ids this stage reads
  /// Ids of the stages whose output its tasks read (map stages of its exchanges, broadcasts).
  std::vector<int> parents;
  /// Core-hours available while it ran and used by its tasks (resource_usage.h).
  CoreTime resources;
  /// The subquery whose job ran it (JSON `subquery`, absent for the query's own stages).
  std::string subquery;
  /// The subqueries it waited for before it was submitted (JSON `gatedBy`, absent when none).
  std::vector<std::string> gated_by;
  /// Set when a shared limit slowed it (JSON `sharedLimits`; shared_limit_use.h).
  std::optional<SharedLimitUse> limits;
  std::vector<TaskResult> task_results;
  /// Task attempts that failed or were killed (replayed from its profile's recorded failed
  /// attempts, models/engine/recorded_failures.h): JSON `failedAttempts`, absent when 0.
  int failed_attempts = 0;
  /// How the stage stopped without completing, and its job with it: "aborted" (a task failed
  /// spark.task.maxFailures times) or "FetchFailed" (a fetch failure and no resubmission); JSON
  /// `failed`, absent ("") when it completed. complete_seconds is then when it stopped.
  std::string failed;
  double duration_seconds() const { return complete_seconds - submit_seconds; }
};

/// The `timed` column of run and validate: "modelled", "profiled", "profiled (resized ×62.5)".
std::string TimedText(const std::string& time_source, std::optional<double> resized_by);

struct ExchangeExplain {
  std::string id;
  int map_tasks = 0;
  int num_partitions = 0;
  std::string map_status;                      // "CompressedMapStatus", ...
  std::vector<int64_t> bytes_by_partition_id;  // what the driver sees
  std::vector<int64_t> true_bytes_by_partition_id;
  int64_t data_size_bytes = 0;
  bool data_size_estimated = false;
  double reported_size_ratio = 1.0;       // MapStatus size ÷ bytes written (`reportedSizeRatio`)
  int64_t driver_map_status_bytes = 0;    // driver heap held by the statuses
  double driver_aggregation_seconds = 0;  // getStatistics time on the driver
  /// Variant las.exactReducerTotals / splitByExactTotals: the exact totals' driver heap, the
  /// blocks decompressed for them and that time (absent without the variants).
  std::optional<int64_t> driver_exact_totals_bytes;
  int64_t driver_decompressed_blocks = 0;
  double driver_decompress_seconds = 0;
  std::vector<int64_t> exact_bytes_by_partition_id;
  /// Variants intel.rowCountTargets / skewByRowCount: records per reducer (empty without them).
  std::vector<int64_t> records_by_partition_id;
  /// A range exchange: RangePartitioner's sampling and bounds (null for hash partitioning).
  std::shared_ptr<const RangeSampling> range;
};

struct ReadExplain {
  std::string exchange;
  int stage = 0;
  std::vector<ShufflePartitionSpec> specs;
  std::vector<int64_t> true_bytes;  // bytes each spec's task really reads from this exchange
};

struct JoinExplain {
  std::string id;
  std::string strategy;        // as planned in the scenario
  std::string final_strategy;  // as executed
  std::string build_side;      // "" for sort-merge
  bool is_skew_join = false;
};

/// One of the scenario's subqueries as it ran (models/plan/subquery.h; run JSON `subqueries`).
struct SubqueryRun {
  std::string id;
  std::string kind;                // "scalar", "inSubquery", "bloomFilter", "dynamicPruning"
  std::vector<std::string> gates;  // scan ids
  std::string reuses_broadcast;    // the join whose broadcast it reads; "" when it runs a job
  /// A dynamicPruning subquery whose join is not a broadcast join in the plan as planned: Spark
  /// drops the pruning filter (no gate).
  bool dropped = false;
  /// The stages of its job (or the reused broadcast stage), by id.
  std::vector<int> stages;
  /// Its job's start (the first gated stage's creation; AQE off: the query's start) and its last
  /// stage's completion (the reused broadcast's), seconds; both 0 when it never ran.
  double start_seconds = 0;
  double complete_seconds = 0;
  /// The stages that waited for it, by id.
  std::vector<int> gated_stages;
};

/// A job that failed (RunResult::job_failure; JSON `jobFailed`).
struct JobFailure {
  std::string stage;   // the simulated stage that stopped ("e1 map")
  int task = 0;        // the task whose failed attempt stopped it
  std::string reason;  // StageResult::failed
  double at_seconds = 0;
};

/// The registered executors' count from `seconds` on (dynamic allocation: one entry per change).
struct ExecutorCountChange {
  double seconds = 0;
  int executors = 0;
};

struct RunResult {
  bool adaptive = false;
  double makespan_seconds = 0;
  std::vector<StageResult> stages;
  std::vector<Decision> decisions;
  /// Why each AQE rule left an exchange or join as it was (explain's `notApplied`).
  std::vector<NotApplied> not_applied;
  std::vector<ExchangeExplain> exchanges;
  std::vector<ReadExplain> reads;
  std::vector<JoinExplain> joins;
  /// The scenario's subqueries, in its order (empty without any).
  std::vector<SubqueryRun> subqueries;
  /// Failures Spark would raise (broadcast too large, broadcast timeout); the run still
  /// reports times.
  std::vector<std::string> failures;
  /// The query's job failed (a stage stopped, StageResult::failed): no later stage ran and the
  /// makespan is its failure time plus the driver's end; the message is also in `failures`.
  std::optional<JobFailure> job_failure;
  std::vector<std::string> warnings;
  /// Named variants that were on (models/conf/variants.h), e.g. "las.exactReducerTotals".
  std::vector<std::string> variants;
  /// Dynamic allocation (spark.dynamicAllocation.enabled, no recorded timeline): the executor
  /// count over time, first entry at 0; empty for a static cluster or a recorded timeline.
  std::vector<ExecutorCountChange> executors;
  /// Dynamic allocation simulated: where the application's allocation manager stands at the
  /// makespan (JSON `allocationAtEnd`; a later query's cluster.allocationAtStart).
  std::optional<AllocationState> allocation_at_end;
  /// Core-hours available / used / idle, the critical path and the ideal time
  /// (resource_usage.h); set by SimulateQuery.
  ResourceUsage resources;
};

/// Frees every stage's task records (64 bytes a task: 640 MB at 10^7) once the caller needs
/// only the stages' summaries.
void DropTaskRecords(RunResult* run);

/// One `subqueries[]` entry of `run --format json` and `explain`.
nlohmann::ordered_json SubqueryRunToJson(const SubqueryRun& q);
/// `runs[]` element of `aqesim run --format json` (tasks included when `with_tasks`).
nlohmann::ordered_json RunToJson(const RunResult& run, bool with_tasks);
/// The `aqesim explain` document for an adaptive run.
nlohmann::ordered_json ExplainToJson(const std::string& scenario_name, const RunResult& run);
/// A stage's `sharedLimits`: storageBoundTasks, storageSecondsAdded, storageBoundFromSeconds /
/// ToSeconds, driverWaitSeconds.
nlohmann::ordered_json SharedLimitsJson(const SharedLimitUse& use);
nlohmann::ordered_json SpecToJson(const ShufflePartitionSpec& spec);
/// One `notApplied` entry of `aqesim explain`: rule, target, reason, message, numbers, atSeconds.
nlohmann::ordered_json NotAppliedToJson(const NotApplied& n);
/// A range exchange's `rangePartitioning` in `explain`, and back (null when `j` is not one
/// RangeSamplingToJson wrote: a member missing or of another type).
nlohmann::ordered_json RangeSamplingToJson(const RangeSampling& r);
std::shared_ptr<const RangeSampling> RangeSamplingFromJson(const nlohmann::json& j);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_RUN_RESULT_H_
