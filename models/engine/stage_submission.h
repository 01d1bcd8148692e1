// StageSubmission: when the driver submits a created stage, as the recorded profiles time it.
//
// Without a profile (or without a recorded submission gap) a stage is submitted as soon as it is
// created, but no earlier than the driver's recorded start. With one, it is submitted its
// profile's submitGapSeconds after its trigger: the latest completion among the stages it waits
// for — its parents (the stages whose output it reads; DAGScheduler.submitStage) and the stages
// its profile's waitsFor names (a recorded driver that evidently waited for a stage outside the
// plan's parents, e.g. a broadcast build the query only joins later) — or the driver's start when
// it waits for none. A waitsFor name that no created stage has, the stage itself or a stage that
// waits for it through its parents is ignored; one still running holds the stage back.
#ifndef AQESIM_MODELS_ENGINE_STAGE_SUBMISSION_H_
#define AQESIM_MODELS_ENGINE_STAGE_SUBMISSION_H_

#include <optional>

#include "models/cost/stage_profile.h"
#include "models/engine/stage_graph.h"
#include "models/plan/query_stage.h"
#include "sim/units.h"

namespace aqesim {

/// When `st` (created, not yet submitted) is submitted: `start` or later. nullopt: a stage its
/// profile's waitsFor names is still running (ask again once it is done).
std::optional<SimTime> SubmissionTime(const QueryStage& st, const StageProfile* profile,
                                      const StageGraph& graph, SimTime start);

/// Whether `a` waits for `b` through its parents (transitively).
bool WaitsThroughParents(const QueryStage& a, const QueryStage& b);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_STAGE_SUBMISSION_H_
