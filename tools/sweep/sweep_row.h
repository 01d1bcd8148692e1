// One row of a sweep: a grid point's swept values and what its simulation produced, with
// the canonical text forms the sweep writes (CSV line, one-line JSON object) and reads back
// (journal lines, shard outputs), so that a row renders to the same bytes however it was
// obtained (computed now, resumed from the journal, or merged from a shard).
//
// Columns, in order: point, the swept keys (in --grid order), then kMetricColumns, then
// error. Seconds are written with 6 decimals, ratios with 4, counts and bytes as integers;
// a point that could not be simulated has empty metric cells (CSV) / null (JSON) and a
// one-sentence `error`.
#ifndef AQESIM_TOOLS_SWEEP_SWEEP_ROW_H_
#define AQESIM_TOOLS_SWEEP_SWEEP_ROW_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/engine/run_result.h"

namespace aqesim::sweep {

/// What one point's two simulations (AQE off for reference, AQE on) produced. Everything
/// except `makespan_seconds_aqe_off` describes the AQE-on run.
struct PointMetrics {
  double makespan_seconds_aqe_on = 0;
  double makespan_seconds_aqe_off = 0;
  int64_t stages = 0;
  int64_t tasks = 0;
  int64_t spill_bytes = 0;
  double longest_task_seconds = 0;
  /// CoalesceShufflePartitions decisions that changed a read.
  int64_t coalescings = 0;
  /// Partitions split by OptimizeSkewedJoin (left + right skewed partitions) and by
  /// OptimizeSkewInRebalancePartitions.
  int64_t skew_splits = 0;
  /// Runtime JoinSelection decisions to BroadcastHashJoin (planning-time ones excluded).
  int64_t broadcast_conversions = 0;
  /// Worst stage's max ÷ median task seconds that its data explains: the executors' start-up
  /// tasks left out of the max (models/engine/task_spread.h; 1 for stages of one task).
  double max_task_skew_ratio = 0;
  /// Failures Spark would raise in the AQE-on run (broadcast too large, timeout).
  int64_t failures = 0;
};

struct SweepRow {
  uint64_t point = 0;
  std::vector<std::string> values;      // one per swept key, as given on --grid
  std::optional<PointMetrics> metrics;  // nullopt when the point failed (see error)
  std::string error;
};

/// Metric column names (JSON member names and CSV headers), in output order.
const std::vector<std::string>& MetricColumns();

/// Builds a point's metrics from its AQE-off and AQE-on runs.
PointMetrics MetricsFromRuns(const RunResult& aqe_off, const RunResult& aqe_on);

/// "point,KEY1,KEY2,...,makespanSecondsAqeOn,...,error"
std::string CsvHeader(const std::vector<std::string>& keys);
/// The row as one CSV line (no newline); fields quoted as RFC 4180 requires.
std::string RowToCsv(const SweepRow& row);
/// The row as a one-line JSON object (no newline):
/// {"point":0,"values":{"KEY":"VALUE",...},"makespanSecondsAqeOn":1.500000,...,"error":null}
std::string RowToJsonLine(const SweepRow& row, const std::vector<std::string>& keys);
/// Parses what RowToJsonLine wrote (keys must match); nullopt with `*error` when malformed.
std::optional<SweepRow> RowFromJson(const nlohmann::json& j, const std::vector<std::string>& keys,
                                    std::string* error);

/// Reads back the fields of a line RowToCsv wrote (point, one value per key, the metrics,
/// error): every cell must be as the sweep writes it (seconds with 6 decimals, ratios with 4,
/// non-negative integers; all metrics empty exactly when error is not), so that "nan", "-1"
/// or "1e5" are refused. nullopt with `*error` (one sentence) otherwise.
std::optional<SweepRow> RowFromCsv(const std::vector<std::string>& fields, size_t num_keys,
                                   std::string* error);

/// Splits one CSV line into fields (RFC 4180 quoting); nullopt when a quote is unbalanced.
std::optional<std::vector<std::string>> SplitCsvLine(std::string_view line);

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_SWEEP_ROW_H_
