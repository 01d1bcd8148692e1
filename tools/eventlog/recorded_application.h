// RecordedApplication: what one Spark event log says about an application run — cluster,
// configuration, jobs, the stage DAG, tasks, SQL plans and the AQE decisions Spark took.
// Built by replaying SparkListener events (listener_event_replay.h; core/.../util/JsonProtocol.scala
// writes them, sql/core/.../execution/ui/SQLListener.scala the SQL ones), then reconstructing
// what they imply (application_reconstruction.h).
//
// Units: times are ms since the epoch (`*_time_ms`) or ms (`*_ms`); CPU and shuffle-write
// times are ns (`*_ns`); sizes are bytes (`*_bytes`).
#ifndef AQESIM_TOOLS_EVENTLOG_RECORDED_APPLICATION_H_
#define AQESIM_TOOLS_EVENTLOG_RECORDED_APPLICATION_H_

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/units.h"
#include "tools/eventlog/event_log_error.h"
#include "tools/eventlog/sql_plan_info.h"

namespace aqesim::eventlog {

struct RecordedTask {
  int64_t task_id = 0;
  int stage_id = 0;
  int stage_attempt = 0;
  int index = 0;           // Task Info.Index: the partition (map index / reducer / AQE spec index)
  int attempt = 0;         // Task Info.Attempt
  std::string task_type;   // "ShuffleMapTask", "ResultTask"
  std::string end_reason;  // Task End Reason.Reason: "Success", "ExceptionFailure", "TaskKilled", ...
  /// Task End Reason "Exit Caused By App" of an ExecutorLostFailure (Spark's default: true).
  bool exit_caused_by_app = true;
  bool successful = false;
  bool speculative = false;
  std::string executor_id;
  std::string locality;  // Task Info.Locality: "PROCESS_LOCAL", "NODE_LOCAL", "RACK_LOCAL", "ANY"
  int64_t launch_time_ms = 0;
  int64_t finish_time_ms = 0;
  int64_t executor_run_time_ms = 0;
  int64_t executor_deserialize_time_ms = 0;
  int64_t result_serialization_time_ms = 0;
  int64_t getting_result_time_ms = 0;
  int64_t jvm_gc_time_ms = 0;
  /// Task Metrics "Result Size": bytes of the serialized result sent to the driver (a result
  /// task's rows, e.g. a broadcast build's collected rows, plus its metric updates).
  int64_t result_size_bytes = 0;
  int64_t executor_cpu_time_ns = 0;
  int64_t input_bytes = 0;
  int64_t input_records = 0;
  /// Shuffle read. Push-based merged bytes are a subset of remote/local bytes in Spark's
  /// ShuffleReadMetrics, so they are not added again.
  int64_t shuffle_remote_bytes_read = 0;
  int64_t shuffle_local_bytes_read = 0;
  int64_t shuffle_records_read = 0;
  int64_t remote_blocks_fetched = 0;
  int64_t local_blocks_fetched = 0;
  int64_t fetch_wait_time_ms = 0;
  int64_t shuffle_bytes_written = 0;
  int64_t shuffle_records_written = 0;
  int64_t shuffle_write_time_ns = 0;
  int64_t output_bytes = 0;
  int64_t memory_bytes_spilled = 0;
  int64_t disk_bytes_spilled = 0;
  /// Numeric per-task updates of SQL metrics (`Accumulables` with Metadata "sql", or any
  /// accumulable not named "internal.metrics.*"): (accumulator id, update).
  std::vector<std::pair<int64_t, int64_t>> sql_metric_updates;

  /// Finish − Launch Time, saturating at the int64 limits.
  int64_t wall_ms() const { return SaturatingSub(finish_time_ms, launch_time_ms); }
  /// Remote + local bytes read, saturating (a corrupt log's values must not wrap).
  int64_t shuffle_bytes_read() const {
    return SaturatingAdd(shuffle_remote_bytes_read, shuffle_local_bytes_read);
  }
};

struct RecordedStage {
  int stage_id = 0;
  std::string declared_at;  // FILE:LINE of the first event describing it (its Stage Info)
  std::string name;
  int num_tasks = 0;
  /// FILE:LINE of the first Stage Info saying "Number of Tasks": 0 (empty: none did). A positive
  /// count of another event is kept over it; with none, the tasks that ran give the count
  /// (ReconstructStages, with a warning naming this line).
  std::string zero_tasks_at;
  std::vector<int> parent_ids;
  std::vector<int64_t> rdd_ids;  // RDD Info[].RDD ID, as listed
  /// First attempt's submission, last attempt's completion.
  std::optional<int64_t> submission_time_ms;
  std::optional<int64_t> completion_time_ms;
  std::optional<std::string> failure_reason;  // of the last failed attempt
  int attempts = 0;                           // StageSubmitted events seen
  std::optional<int> job_id;                  // the first job that listed it
  std::optional<int64_t> execution_id;        // the job's spark.sql.execution.id
  /// False: listed by a job but never submitted (a skipped stage).
  bool submitted = false;
  /// Skipped stage: the executed stage computing the same RDDs.
  std::optional<int> executed_as;
  /// True when its tasks are ShuffleMapTasks.
  bool shuffle_map = false;
  /// Stage Info "Resource Profile Id" (3.1+): it runs only on executors of that profile.
  int resource_profile_id = 0;

