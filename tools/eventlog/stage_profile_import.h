// Recorded stage profiles and driver times of an imported selection: what the scenario's
// `profiles` and `driver` objects say (formula and fields: models/cost/stage_profile.h,
// models/scenario/driver_structure.h, README "Recorded profiles").
//
// Which recorded stage a profile describes (the simulated stage name it is keyed by):
//   "eN map"       the stage that wrote exchange eN (ImportedExchange.map_stage_id; the first
//                  exchange naming a stage claims it)
//   "jN broadcast" the stage that collected join jN's build side (ImportedJoin.build_stage_id)
//   "sqN result"   the stage that ran subquery sqN's final operators
//                  (ImportedSubquery.result_stage_id; its exchanges are "eN map" as above)
//   "result"       the highest-numbered submitted stage of the selection not claimed above;
//                  under a collectLimit every stage left is a job of executeTake: "result",
//                  "result 2", ... by job id from the first one (a job k's gap counts from
//                  job k − 1's completion)
// as validate's stage matching (tools/validate/replay.h) pairs them. Other stages get no
// profile: their time stays in the gaps of the stages they delay. A stage a subquery gates
// waits for it: the subquery's "sqN result" (or, reusing a broadcast, "jN broadcast") is among
// the stages its trigger waits for.
//
// Per profiled stage, from its successful task attempts (the last one per partition):
//   first wave   a task among the first S tasks of the stage launched on its executor
//                (S = RecordedApplication::SlotsOf), in (launch time, index) order
//   overheads    medians of Finish − Launch − Executor Run Time per wave (a wave without
//                tasks takes the other's)
//   spill        each spilling task's spill seconds (spill_import.h) are taken out of its run and
//                wall time before everything below; `spill` and critical.spillSeconds record them
//   U            records read (Input Records + Shuffle Records Read) of each task; rowOps = ΣU,
//                inputBytes = Σ (input bytes + shuffle bytes read)
//   rates        "stage": least squares of Executor Run Time on U over the later tasks (all
//                when fewer than 3), when U varies (coefficient of variation ≥ 0.1) and the fit
//                holds (B > 0, R² ≥ 0.3; A < 0 refitted through the origin); "log": otherwise B =
//                the median B of the log's "stage"-rated stages, A = max(0, median run − B ×
//                median U); "fixed" when the log has none, the stage read nothing, or the
//                stage's own least-squares slope of run on U (same tasks) is <= 0 — its tasks
//                take no longer the more rows they read, so another stage's B would tie their
//                residuals to their size: A = median run, B = 0
//   residuals    recorded Finish − Launch ÷ (O[w] + A + B × U'), U' = rowOps × task bytes ÷
//                inputBytes (what the engine computes for the task); tables of 21 quantiles per
//                wave and per third of the wave in launch order (one table when the wave has
//                fewer than 15 tasks); the critical task (the last to finish) apart
//   driver       launchDelaySeconds = first launch − submission when a slot was free at
//                submission, else first launch − the last task end or executor launch
//                (registration + executor_launch.h's time) before it, from submission on
//                (waiting for a slot or an executor is the scheduler's, not the driver's; the
//                stage launched on the slot freed last); tailSeconds = completion −
//                last task end; submitGapSeconds = submission − trigger, the trigger being the
//                latest recorded completion of the stages the simulator makes it wait for (the
//                map stages of the exchanges and the broadcast stages of the joins in its part
//                of the plan, and waitsFor) or, for a stage waiting for none, selection start +
//                startSeconds; waitsFor = the profiled stage that completed last before the
//                submission, when it is not one of those and completed after them (the driver
//                waited for it: AQE's loop re-plans on each stage's completion event)
// Driver: startSeconds = selection start → first stage submission; endSeconds = last stage
// completion → selection end (0 without an end event); replanSeconds = the smallest gap of a
// stage with parents (the simulated re-plan must not hide a profiled gap).
#ifndef AQESIM_TOOLS_EVENTLOG_STAGE_PROFILE_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_STAGE_PROFILE_IMPORT_H_

#include <map>
#include <string>
#include <vector>

#include "tools/eventlog/recorded_application.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::eventlog {

/// Recorded stage id → simulated stage name for the selection (the header comment's rules).
std::map<int, std::string> ProfiledStageNames(const RecordedApplication& app,
                                              const ImportedScenario& imported);

/// Adds `profiles` and `driver` to imported->scenario (nothing when no stage ran a task).
void AddStageProfiles(const RecordedApplication& app, ImportedScenario* imported,
                      std::vector<std::string>* warnings);

/// A scenario plan's stages (JSON as the importer writes it) and the stages each waits for,
/// by simulated stage name: "eN map" → the stages inside exchange eN's child, "jN broadcast"
/// (a planned broadcast join) → those inside its build side, "result" → those of the root.
std::map<std::string, std::vector<std::string>> PlanStageParents(const nlohmann::json& plan);

/// PlanStageParents of a scenario's `plan` and of each subquery's `plan` ("sqN result" → the
/// stages inside it), and for every stage holding a scan a subquery gates, that subquery's
/// "sqN result" (or the "jN broadcast" it reuses).
std::map<std::string, std::vector<std::string>> ScenarioStageParents(const nlohmann::json& scenario);

/// The simulator's name of executeTake's job k (1-based) under a collectLimit: "result",
/// "result 2", "result 3", ...
std::string TakeJobName(int k);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_STAGE_PROFILE_IMPORT_H_
