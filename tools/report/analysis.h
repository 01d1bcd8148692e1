// Analysis behind the report: skew severity of stages, and the facts about a run that the
// recommendation rules (tools/report/recommend.h) work from.
#ifndef AQESIM_TOOLS_REPORT_ANALYSIS_H_
#define AQESIM_TOOLS_REPORT_ANALYSIS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/aqe/not_applied.h"
#include "models/conf/spark_conf.h"
#include "models/engine/run_result.h"
#include "tools/report/report_input.h"

namespace aqesim::report {

/// Dr. Elephant's severity bands for a skew ratio (max ÷ median task seconds):
/// < 1.33 none, [1.33, 1.78) low, [1.78, 3.16) moderate, [3.16, 10) severe, >= 10 critical.
enum class Severity { kNone, kLow, kModerate, kSevere, kCritical };
inline constexpr double kSeverityLow = 1.33;
inline constexpr double kSeverityModerate = 1.78;
inline constexpr double kSeveritySevere = 3.16;
inline constexpr double kSeverityCritical = 10.0;

Severity SeverityOf(double skew_ratio);
std::string_view SeverityName(Severity s);  // "none", "low", "moderate", "severe", "critical"

/// One stage of a run, as the report's table shows it.
struct StageRow {
  int id = 0;
  std::string name;
  int tasks = 0;
  double duration_seconds = 0;
  double task_median_seconds = 0;
  double task_max_seconds = 0;
  double skew_ratio = 0;  // max ÷ median task seconds (1 for uniform; 0 without tasks)
  /// The spread the data explains: skew_ratio without the executors' start-up tasks
  /// (models/engine/task_spread.h); skew_ratio when the run has no task list.
  double data_skew_ratio = 0;
  /// The slowest task is a start-up task and the data explains a lower severity than skew_ratio.
  bool startup_spread = false;
  Severity severity = Severity::kNone;  // of data_skew_ratio
  int64_t spill_bytes = 0;
  int64_t shuffle_read_bytes = 0;
  std::vector<std::string> reads;  // exchange ids
};

/// The stages of a run.
std::vector<StageRow> StageRows(const RunResult& run);

/// Decision counts of a run (the sweep's counting: sweep_row.h).
struct DecisionCounts {
  int coalescings = 0;
  int skew_splits = 0;
  int broadcast_conversions = 0;
  int local_reads = 0;
};
DecisionCounts CountDecisions(const RunResult& run);

/// What the rules know about one shuffle (exchange).
struct ShuffleFacts {
  std::string id;
  int num_partitions = 0;
  std::string map_status;  // "CompressedMapStatus", "HighlyCompressedMapStatus", ...
  int64_t true_total_bytes = 0;
  int64_t true_max_bytes = 0;
  int64_t true_median_bytes = 0;
  int64_t seen_max_bytes = 0;  // as the driver sees them (MapStatus)
  int64_t seen_median_bytes = 0;
  /// Worst max÷median task seconds the data explains (StageRow::data_skew_ratio) among the
  /// stages reading this shuffle, per run.
  double read_skew_ratio_aqe_off = 0;
  double read_skew_ratio_aqe_on = 0;
  int64_t read_spill_bytes_aqe_off = 0;
  int64_t read_spill_bytes_aqe_on = 0;
  /// The AQE-on read of this shuffle (explain's reads, the last one): tasks, how many read a
  /// piece of a split partition, the largest task's true bytes and whether it is such a piece,
  /// and the median task's true bytes. 0 / false without explain data.
  int aqe_on_read_tasks = 0;
  int aqe_on_split_tasks = 0;
  int64_t aqe_on_largest_task_bytes = 0;
  bool aqe_on_largest_task_split = false;
  int64_t aqe_on_median_task_bytes = 0;
  /// Whether the job fixes its partition count (plan_partitioning.h); nullopt when the input
  /// has no plan.
  std::optional<bool> partitions_fixed;
  /// A fixed-count shuffle that a shuffle join ties this configured one to; "" when none.
  std::string pinned_by;
};

/// A broadcast hash join's build side.
struct BroadcastFacts {
  std::string join;
  int64_t build_bytes = 0;
};

/// Everything the recommendation rules read.
struct TuningFacts {
  SqlConf conf;  // typed view of the configuration (defaults when unknown)
  bool conf_known = false;
  int64_t executor_memory_bytes = 0;  // 0 when unknown
  int total_cores = 0;                // 0 when unknown
  double makespan_seconds_aqe_off = 0;
  double makespan_seconds_aqe_on = 0;
  bool has_aqe_off = false;
  bool has_aqe_on = false;
  int skew_splits_aqe_on = 0;
  /// Why each AQE rule left an exchange or join as it was in the AQE-on run (explain's notApplied).
  std::vector<NotApplied> not_applied;
  std::vector<ShuffleFacts> shuffles;
  std::vector<BroadcastFacts> broadcasts;
  /// Each join's strategy as the AQE-on run executed it (explain's joins: "SortMergeJoin", ...).
  std::map<std::string, std::string> join_final_strategies;
  /// The worst stage of the runs given (AQE off and on): highest max÷median task seconds the
  /// data explains (StageRow::data_skew_ratio), and the spill of all stages; for a diagnosis
  /// when no shuffle facts are known.
  std::string worst_stage;
  double worst_stage_skew_ratio = 0;
  /// The highest max÷median task seconds of a stage whose slowest tasks are its executors'
  /// start-up tasks (StageRow::startup_spread), and that stage; 0 / "" when none.
  /// The AQE-on run's stage with the highest max÷median the data explains, and its ratio; and
  /// its longest stage and seconds ("" / 0 without an AQE-on run): what limits it now.
  std::string worst_aqe_on_stage;
  double worst_aqe_on_skew_ratio = 0;
  std::string longest_aqe_on_stage;
  double longest_aqe_on_seconds = 0;
  double worst_startup_skew_ratio = 0;
  double worst_startup_data_ratio = 0;  // that stage's data_skew_ratio
  std::string worst_startup_stage;
  int64_t spill_bytes = 0;
};

/// Collects the facts of a single-configuration input (InputKind::kRun).
TuningFacts FactsFromInput(const ReportInput& input);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_ANALYSIS_H_
