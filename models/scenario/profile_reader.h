// Reading a scenario's recorded stage profiles (`profiles`) and driver times (`driver`);
// every problem is reported at its JSON pointer (json_reader.h). Formats: README "Scenario
// format"; meanings: models/cost/stage_profile.h, driver_structure.h.
#ifndef AQESIM_MODELS_SCENARIO_PROFILE_READER_H_
#define AQESIM_MODELS_SCENARIO_PROFILE_READER_H_

#include <map>
#include <string>
#include <vector>

#include "models/cost/stage_profile.h"
#include "models/plan/plan.h"
#include "models/plan/subquery.h"
#include "models/scenario/driver_structure.h"
#include "models/scenario/json_reader.h"

namespace aqesim {

/// `profiles`: an object of stage name → profile.
void ReadProfiles(const Json& v, const std::string& pointer, std::map<std::string, StageProfile>* out,
                  DiagnosticSink* sink);

/// Warns at /profiles/<key> for every profile no stage of `plan` can take: a stage is named
/// "<exchange id> map" (an exchange the planner inserts: "<child id>-exchange map"), "<join id>
/// broadcast", "<exchange id> sample" / "sample 2" (a range exchange's sampling jobs) or "result"
/// (under a collectLimit also "result k"); a subquery's stages are named alike from its plan's
/// ids, its final stage "<subquery id> result". The warning lists the plan's stages and suggests
/// the closest.
void CheckProfileStages(const std::map<std::string, StageProfile>& profiles, const PlanNode& plan,
                        bool collect_limit, DiagnosticSink* sink,
                        const std::vector<Subquery>* subqueries = nullptr);

/// `driver`: {"startSeconds", "endSeconds", "replanSeconds"}.
void ReadDriverStructure(const Json& v, const std::string& pointer, DriverStructure* out,
                         DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_PROFILE_READER_H_
