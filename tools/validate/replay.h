// Replay of a recorded Spark application: every SQL execution (or, for an application
// without SQL, every job) that ran stages is imported (tools/eventlog/scenario_import.h),
// simulated with its own configuration and cluster (AQE on or off as recorded), and compared
// with the log, stage by stage and decision by decision. `aqesim validate` prints it;
// `aqesim calibrate` (calibration.h) fits cost parameters on the same matching.
//
// Stage matching (simulated StageResult.name ↔ recorded Stage ID), per replayed selection:
//   "eN map"        ↔ the stage that wrote exchange eN (ImportedExchange.map_stage_id: the
//                     stage whose tasks updated the exchange's "shuffle bytes written"
//                     metric; for RDD jobs the parent stage). When two simulated exchanges
//                     name the same recorded stage (a ReusedExchange imported twice), the
//                     first claims it and the second stays unmatched.
//   "sqN result"    ↔ the stage that ran subquery sqN's top operator
//                     (ImportedSubquery.result_stage_id; its exchanges are "eN map" above).
//   "result"        ↔ the highest-numbered submitted stage of the selection not claimed above.
//   "jN broadcast"  ↔ the remaining submitted stages, lowest id first, in simulated stage order.
// Recorded stages left over, and simulated stages without a partner, are listed with the other
// side absent; they do not enter the median.
//
// Makespan: the sum, over the replayed selections, of their wall time — SQL execution
// start → end (SQLExecutionStart.time → SQLExecutionEnd.time) or job submission → completion,
// recorded_window.h — against the sum of the simulated makespans. A selection without an end
// event takes its last task end (a warning says so); one cut mid-stage (a truncated log) has no
// recorded duration and is left out of both sums (a warning says so). Application time outside
// them (JVM and executor start-up, driver-only code, idle time) is not modelled; it is reported
// as `applicationSeconds` (recorded) beside the makespan.
//
// Floor: every selection and stage is also replayed from its recorded task times on the
// recorded executors (scheduling_floor.h); `floorSeconds` / `floorRelativeError` (floor vs
// recorded) stand beside the simulated figures: the error no time model can avoid.
//
// --profile-from A (ReplayOptions::profile_from): each selection is imported without its own
// profiles and timed with A's (profile_graft.h: stages matched by plan shape); every stage
// says which of A's stages timed it, or "modelled".
//
// Errors: relative error = (simulated − recorded) ÷ recorded.
#ifndef AQESIM_TOOLS_VALIDATE_REPLAY_H_
#define AQESIM_TOOLS_VALIDATE_REPLAY_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/engine/run_result.h"
#include "models/scenario/scenario.h"
#include "models/scenario/scenario_base.h"
#include "tools/eventlog/recorded_application.h"
#include "tools/eventlog/scenario_import.h"
#include "tools/validate/profile_graft.h"
#include "tools/validate/recorded_window.h"
#include "tools/validate/scheduling_floor.h"

