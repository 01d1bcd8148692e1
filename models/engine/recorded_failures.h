// RecordedFailures: a profiled stage's recorded failed task attempts (StageProfile::
// failed_attempts, README "Recorded profiles"), replayed on the task scheduler's failed attempts
// (sim/task_scheduler.h): attempt k of partition p is the k-th recorded failed attempt of p, for
// its recorded seconds; once p's are used up, p runs as its profile says and succeeds. What a
// failed attempt does next mirrors Spark's TaskSetManager.handleFailedTask and DAGScheduler
// (retried = pending again retryAfterSeconds after its end, 0 unless the importer measured one):
//   ExceptionFailure, TaskResultLost, UnknownReason, an ExecutorLostFailure caused by the app
//                      counted toward spark.task.maxFailures: retried; the limit aborts the
//                      stage and its job
//   TaskKilled, TaskCommitDenied, ExecutorLostFailure not caused by the app
//                      not counted: retried
//   Resubmitted        a successful map task whose output was lost with its executor: not
//                      counted, retried (the importer measures retryAfterSeconds: until the
//                      executor was lost)
//   FetchFailed        the stage attempt fails: with stageResubmitted, not counted and retried
//                      (retryAfterSeconds: until the resubmitted attempt launched it; the map
//                      stage's lost output recomputed in between is inside that time, not on
//                      slots, and the stage's other partitions do not wait for it); without, the
//                      job fails, as the recorded one did when its stage was not resubmitted
// A stage replayed with another task count than recorded (resized, --profile-from) replays none:
// its partitions are not the recorded ones.
#ifndef AQESIM_MODELS_ENGINE_RECORDED_FAILURES_H_
#define AQESIM_MODELS_ENGINE_RECORDED_FAILURES_H_

#include <functional>
#include <optional>
#include <string>

#include "models/cost/stage_profile.h"
#include "models/engine/run_result.h"
#include "models/engine/stage_graph.h"
#include "sim/task_scheduler.h"

namespace aqesim {

/// How the scheduler treats a recorded failed attempt (the header comment's table).
AttemptFailure FailureOf(const StageProfile::FailedAttempt& attempt);

/// TaskSetSpec::failed_attempt for `profile`'s stage run as `num_tasks` tasks (task index =
/// partition); null when there is nothing to replay (no recorded failure, or another task count).
/// Each attempt's partition is pending again its retryAfterSeconds after its end (0: at once).
std::function<std::optional<FailedAttempt>(int, int, int)> RecordedFailedAttempts(const StageProfile& profile,
                                                                                  int num_tasks);

/// "FetchFailed", "aborted": how a stopped stage ended (StageResult::failed).
std::string StopReasonName(AttemptFailure failure);

/// Sets up `spec` (stage `name`, its tasks' results in `run`) for failed attempts: at most
/// `max_failures` counted failures a task (MaxTaskFailures), `profile`'s recorded failed attempts
/// when it has some (null: none), failed attempts counted into run->failed_attempts and kept from
/// spec's own on_task_end (set it first), and a stop of the set → run->failed and
/// `on_job_failed`. `run` must outlive the set.
void AttachTaskFailures(const StageProfile* profile, const std::string& name, int max_failures, StageRun* run,
                        std::function<void(JobFailure)> on_job_failed, TaskSetSpec* spec);

/// RunResult::failures' line for a failed job: "e1 map: task 3 failed 4 times
/// (spark.task.maxFailures = 4); the stage and its job aborted at 1.200 s".
std::string JobFailureMessage(const JobFailure& failure, int max_failures);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_RECORDED_FAILURES_H_