  std::vector<RecordedTask> tasks;  // every task attempt, in log order
  // Totals over successful task attempts.
  int successful_tasks = 0;
  int64_t input_bytes = 0;
  int64_t shuffle_read_bytes = 0;
  int64_t shuffle_write_bytes = 0;
  int64_t result_bytes = 0;  // Σ Result Size
  int64_t shuffle_records_written = 0;
  int64_t executor_run_time_ms = 0;
  /// Bytes written by map task `i` (= Task Info.Index), from the successful ShuffleMapTask
  /// attempt; size num_tasks (0 where no successful attempt was logged).
  std::vector<int64_t> map_output_bytes;
  /// Map indexes with no successful attempt logged (event loss or a truncated log).
  std::vector<int> missing_map_indexes;

  std::optional<int64_t> duration_ms() const {
    if (!submission_time_ms || !completion_time_ms) return std::nullopt;
    return *completion_time_ms - *submission_time_ms;
  }
};

struct RecordedJob {
  int job_id = 0;
  std::optional<int64_t> submission_time_ms;
  std::optional<int64_t> completion_time_ms;
  std::vector<int> stage_ids;
  std::string result;  // "JobSucceeded", "JobFailed", "" when no JobEnd
  std::optional<int64_t> execution_id;
  std::string description;  // spark.job.description
  std::string pool;         // spark.scheduler.pool ("" when not set: the default pool)
};

struct RecordedExecutor {
  std::string executor_id;
  std::string host;
  int total_cores = 0;
  int64_t added_time_ms = 0;
  std::optional<int64_t> removed_time_ms;
  std::string removed_reason;
  int resource_profile_id = 0;  // Executor Info "Resource Profile Id" (3.1+)
};

/// A stage-level resource profile (SparkListenerResourceProfileAdded, 3.1+): what each of its
/// executors has and what each task takes.
struct RecordedResourceProfile {
  int id = 0;
  std::optional<int> executor_cores;
  std::optional<int64_t> executor_memory_mib;
  std::optional<double> executor_gpus;  // "gpu" executor resource amount
  std::optional<double> task_cpus;
  std::optional<double> task_gpus;
};

struct RecordedSqlExecution {
  int64_t execution_id = 0;
  std::string description;
  std::optional<int64_t> start_time_ms;
  std::optional<int64_t> end_time_ms;
  /// plans[0] = SQLExecutionStart's plan, then one per SQLAdaptiveExecutionUpdate (the last
  /// is the final plan). physical_descriptions are the matching physicalPlanDescription texts.
  std::vector<SqlPlanNode> plans;
  std::vector<std::string> physical_descriptions;
  /// DriverAccumUpdates: accumulator id -> values, in log order.
  std::map<int64_t, std::vector<int64_t>> driver_updates;
  std::vector<int> job_ids;
  /// True when the plan holds an AdaptiveSparkPlan node (AQE was on for this query).
  bool adaptive() const;
};

/// One AQEShuffleRead (3.2+) / CustomShuffleReader (3.0-3.1) node of a final plan.
struct RecordedShuffleRead {
  int64_t execution_id = 0;
  std::string node_name;      // "AQEShuffleRead" / "CustomShuffleReader"
  std::string simple_string;  // "AQEShuffleRead coalesced"
  bool coalesced = false, skewed = false, local = false;
  std::optional<int64_t> num_partitions;
  std::optional<int64_t> num_coalesced_partitions;
  std::optional<int64_t> num_skewed_partitions;
  std::optional<int64_t> num_skewed_splits;
  std::vector<int64_t> partition_data_sizes_bytes;  // one per output partition, spec order
  /// The exchange it reads: simpleString and its "shuffle bytes written" accumulator id.
  std::string exchange_simple_string;
  std::optional<int64_t> exchange_write_metric_id;
};

/// A join of an adaptive execution: strategy planned first vs. in the final plan.
struct RecordedJoin {
  int64_t execution_id = 0;
  std::string key;               // normalised "[keys], [keys], JoinType"
  std::string initial_strategy;  // "SortMergeJoin", ...
  std::string final_strategy;
  bool is_skew_join = false;
};

struct RecordedApplication {
  std::string path;
  std::vector<std::string> files;  // files read (several for a rolling log)
  std::optional<std::string> spark_version;
  std::string app_id;
  std::string app_name;
  std::optional<int64_t> start_time_ms;
  std::optional<int64_t> end_time_ms;  // absent: incomplete log
  std::map<std::string, std::string> spark_properties;
  std::map<std::string, std::string> property_where;  // key -> FILE:LINE of the update that set it
  /// Resource profile 0 (3.1+): executor cores / memory (MiB) / task cpus.
  std::optional<int> profile_executor_cores;
  std::optional<int64_t> profile_executor_memory_mib;
  /// Every resource profile by id.
  std::map<int, RecordedResourceProfile> resource_profiles;

