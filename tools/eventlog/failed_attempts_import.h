// A recorded stage's failed task attempts, as its profile's `failedAttempts`
// (models/cost/stage_profile.h StageProfile::FailedAttempt, README "Recorded profiles"; the
// engine replays them: models/engine/recorded_failures.h).
//
// Every TaskEnd of the stage (all its attempts) that did not leave its partition's output:
//   a failure        Task End Reason other than Success (ExceptionFailure, ExecutorLostFailure
//                    with its Exit Caused By App, FetchFailed, TaskKilled, TaskResultLost,
//                    TaskCommitDenied, UnknownReason), for Finish − Launch
//   Resubmitted      a successful map task whose output was lost with its executor (Spark posts a
//                    second TaskEnd for it, reason Resubmitted): its run, and retryAfterSeconds =
//                    its executor's ExecutorRemoved − its Finish (when Spark re-queued it)
//   FetchFailed      stageResubmitted when the stage had a later attempt (Stage Attempt ID > 0);
//                    retryAfterSeconds = the partition's next launch − this Finish
// per partition in (Launch Time, Attempt) order. Killed speculative copies are left out
// (speculation is not simulated: they ran beside the attempt that won, not before it).
#ifndef AQESIM_TOOLS_EVENTLOG_FAILED_ATTEMPTS_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_FAILED_ATTEMPTS_IMPORT_H_

#include <nlohmann/json.hpp>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

/// The header comment's attempts of `stage` (an empty array when none): {"task", "seconds",
/// "reason", "causedByApp" (ExecutorLostFailure), "stageResubmitted" (FetchFailed),
/// "retryAfterSeconds" (when > 0), "executor"}.
nlohmann::json FailedAttemptsJson(const RecordedApplication& app, const RecordedStage& stage);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_FAILED_ATTEMPTS_IMPORT_H_
