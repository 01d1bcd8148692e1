// RunComparison: two simulated runs of a query side by side (`aqesim compare A.json B.json`):
// the makespans and their difference, stage by stage (stages matched by name: "e1 map",
// "j1 broadcast", "result"), and the AQE decisions one run took and the other did not — what a
// tuning engineer reads after changing one setting ("what did it change, and where?").
//
// Units: seconds. A side's band (`makespanSecondsLow/High` of `run --format json`, the range the
// makespan of a modelled run can be trusted to) is carried as given; a run whose stages are all
// profiled from an event log has none. Whether B − A survives the bands is judged as `run` judges
// AQE off against on (tools/text/band_difference.h, JudgeDifference): the two runs' low ends
// against each other, their values, their high ends (two configurations of one job share the
// model, so its error moves both together), a difference under 3 % of the slower at an end being
// within the model's uncertainty; two profiled runs (no band) against the replay error, 3 % of
// the slower makespan.
#ifndef AQESIM_TOOLS_COMPARE_RUN_COMPARISON_H_
#define AQESIM_TOOLS_COMPARE_RUN_COMPARISON_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/engine/run_result.h"
#include "tools/text/band_difference.h"

namespace aqesim::compare {

/// (low, high) seconds.
using Band = std::pair<double, double>;

struct StageComparison {
  std::string name;
  std::optional<double> a_seconds, b_seconds;  // nullopt: the stage is not in that run
  std::optional<int> a_tasks, b_tasks;
  std::string a_time_source, b_time_source;  // "profiled" / "modelled" ("" when absent)
};

struct RunComparison {
  bool adaptive = false;
  double a_makespan_seconds = 0, b_makespan_seconds = 0;
  std::optional<Band> a_band, b_band;
  /// A's stages in A's order, then B's stages A does not have, in B's order.
  std::vector<StageComparison> stages;
  /// "Rule: message" of the decisions only one run took. The same rule and message in both is
  /// the same decision, whenever it was taken; so is the same outcome with other inputs, as
  /// `aqesim scale` counts it (models/aqe/decision_outcome.h: a coalescing 200 → 40 partitions
  /// at a target of 54.2 MiB in A and 52.8 MiB in B).
  std::vector<std::string> decisions_only_in_a, decisions_only_in_b;
  /// Those paired by outcome whose lines differ (a target or threshold moved): (A's, B's) line.
  std::vector<std::pair<std::string, std::string>> decisions_inputs_moved;
  /// Whether B − A survives the bands (or the replay error), A named "A" and B "B"; nullopt when
  /// the makespans are equal.
  std::optional<DifferenceVerdict> verdict;

  double difference_seconds() const { return b_makespan_seconds - a_makespan_seconds; }
};

/// A and B: runs with the same `adaptive`. Stage names are unique within a run.
RunComparison CompareRuns(const RunResult& a, const RunResult& b, std::optional<Band> a_band,
                          std::optional<Band> b_band);

/// The comparisons as a table within 160 columns, labels "A" and "B" named in the first lines.
std::string ComparisonTable(const std::string& a_path, const std::string& b_path,
                            const std::vector<RunComparison>& runs);

/// The same as JSON: {"a": PATH, "b": PATH, "runs": [{"adaptive", "makespanSeconds": {"a", "b",
/// "difference"}, "band": {"a": [low, high] | null, "b": ...}, "verdict": {"basis": "band" |
/// "replay", "faster": "a" | "b", "holds", "differenceSecondsLow", "differenceSecondsHigh",
/// "text"} | null (equal makespans), "stages": [{"name", "a": {"seconds", "tasks", "timed"} |
/// null, "b": ...}], "decisionsOnlyInA": [...], "decisionsOnlyInB": [...], "decisionsInputsMoved": [{"a",
/// "b"}]}]}.
nlohmann::json ComparisonJson(const std::string& a_path, const std::string& b_path,
                              const std::vector<RunComparison>& runs);

}  // namespace aqesim::compare

#endif  // AQESIM_TOOLS_COMPARE_RUN_COMPARISON_H_
