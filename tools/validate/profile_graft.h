// `validate B --profile-from A`: B's imported scenario (its configuration, cluster, plan and
// partition sizes, AQE as B ran it) timed with A's recorded stage profiles and driver times —
// the what-if test as a feature: would A's run have predicted B's?
//
// Stages are matched by plan shape, not by id or stage number (the same job run twice has
// other stage ids; a what-if may add or remove stages). A stage's shape is the scenario plan
// below the node that ends it — the exchange for "eN map", the build side for "jN broadcast",
// the root for "result" — written without ids, sizes, row counts and partition counts: the
// operators ("op"), join type, planned strategy and build side, whether an aggregate groups,
// a single-partition exchange. A stage of B takes the profile of the stage of A with the
// same deep shape (the whole subtree, down to the scans), else the same own shape (the
// subtree cut at the exchanges and broadcast builds it reads: the stage's own operators);
// among A stages of equal shape, the one at the same place in the plan (the same path of
// child/left/right from the root), else the n-th of B takes the n-th of A (pre-order). A's
// selection with the most matched stages gives them all (and its driver times: start, end,
// re-plan); a stage with no partner keeps no profile and is timed by the cost model
// ("modelled").
//
// The engine resizes a profile applied to a stage whose task count differs from the recorded
// one (models/cost/stage_profile.h, "Resized stages").
#ifndef AQESIM_TOOLS_VALIDATE_PROFILE_GRAFT_H_
#define AQESIM_TOOLS_VALIDATE_PROFILE_GRAFT_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace aqesim::validate {

/// One of A's imported selections, with its profiles and driver (scenario JSON).
struct ProfileSource {
  std::string label;  // "SQL execution 0"
  nlohmann::json scenario;
};

/// Per simulated stage name of a plan: its deep and own shapes, its rank among the stages of
/// equal shape (pre-order) and where it is (the JSON path of its top node below "plan").
struct StageShape {
  std::string deep;
  std::string own;
  int deep_rank = 0;
  int own_rank = 0;
  std::string path;
};
std::map<std::string, StageShape> StageShapes(const nlohmann::json& plan);

/// What a graft did: per stage of B, where its profile came from ("SQL execution 0: e1 map
/// (stage 3)") — stages without one are absent.
struct GraftResult {
  std::string source_label;  // A's selection ("" when no stage matched)
  std::map<std::string, std::string> stage_sources;
};

/// Replaces `document`'s profiles and driver with those of the best-matching source (header
/// comment). `document` is B's imported scenario (imported without its own profiles).
GraftResult GraftProfiles(const std::vector<ProfileSource>& sources, nlohmann::json* document);

}  // namespace aqesim::validate

#endif  // AQESIM_TOOLS_VALIDATE_PROFILE_GRAFT_H_
