#include "models/engine/stage_submission.h"

#include <algorithm>
#include <string>

namespace aqesim {

namespace {

/// The created stage named `name`, or null.
const QueryStage* StageNamed(const StageGraph& graph, const std::string& name) {
  for (const QueryStage& s : graph.stages())
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace

bool WaitsThroughParents(const QueryStage& a, const QueryStage& b) {
  for (const QueryStage* parent : a.parents)
    if (parent == &b || WaitsThroughParents(*parent, b)) return true;
  return false;
}

std::optional<SimTime> SubmissionTime(const QueryStage& st, const StageProfile* profile,
                                      const StageGraph& graph, SimTime start) {
  if (profile == nullptr || !profile->submit_gap_seconds) return start;
  SimTime trigger = start;
  for (const QueryStage* parent : st.parents) trigger = std::max(trigger, parent->complete);
  for (const std::string& name : profile->waits_for) {
    const QueryStage* other = StageNamed(graph, name);
    if (other == nullptr || other == &st || WaitsThroughParents(*other, st)) continue;
    if (!other->done) return std::nullopt;
    trigger = std::max(trigger, other->complete);
  }
  return trigger + SimTime::Seconds(*profile->submit_gap_seconds);
}

}  // namespace aqesim