  std::vector<RecordedExecutor> executors;  // in order of ExecutorAdded
  /// Reconstructed cluster: max concurrent executors (E_max) and cores each (C, the mode).
  int max_concurrent_executors = 0;
  int executor_cores = 0;
  bool local_mode = false;

  std::map<int, RecordedStage> stages;
  std::map<int, RecordedJob> jobs;
  std::map<int64_t, RecordedSqlExecution> executions;
  std::vector<RecordedShuffleRead> shuffle_reads;
  std::vector<RecordedJoin> joins;

  int64_t lines = 0;
  int64_t events = 0;
  int64_t unknown_events = 0;

  /// A Spark property of the log as recorded (the last value set), nullopt when not set.
  std::optional<std::string> spark_property(const std::string& key) const {
    auto it = spark_properties.find(key);
    if (it == spark_properties.end()) return std::nullopt;
    return it->second;
  }
  const RecordedStage* stage(int id) const {
    auto it = stages.find(id);
    return it == stages.end() ? nullptr : &it->second;
  }
  /// The stage that ran `id`'s work: itself when submitted, else executed_as.
  const RecordedStage* executed_stage(int id) const;
  /// Task slots of `executor`: ⌊cores ÷ task cpus⌋, and no more than ⌊gpus ÷ task gpus⌋ when
  /// tasks take GPUs — its resource profile's amounts, else spark.task.cpus and
  /// spark.executor/task.resource.gpu.amount; at least 1.
  int SlotsOf(const RecordedExecutor& executor) const;
  /// When `executor` stopped being offered tasks: its ExecutorRemoved, or — under dynamic
  /// allocation, removed "killed by driver" — when ExecutorAllocationManager decided to remove
  /// it: spark.dynamicAllocation.executorIdleTimeout (default 60 s) after its last task ended
  /// (or its registration), if that is earlier (ExecutorRemoved is logged when the cluster
  /// manager confirms, often seconds later). Sets `estimated` when the idle rule applied.
  std::optional<int64_t> OffersTasksUntilMs(const RecordedExecutor& executor,
                                            bool* estimated = nullptr) const;
  /// Sum of successful shuffle writes of the submitted stages of a job / execution.
  int64_t JobShuffleBytes(int job_id) const;
  int64_t ExecutionShuffleBytes(int64_t execution_id) const;
};

/// Reads and reconstructs an event log (file or rolling directory). Problems that do not
/// prevent reading (truncated last line, garbage lines, unknown events, missing end events,
/// event loss) are appended to `warnings` as "FILE:LINE: message" / "FILE: message".
/// Throws EventLogError for unreadable files, corrupt compressed data, or a log without a
/// single event.
RecordedApplication ReadEventLog(const std::string& path, std::vector<std::string>* warnings);

/// The executors that finished, at or before `ms`, a successful task of another SQL execution
/// whose initial plan has the shape of `execution`'s (the same query run again): their JVMs
/// have loaded, compiled and run that code already, so their first tasks of `execution` are
/// not a first wave of cold code. Empty for an execution without a plan.
std::set<std::string> ExecutorsThatRanSameQuery(const RecordedApplication& app,
                                                const RecordedSqlExecution& execution, int64_t ms);

/// Strips a leading "org.apache.spark....": "SparkListenerTaskEnd" from any qualified name.
std::string_view EventShortName(std::string_view event);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_RECORDED_APPLICATION_H_