namespace aqesim::validate {

/// A simulated stage and the recorded stage it stands for.
struct StageMatch {
  std::string simulated_name;             // "e1 map", "result", "j1 broadcast"
  std::optional<size_t> simulated_index;  // index into RunResult.stages
  std::optional<int> recorded_stage_id;
  std::string role;  // "map", "result", "broadcast", "subquery", "unmatched"
};

/// One replayed SQL execution or job.
struct ReplayedSelection {
  eventlog::ImportedScenario imported;
  /// The scenario document simulated: imported.scenario without "estimated", with the cost
  /// overrides merged into "cost".
  nlohmann::json document;
  /// imported.scenario without "estimated", read once (models/scenario/scenario_base.h): every
  /// simulation of the selection — with the cost of `validate`, of each candidate of
  /// `calibrate`, of the band's scales — builds on it with the cost as field overrides.
  std::shared_ptr<const ScenarioBase> base;
  std::string label;  // "SQL execution 0", "job 0"
  RecordedWindow window;
  std::optional<double> recorded_seconds;  // window.seconds()
  std::optional<FloorResult> floor;        // when the window is known
  bool adaptive = false;
  bool ok = false;
  std::string error;  // why it could not be simulated (loader diagnostics, plan error)
  RunResult run;
  std::vector<StageMatch> matches;
  /// With --profile-from: which of A's stages gave each simulated stage its profile.
  GraftResult graft;
};

struct StageComparison {
  std::string selection;        // "SQL execution 0"
  std::optional<int> stage_id;  // recorded
  std::string name;             // recorded stage name ("count at <console>:25")
  std::string simulated_name;   // "e1 map"
  std::string role;
  std::string time_source;           // the simulated stage's: "profiled" | "modelled" ("" when none)
  std::optional<double> resized_by;  // the simulated stage's StageResult::resized_by
  /// With --profile-from: A's stage whose profile timed it ("SQL execution 0: e1 map (stage 3)"),
  /// "modelled" when none matched; "" without --profile-from or without a simulated stage.
  std::string profile_from;
  int recorded_tasks = 0;
  int simulated_tasks = 0;
  std::optional<double> recorded_seconds;
  std::optional<double> simulated_seconds;
  std::optional<double> relative_error;
  std::optional<double> floor_seconds;         // the recorded stage re-scheduled (scheduling_floor.h)
  std::optional<double> floor_relative_error;  // (floor − recorded) ÷ recorded
  /// Failed and resubmitted attempts (tools/eventlog/failed_attempts_import.h): the recorded
  /// stage's task attempts that left no output, by reason ("FetchFailed" → 2), its attempts
  /// (StageSubmitted events) and failure reason ("" when it completed); the simulated stage's
  /// failed attempts and how it stopped (StageResult::failed_attempts, failed).
  std::map<std::string, int> recorded_failed_attempts;
  int recorded_stage_attempts = 1;
  std::string recorded_failure;
  int simulated_failed_attempts = 0;
  std::string simulated_failed;
  /// True when the stage had a failed or resubmitted attempt, recorded or simulated.
  bool HadFailures() const {
    return !recorded_failed_attempts.empty() || recorded_stage_attempts > 1 || !recorded_failure.empty() ||
           simulated_failed_attempts > 0 || !simulated_failed.empty();
  }
};

struct DecisionComparison {
  std::string kind;  // "AQEShuffleRead" (also when Spark's node was a CustomShuffleReader), "JoinStrategy"
  std::string selection;
  std::string subject;      // scenario id: exchange "e2" / join "j1"
  std::string description;  // the exchange's map stage / the join's planned strategy
  int planned_partitions = 0;
  std::optional<int64_t> recorded_partitions;
  std::optional<int64_t> simulated_partitions;
  std::string recorded_kind;  // AQE reader kind ("coalesced", ...) / recorded final strategy
  std::string simulated;      // simulated final strategy (joins)
  bool match = false;
};

struct Validation {
  std::string log;
  std::optional<std::string> spark_version;
  std::string basis;  // "sqlExecutions" or "jobs"
  /// With --profile-from: the log whose profiles timed the stages.
  std::optional<std::string> profile_from;
  double recorded_makespan_seconds = 0;
  double simulated_makespan_seconds = 0;
  std::optional<double> makespan_relative_error;
  std::optional<double> floor_makespan_seconds;         // Σ of the selections' floors
  std::optional<double> floor_makespan_relative_error;  // (floor − recorded) ÷ recorded
  std::optional<double> application_seconds;            // ApplicationStart → ApplicationEnd
  /// The simulated makespan at the band's factors (models/cost/defaults_band.h: every modelled
  /// task × low / high) when a stage is modelled; set by SetBand.
  std::optional<double> simulated_low_seconds, simulated_high_seconds;
  std::vector<StageComparison> stages;
  std::vector<DecisionComparison> decisions;
  std::vector<ReplayedSelection> selections;
  /// Median of |relative error| over matched stages with a recorded duration > 0.
  std::optional<double> median_abs_stage_error;
  /// The same for the floor, over the same stages.
  std::optional<double> median_abs_floor_stage_error;
  int decisions_matched = 0;
};

struct ReplayOptions {
  /// Cost overrides (a scenario `cost` object) merged over each imported scenario's cost.
  nlohmann::json cost = nlohmann::json::object();
  /// Only these selections (by label); empty: all.
  std::vector<std::string> only;
  /// Import each selection's recorded stage profiles and driver times (the engine times a
  /// profiled stage by them); false: every stage by the cost model (`--no-profile`, calibrate).
  bool profiles = true;
  /// `--profile-from A`: time the stages with A's profiles and driver times, stages matched
  /// by plan shape (profile_graft.h); B's own profiles are not imported. Must outlive the call.
  const eventlog::RecordedApplication* profile_from = nullptr;
};

/// What to replay: one ImportOptions per SQL execution whose jobs ran stages; when there is
/// none, one per job that ran stages. Labels as ReplayedSelection.label.
std::vector<std::pair<std::string, eventlog::ImportOptions>> SelectReplays(
    const eventlog::RecordedApplication& app);

/// `v` (from ValidateApplication(app, ...) with cost overrides `cost`) simulated again with every
/// modelled task × the band's low and high factors: v's simulated_low/high_seconds, left unset
/// when no stage is modelled.
void SetBand(const eventlog::RecordedApplication& app, const nlohmann::json& cost, Validation* v);

/// Every selection of `from` imported with its profiles (the sources of --profile-from).
std::vector<ProfileSource> ImportProfileSources(const eventlog::RecordedApplication& from,
                                                std::vector<std::string>* warnings);

/// Imports, simulates and matches every selection. Non-fatal problems (import warnings,
/// selections that cannot be simulated) go to `warnings`. Throws eventlog::EventLogError only
/// when nothing at all could be imported.
Validation ValidateApplication(const eventlog::RecordedApplication& app, const ReplayOptions& options,
                               std::vector<std::string>* warnings);

/// The same selections as `base` (imported once) simulated again with `cost` (scenario `cost`
/// parameters over each imported scenario's own) and summarised, as ValidateApplication with
/// ReplayOptions::cost = `cost` would (no re-import). For calibration's repeated replays.
Validation RevalidateWithCost(const eventlog::RecordedApplication& app, const Validation& base,
                              const nlohmann::json& cost);

/// Loads `document` with the scenario loader and simulates it (AQE as its conf says). On
/// failure returns nullopt and sets `error` (loader diagnostics joined by "; ", or the plan
/// error).
std::optional<RunResult> SimulateDocument(const nlohmann::json& document, const std::string& label,
                                          std::string* error);
/// Same, for a scenario already loaded (e.g. BuildScenario on a base read once).
std::optional<RunResult> SimulateLoaded(LoadResult loaded, const std::string& label, std::string* error);

/// Matches the simulated stages of `sel.run` to the recorded stages (rules in the header
/// comment); fills sel.matches.
void MatchStages(const eventlog::RecordedApplication& app, ReplayedSelection* sel);

/// Recomputes stages, decisions, makespan and medians of `v` from its selections (after
/// their runs changed, e.g. during calibration).
void Summarize(const eventlog::RecordedApplication& app, Validation* v);

/// `aqesim validate --format json` (docs/user-contract.md §5), plus basis, applicationSeconds,
/// per-stage selection/role/tasks and a summary.
nlohmann::ordered_json ValidationToJson(const Validation& v);
/// The table form: stages, makespan, decisions.
std::string ValidationToTable(const Validation& v);

/// Median of the values (mean of the two middle ones for an even count); nullopt when empty.
std::optional<double> Median(std::vector<double> values);

}  // namespace aqesim::validate

#endif  // AQESIM_TOOLS_VALIDATE_REPLAY_H_
