// Turns a RecordedApplication into a scenario (docs/user-contract.md §2) for one SQL
// execution or one job, and records which of its quantities were read from the log and which
// were estimated. ImportScenario picks the selection and assembles the document; each concern
// has its own file:
//   sql_plan_import.h   a SQL execution's initial (pre-AQE) plan, each node matched to the
//                       stage that ran it (sql_stage_index.h), nodes kept: scan, exchange, join,
//                       final aggregate, union;
//   rdd_job_import.h    an RDD job (no SQL plan, e.g. Spark 1.6) from its stage DAG;
//   exchange_sizes.h    every exchange's `sizes`: exact map-output row sums, per-reducer sizes
//                       observed, reconstructed from an AQE read (aqe_read_import.h,
//                       coalesced_read_sizes.h) or uniform;
//   cluster_import.h    executors, cores, memory, executor timeline, warm JVMs;
//   conf_import.h       the Spark keys the simulator reads;
//   import_description.h the description.
// The scenario carries a top-level "estimated" array of JSON pointers (an extension of the
// scenario format) naming every value that was derived rather than read.
#ifndef AQESIM_TOOLS_EVENTLOG_SCENARIO_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_SCENARIO_IMPORT_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/scenario/scenario.h"
#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

struct ImportOptions {
  /// SQL execution to import (`--execution ID`); default: the one with most shuffle bytes.
  std::optional<int64_t> execution_id;
  /// Job to import as an RDD job (`--job ID`); wins over execution_id.
  std::optional<int> job_id;
  /// Scenario name; default: the log's file name without codec extension.
  std::string name;
  /// Add the recorded stage profiles and driver times (stage_profile_import.h); calibration
  /// imports without them (it fits the global cost model).
  bool profiles = true;
};

/// An exchange of the imported plan and what the log says about it.
struct ImportedExchange {
  std::string id;                    // scenario id ("e1", ...)
  std::string pointer;               // JSON pointer of the node in the scenario ("/plan/left")
  std::optional<int> map_stage_id;   // the stage that wrote the shuffle
  std::optional<int> read_stage_id;  // the stage that read it (first, when several)
  int map_tasks = 0;
  int num_partitions = 0;  // reducers as planned (Exchange partitioning / reduce tasks)
  int64_t shuffle_bytes = 0;
  std::optional<int64_t> data_size_bytes;  // uncompressed ("data size" metric)
  bool partition_sizes_observed = false;   // partitionBytes read from the log
  /// Per-reducer sizes reconstructed from an AQE coalesced read's recorded sizes
  /// (coalesced_read_sizes.h): a matrix (or its marginals) listed as estimated.
  bool partition_sizes_reconstructed = false;
  /// MapStatus size ÷ bytes written, estimated from a coalesced read whose driver sizes the
  /// bytes read cannot explain (EstimateReportedSizeRatio); 1 otherwise.
  double reported_size_ratio = 1.0;
  /// AQE reader over it in the final plan: its partition count and kind.
  std::optional<int64_t> recorded_read_partitions;
  std::string recorded_read_kind;  // "coalesced", "skewed", "coalesced and skewed", "local", ""
};

struct ImportedJoin {
  std::string id;
  std::string pointer;
  std::string strategy;           // as written in the scenario (the planned strategy)
  std::string recorded_strategy;  // what Spark ran in the end (after AQE)
  bool recorded_skew_join = false;
  /// Broadcast joins: the recorded stage that ran the build side's scan (and collected it for
  /// the broadcast), when the plan's metrics tie one to it.
  std::optional<int> build_stage_id;
};

/// A subquery of the imported plan (the scenario's `subqueries`, subquery_import.cc): a job whose
/// result scans of the plan wait for.
struct ImportedSubquery {
  std::string id;                  // "sq1", ...
  std::string kind;                // "scalar", "bloomFilter", "dynamicPruning"
  std::vector<std::string> gates;  // scan ids of the plan
  /// A dynamicPruning subquery over a join's broadcast (SubqueryBroadcast): the join's id.
  std::optional<std::string> reuses_broadcast;
  /// The recorded stage that ran its plan's final operators ("<id> result"), when one did.
  std::optional<int> result_stage_id;
};

struct ImportedScenario {
  nlohmann::json scenario;             // the scenario document, "estimated" included
  std::vector<std::string> estimated;  // same as scenario["estimated"]
  std::string selection;               // "SQL execution 0" / "job 0"
  std::optional<int64_t> execution_id;
  std::optional<int> job_id;
  std::vector<int> stage_ids;               // submitted stages of the selection, ascending
  std::vector<ImportedExchange> exchanges;  // in pre-order of the plan (id order)
  std::vector<ImportedJoin> joins;
  std::vector<ImportedSubquery> subqueries;
  /// The reducer count the execution's exchanges that Spark counts from the configuration ran
  /// at, with the key it comes from (spark.sql.shuffle.partitions, or initialPartitionNum when
  /// the properties set that under AQE), when the log's Spark Properties say otherwise (set in
  /// the session): the scenario's conf carries it.
  std::optional<std::pair<std::string, int>> session_partitions;
  /// Duration of the selection as recorded (execution start -> end, or job submit -> end).
  std::optional<int64_t> recorded_duration_ms;
};

/// Builds the scenario. Throws EventLogError when the selection does not exist or the log
/// holds nothing importable. Non-fatal notes go to `warnings`.
ImportedScenario ImportScenario(const RecordedApplication& app, const ImportOptions& options,
                                std::vector<std::string>* warnings);

/// The default scenario name for a log path: file name without directories and codec
/// extension ("aqeshuffle_eventlog.zstd" -> "aqeshuffle_eventlog").
std::string DefaultScenarioName(const std::string& path);

/// Where in the log a value at `pointer` of the imported scenario came from, when the log says:
/// "FILE:LINE: Spark Properties: KEY" for /conf/KEY holding the property as recorded; "" otherwise.
std::string LogPlaceOf(const RecordedApplication& app, const nlohmann::json& scenario,
                       const std::string& pointer);

/// Each of `diagnostics` (the loader's, on `scenario` imported from `app`) whose pointer LogPlaceOf
/// places in the log is named there instead: file = "FILE:LINE: Spark Properties: KEY", no pointer.
void PlaceDiagnosticsInLog(const RecordedApplication& app, const nlohmann::json& scenario,
                           std::vector<Diagnostic>* diagnostics);

/// Escapes one JSON-pointer reference token ("~" -> "~0", "/" -> "~1").
std::string JsonPointerToken(const std::string& token);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_SCENARIO_IMPORT_H_
