// CostParams: every number of the time model, with its unit, default and where the default
// comes from. The formula that uses them is in cost_model.h and README.md "Cost model".
//
// A scenario overrides any of them by its JSON name under `cost` (e.g.
// {"cost": {"taskLaunchSeconds": 0.01}}); `aqesim calibrate` fits them to event logs.
#ifndef AQESIM_MODELS_COST_COST_PARAMS_H_
#define AQESIM_MODELS_COST_COST_PARAMS_H_

#include <string>
#include <string_view>
#include <vector>

namespace aqesim {

/// The defaults of the time parameters that `aqesim calibrate` fits: fitted on the shared
/// public event logs (results/defaults.md: method, values, each log's leave-one-out error),
/// defined with their source in cost_params.cc (kept out of this header: a refit rebuilds one
/// file). README.md "Cost model" lists them.
namespace fitted_defaults {
extern const double kTaskLaunchSeconds;
extern const double kExecutorStartupSeconds;
extern const double kExecutorStageWarmupSeconds;
extern const double kColdCodeSlowdown;
extern const double kColdCodeWindowSeconds;
extern const double kStageOverheadSeconds;
extern const double kReplanSeconds;
extern const double kRemoteFetchRequestSeconds;
extern const double kLocalFetchRequestSeconds;
extern const double kScanSecondsPerByte;
extern const double kShuffleWriteSecondsPerByte;
extern const double kShuffleReadSecondsPerByte;
extern const double kSortSecondsPerByte;
extern const double kHashBuildSecondsPerByte;
extern const double kJoinProbeSecondsPerByte;
extern const double kAggregateSecondsPerByte;
extern const double kStreamSecondsPerByte;
extern const double kReadSecondsPerRow;
extern const double kWriteSecondsPerRow;
extern const double kJoinSecondsPerOutputRow;
}  // namespace fitted_defaults

struct CostParams {
  // --- scheduling ---
  /// Per task: scheduler delay + task deserialization + result serialization, seconds.
  double task_launch_seconds = fitted_defaults::kTaskLaunchSeconds;
  /// Extra time of every task that starts on a fresh executor — one whose JVM has not finished
  /// a task yet (cluster `warmExecutors` / timeline `warm` name those that ran tasks before the
  /// start): JVM class loading, first deserializations, connections (Spark UI: 1–2 s of "Task
  /// Deserialization Time" on the first tasks of a new executor). Seconds.
  double executor_startup_seconds = fitted_defaults::kExecutorStartupSeconds;
  /// Extra time of the first tasks of a stage's code on each executor — every task that starts
  /// on an executor before any task with the same operators (the same generated code) has
  /// finished there: class loading, deserialization, JIT of the generated code (Spark UI: long
  /// "Task Deserialization Time" and run time of the first wave on an executor). Seconds.
  double executor_stage_warmup_seconds = fitted_defaults::kExecutorStageWarmupSeconds;
  /// Slowdown of a stage's code on an executor until that executor has compiled it (see
  /// coldCodeWindowSeconds): the work (every term but the launch) done cold runs (1 + x)
  /// times slower, since the generated code is still interpreted or compiling and classes are
  /// loading. Ratio; 0 = warm executors.
  double cold_code_slowdown = fitted_defaults::kColdCodeSlowdown;
  /// How much of a stage's code's work (seconds at warm speed, summed over an executor's tasks
  /// of that code) runs before the executor has compiled it (the JVM compiles hot code after a
  /// number of calls, counted over its concurrent tasks): the executor pays at most
  /// coldCodeSlowdown × coldCodeWindowSeconds extra per code, however its work is split into
  /// tasks; tasks take the budget in the order they start (the first of concurrent starters
  /// first: a simplification).
  /// Seconds, >= 0; chosen with coldCodeSlowdown. Code-warm executors (`warmCode`) start compiled.
  double cold_code_window_seconds = fitted_defaults::kColdCodeWindowSeconds;
  /// Per stage on the driver: DAGScheduler submission, task-set creation, stage completion
  /// handling, seconds (the gap between a stage's submission and its first task).
  double stage_overhead_seconds = fitted_defaults::kStageOverheadSeconds;
  /// Per AQE re-optimization and query-stage creation on the driver, seconds.
  double replan_seconds = fitted_defaults::kReplanSeconds;

  // --- I/O ---
  /// Per round of remote fetch requests in flight (models/shuffle/fetch_requests.h), seconds:
  /// request round trip + open of the shuffle file segments.
  double remote_fetch_request_seconds = fitted_defaults::kRemoteFetchRequestSeconds;
  /// Per local block read (seek into the shuffle file), seconds.
  double local_fetch_request_seconds = fitted_defaults::kLocalFetchRequestSeconds;

