// validate's lines on the stages that had failed or resubmitted attempts (recorded or replayed,
// StageComparison::HadFailures): per stage, the recorded failed attempts by reason and how many
// the replay ran, the recorded stage attempts and failure, and how the simulated stage stopped.
#ifndef AQESIM_TOOLS_VALIDATE_FAILURE_SUMMARY_H_
#define AQESIM_TOOLS_VALIDATE_FAILURE_SUMMARY_H_

#include <string>

#include "tools/validate/replay.h"

namespace aqesim::validate {

/// "" when no stage had any; else "\nstages with failed or resubmitted attempts:\n" and two lines
/// a stage: "  SQL execution 27, stage 238 (e1 map): 53 failed attempts recorded (50 Resubmitted,
/// 2 FetchFailed, 1 ExecutorLostFailure), 52 replayed" and "    replayed: stopped (FetchFailed),
/// its job failed; recorded: 1 stage attempt, failed: <reason>". Replayed attempts include
/// those killed when the stage stopped. Lines are cut at 160 columns.
std::string FailuresText(const Validation& v);

}  // namespace aqesim::validate

#endif  // AQESIM_TOOLS_VALIDATE_FAILURE_SUMMARY_H_
