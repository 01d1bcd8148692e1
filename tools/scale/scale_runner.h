// `aqesim scale`: the executor-count what-if (Qubole Sparklens' headline question, with AQE in
// the loop). Each row runs the input at a percentage of its executors: every part of it (a
// scenario, or each replayed SQL execution / job of an event log, tools/validate/replay.h) is
// loaded with `spark.executor.instances = N` given as --conf is (so an imported log's recorded
// executor timeline becomes N executors from the start, its warm JVMs kept) with
// `spark.dynamicAllocation.enabled = false` when the part enables it (a dynamic-allocation
// scenario, or an imported dynamic-allocation log with its timeline: N static executors either
// way, not the policy ramping to its peak) and simulated, AQE deciding on that cluster
// (defaultParallelism follows its cores). A row's figures are its parts' sums (the parts run
// one after the other): makespan (with the cost model's band when a stage is modelled,
// models/cost/defaults_band.h), core-hours available and used, the critical path and the ideal
// time (models/engine/resource_usage.h). For an event log, beside each row, Sparklens' own
// estimate: the recorded task times re-scheduled on N executors with the recorded driver gaps
// (tools/validate/scheduling_floor.h with FloorSelection::executors), which cannot see AQE
// deciding differently.
//
//   N          max(1, round(base × percent ÷ 100)); base = the most executors of a part's cluster
//              (percentages giving the same N share its row, which names them all;
//              a recorded timeline: the most of the default resource profile present at once —
//              executors started for another profile never run the stages; dynamic allocation:
//              the peak the policy reached in the run at the scenario's own settings)
//   rows       computed on `threads` threads, each row on its own: the output does not depend
//              on the thread count
//   decisions  a row whose AQE decisions differ from the row before lists the new ones and the
//              lost ones: there AQE planned differently because of the cluster. Two decisions
//              are the same when their rule, subject (join, exchanges, node) and outcome are
//              (models/aqe/decision_outcome.h, as `aqesim compare` pairs its runs' decisions):
//              the decision's fields but its inputs (fields in bytes — targets, thresholds,
//              medians, the advisory size —, minNumPartitions, a why-not's numbers, its time).
//              A decision taken in one row only counts, so does one lost (q72's e1 coalesced at
//              4 executors, not at 6); a coalescing 200 → 40 whose target moved does not
//   rises      a row with more executors than the row before and a longer makespan is a rise;
//              its size is the difference of the two makespans (riseSeconds). With the same
//              decisions it is simulated again, with the row before, with each of the model's
//              terms that depend on where tasks run switched off in turn: the executors' start-up
//              (cost executorStartupSeconds, executorStageWarmupSeconds, coldCodeSlowdown at 0:
//              a fresh JVM's first task, a stage's first wave on an executor, code not yet
//              compiled there), then remote shuffle reads (fetch request costs at 0, network and
//              disk at 1p bytes/s: the map output spread over more executors fetched remotely),
//              then reduce-task locality (spark.shuffle.reduceLocality.enabled = false: delay
//              scheduling for the executors holding a reducer's map output), then all three.
//              The first under which the row is no longer slower names the cause; none: the
//              rise is the schedule's (which task runs where and when). A rise explained is
//              still a rise: scale prints each one, with its row, size and cause
//   fastest    the row of the least makespan; "within 5 % / 10 %": the fewest executors whose
//              makespan is at most 1.05 / 1.10 × the fastest; "faster and cheaper": of the rows
//              with both a shorter makespan and fewer core-hours available than the base row, the
//              one of fewest core-hours (a count that beats the current one on both); "balanced":
//              the row of the least makespan × core-hours available (time and cost weighed alike:
//              a row twice as fast for twice the core-hours is as good, one 15 % faster for 2.5×
//              the core-hours is not) — the count to pick when both matter
#ifndef AQESIM_TOOLS_SCALE_SCALE_RUNNER_H_
#define AQESIM_TOOLS_SCALE_SCALE_RUNNER_H_

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/cost/defaults_band.h"
#include "models/engine/run_time_source.h"
#include "models/scenario/scenario.h"
#include "tools/eventlog/recorded_application.h"
#include "tools/validate/scheduling_floor.h"