  // --- CPU, seconds per byte (1 / throughput of one core) ---
  /// Scan: read + decode storage format.
  double scan_seconds_per_byte = fitted_defaults::kScanSecondsPerByte;
  /// Shuffle write: serialize + compress + write (UnsafeShuffleWriter).
  double shuffle_write_seconds_per_byte = fitted_defaults::kShuffleWriteSecondsPerByte;
  /// Shuffle read: decompress + deserialize.
  double shuffle_read_seconds_per_byte = fitted_defaults::kShuffleReadSecondsPerByte;
  /// Sort (UnsafeExternalSorter, per byte sorted).
  double sort_seconds_per_byte = fitted_defaults::kSortSecondsPerByte;
  /// Hash-table build (broadcast or shuffled hash join).
  double hash_build_seconds_per_byte = fitted_defaults::kHashBuildSecondsPerByte;
  /// Hash probe / merge join streaming side, per byte.
  double join_probe_seconds_per_byte = fitted_defaults::kJoinProbeSecondsPerByte;
  /// Hash aggregation, per input byte.
  double aggregate_seconds_per_byte = fitted_defaults::kAggregateSecondsPerByte;
  /// Filter / project and other streaming operators, per input byte.
  double stream_seconds_per_byte = fitted_defaults::kStreamSecondsPerByte;

  // --- CPU, seconds per row (record) on one core ---
  /// Per row read from storage or fetched from a shuffle: decode, the stage's per-row
  /// operators (records read are the row-operations of a recorded profile, stage_profile.h).
  double read_seconds_per_row = fitted_defaults::kReadSecondsPerRow;
  /// Per record written to a shuffle file: partitioning, serialization.
  double write_seconds_per_row = fitted_defaults::kWriteSecondsPerRow;
  /// Per row a join outputs (a join that explodes its inputs pays for its output).
  double join_seconds_per_output_row = fitted_defaults::kJoinSecondsPerOutputRow;

  // --- memory and spill ---
  /// In-memory working set ÷ shuffle (compressed) bytes of a sort/hash/aggregate input:
  /// decompressed UnsafeRows are larger than the shuffle files. Default 3.0 (typical
  /// dataSize ÷ shuffle bytes for Snappy/LZ4-compressed rows; also used as the
  /// uncompressed/compressed ratio when an exchange gives no dataSizeBytes).
  double compression_ratio = 3.0;

  // --- broadcast ---
  /// Build of the broadcast relation per executor, seconds per byte. Default 1/150 MB/s.
  double broadcast_build_seconds_per_byte = 1.0 / 150e6;

  // --- driver statistics (MapStatus) ---
  /// Driver time to aggregate one MapStatus block into MapOutputStatistics, seconds.
  /// Default 2e-9 s (a decode + add per cell).
  double map_status_aggregate_seconds_per_block = 2e-9;

  // --- noise ---
  /// Per-task multiplicative noise: duration × exp(N(0, sigma)), seeded by (scenario seed,
  /// stage, task). 0 disables. Default 0.
  double task_noise_sigma = 0.0;

  // --- uncertainty ---
  /// Every modelled task's duration × this (a stage timed by a recorded profile keeps its
  /// times): run, validate and report re-simulate with the band's factors
  /// (models/cost/defaults_band.h) to print how far modelled seconds can be trusted; a sweep
  /// over it asks "what if every task were x times slower". Ratio. Default 1.
  double modelled_time_scale = 1.0;
};

/// One documented parameter: its JSON name, unit, meaning and the range of values that
/// describe a machine (README.md lists them). Values outside [min_value, max_value] are
/// refused wherever a cost parameter is read (a scenario's `cost`, a cost file, a sweep's
/// `cost.` grid) and `calibrate` refuses to write them: a task launch of 10^300 s is no
/// hardware, and it would saturate every simulated time.
struct CostParamInfo {
  std::string_view json_name;  // "taskLaunchSeconds"
  std::string_view unit;       // "s", "s/B", "ratio"
  double CostParams::*field;
  std::string_view doc;
  double min_value = 0;
  double max_value = 0;
};
const std::vector<CostParamInfo>& CostParamRegistry();

/// Seconds of a per-task, per-stage or per-executor overhead: at most an hour.
inline constexpr double kMaxOverheadSeconds = 3600;
/// Seconds per byte of one core's work: at most 1 (a byte a second; the defaults are 1e-9 to 1e-8).
inline constexpr double kMaxSecondsPerByte = 1;
/// Seconds per row of one core's work: at most 1 (a row a second; recorded stages take 0.5-3 µs).
inline constexpr double kMaxSecondsPerRow = 1;

/// "[0, 3600]" — the parameter's range as messages and README.md write it.
std::string CostParamRange(const CostParamInfo& info);
/// Whether `value` is a finite number within the parameter's range.
bool CostParamInRange(const CostParamInfo& info, double value);

}  // namespace aqesim

#endif  // AQESIM_MODELS_COST_COST_PARAMS_H_
