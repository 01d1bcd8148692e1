// Reading a recorded stage profile's `failedAttempts` (models/cost/stage_profile.h,
// StageProfile::FailedAttempt; README "Recorded profiles"); every problem is reported at its
// JSON pointer (json_reader.h).
#ifndef AQESIM_MODELS_SCENARIO_FAILED_ATTEMPTS_READER_H_
#define AQESIM_MODELS_SCENARIO_FAILED_ATTEMPTS_READER_H_

#include <string>
#include <vector>

#include "models/cost/stage_profile.h"
#include "models/scenario/json_reader.h"

namespace aqesim {

/// The TaskEndReason names a failed attempt may give, in the order messages list them.
const std::vector<std::string>& FailedAttemptReasons();

/// `failedAttempts` of a profile of `tasks` recorded tasks: an array (at most 10^6) of
/// {"task", "seconds", "reason", "causedByApp", "stageResubmitted", "retryAfterSeconds",
/// "executor"}; "task", "seconds" and "reason" are required, "causedByApp" only with an
/// ExecutorLostFailure, "stageResubmitted" only with a FetchFailed.
void ReadFailedAttempts(const Json& v, const std::string& pointer, int tasks,
                        std::vector<StageProfile::FailedAttempt>* out, DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_FAILED_ATTEMPTS_READER_H_