namespace aqesim::scale {

/// Sparklens' default percentages of the executors.
inline const std::vector<double> kDefaultPercents = {10, 20, 50, 80, 100, 150, 200, 300, 500};

/// One simulated part of the input.
struct ScalePart {
  std::string label;  // the scenario's path, or "LOG (SQL execution 0)"
  /// Put before its decisions when the input has several parts ("SQL execution 0: "); "" for one.
  std::string decision_prefix;
  nlohmann::json document;  // the scenario document
  ConfOverrides overrides;  // --conf, --properties-file, --cost
  /// An event log's selection: its recorded window, for Sparklens' estimate.
  std::optional<validate::FloorSelection> floor;
};

struct ScaleSpec {
  std::vector<ScalePart> parts;
  /// The event log the parts came from (Sparklens' estimate), or null for a scenario.
  const eventlog::RecordedApplication* app = nullptr;
  std::vector<double> percents = kDefaultPercents;
  /// How `percents` were given, for messages ("--percent 100,500"); empty: the defaults.
  std::string percents_option;
  /// AQE on or off in every row; nullopt: as each part's configuration says.
  std::optional<bool> adaptive;
  int threads = 0;  // 0: the machine's cores
  /// Called once per row simulated, with the number of rows (from the row's thread), e.g. for
  /// progress; may be empty.
  std::function<void(size_t rows)> row_done;
};

struct ScaleRow {
  double percent = 0;  // the first of `percents`
  /// Every percentage this executor count stands for, in the order given: percentages that
  /// round to the same count share one row (10 % and 20 % of 4 executors are both 1).
  std::vector<double> percents;
  int executors = 0;
  double makespan_seconds = 0;
  std::optional<MakespanBand> band;  // when a stage is modelled or resized
  /// Its parts' stages by how they were timed (models/engine/run_time_source.h): the row's
  /// timeSource, TimeSourceLabel(stage_times).
  StageTimeCounts stage_times;
  double available_core_hours = 0;
  double used_core_hours = 0;
  double critical_path_seconds = 0;
  std::optional<MakespanBand> critical_path_band;
  double ideal_seconds = 0;
  std::optional<MakespanBand> ideal_band;
  std::optional<double> sparklens_seconds;  // an event log: recorded task times re-scheduled
  /// Every AQE decision, "Rule: message" ("CoalesceShufflePartitions: coalesced 200 → 12 ..."),
  /// in run order.
  std::vector<std::string> decisions;
  /// Decisions whose outcome (rule, subject, what it did — not the targets or thresholds it
  /// compared against) is in this row but not in the one before (empty for the first row)...
  std::vector<std::string> decisions_changed;
  /// ... and in the row before but not in this one (a decision lost, or its old outcome).
  std::vector<std::string> decisions_replaced;
  /// How many decisions (rule and subject: a join, exchanges) are in either list: 0 = "same".
  int decisions_changed_count = 0;
  /// More executors than the row before and a longer makespan: by how many seconds (see
  /// "rises" above); 0 otherwise.
  double rise_seconds = 0;
  /// A rise with the same decisions: what makes the row slower (see "rises" above), e.g.
  /// "executor start-up: the added executors' fresh JVMs, ...".
  std::optional<std::string> rise_cause;
  double utilization() const { return available_core_hours > 0 ? used_core_hours / available_core_hours : 0; }
};

struct ScaleResult {
  int base_executors = 0;
  int executor_cores = 0;
  bool adaptive = true;             // AQE in the first part's runs
  bool dynamic_allocation = false;  // a part's own configuration enabled it (rows run static)
  bool timeline_replaced = false;   // a part had a recorded executor timeline
  /// An event log: the recorded wall time of its replayed selections, summed (seconds), on the
  /// executors it had as they came and went (the rows have theirs from the start).
  std::optional<double> recorded_seconds;
  std::string time_source;  // "profiled", "modelled" or "mixed" (the stages' timeSource)
  std::vector<ScaleRow> rows;
  size_t critical_path_row = 0;  // the row with the shortest critical path
  size_t fastest = 0;            // the row with the least makespan
  size_t within_5_percent = 0;   // the fewest executors within 5 % of the fastest
  size_t within_10_percent = 0;
  /// The row of fewest core-hours among those both faster and with fewer core-hours available
  /// than the base row (BaseRow): a count that beats the current one on both; none when no row does.
  std::optional<size_t> faster_and_cheaper;
  size_t balanced = 0;  // the least makespan × core-hours available (the top of this file)
  /// Distinct load and run warnings, except those the rows' executor counts cause (the
  /// replaced timeline, more warm executors than the row has).
  std::vector<std::string> warnings;
};

/// "10 %" or "10, 20 %": the percentages a row stands for.
std::string PercentsText(const ScaleRow& row);

/// Sets the answers from the rows: `fastest`, `critical_path_row`, `within_5_percent`,
/// `within_10_percent`, `faster_and_cheaper` and `balanced` (see the top of this file; the first row on
/// ties).
void MarkAnswers(ScaleResult* result);

/// The row the single-cluster figures (idealSeconds) are read at: the one with the base's
/// executor count, else the closest to it.
size_t BaseRow(const ScaleResult& r);

/// Runs every row. Never throws on bad input: a part that cannot load or run at some row sets
/// `*errors` (its diagnostics, "FILE: /pointer: message", each once) and returns nullopt.
std::optional<ScaleResult> RunScale(const ScaleSpec& spec, std::vector<std::string>* errors);

}  // namespace aqesim::scale

#endif  // AQESIM_TOOLS_SCALE_SCALE_RUNNER_H_
