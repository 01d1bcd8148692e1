// From the search's best point to what `aqesim tune` recommends.
//
//   minimal diff   the best point's settings, each key in space order taken out again (back to
//                  the current configuration's value) while that costs at most kKeepTolerance of
//                  the objective: a key that does not change the result is not recommended, and a
//                  key set to the value the configuration already has (a Spark default among
//                  them) is never in the output, since taking it out changes nothing
//   gain           1 − the objective of what is left (objective.h: by default the mean ratio over
//                  the guardrails when no copy loses; with --guardrails worst the worst case), the
//                  relative improvement of the makespan (or core-hours, or the weighted sum)
//   recommended    only when the gain is at least `min_gain`: a smaller gain is inside how far
//                  the simulated seconds can be trusted (README "How far to trust the seconds":
//                  replays of recorded jobs land within 3 % of the recorded makespan)
//   dynamic        a kept cluster.executors (a fixed count) on a configuration with dynamic
//   allocation     allocation on comes with spark.dynamicAllocation.enabled=false, which the
//                  simulated fixed count stands for (spark.executor.instances alone would only
//                  set the allocation manager's initial target)
//   decisions      for each key kept, the AQE decisions the run with every kept key makes that
//                  the run without that key does not, and those it no longer makes ("which
//                  decision each key changes")
#ifndef AQESIM_TOOLS_TUNE_RECOMMENDATION_H_
#define AQESIM_TOOLS_TUNE_RECOMMENDATION_H_

#include <optional>
#include <string>
#include <vector>

#include "tools/tune/objective.h"

namespace aqesim::tune {

/// A key is dropped when the objective without it is at most (1 + kKeepTolerance) × with it.
inline constexpr double kKeepTolerance = 0.005;
/// Default least gain worth recommending (the replay error bound above).
inline constexpr double kDefaultMinGain = 0.03;

struct KeyChange {
  std::string key;
  std::string value;
  std::vector<std::string> decisions_made;  // "Rule: message" made only with the key
  std::vector<std::string> decisions_lost;  // made only without it
};

struct Recommendation {
  Settings settings;            // the minimal diff (may be empty)
  Evaluation evaluation;        // its score
  std::vector<KeyChange> keys;  // one per setting, same order
  double gain = 0;              // 1 − evaluation.objective
  bool recommended = false;
  std::string reason;   // one sentence: why (not) recommended
  int evaluations = 0;  // simulations of configurations this took (not in the budget)
};

/// The Spark key a space key sets: itself for a Spark key; cluster.executors, executorCores and
/// executorMemory as spark.executor.instances, .cores and .memory; nullopt for a model parameter
/// (cost.*, simulation.*, other cluster.* fields), which is reported but is no Spark setting.
std::optional<std::string> SparkKeyOf(const std::string& key);

/// The settings a point of the space stands for: (axes[i].key, values[i]) for each axis.
Settings SettingsOf(const std::vector<SpaceAxis>& axes, const std::vector<std::string>& values);

/// `best` (values of `axes`, as Search found them) reduced and explained (file comment).
Recommendation Recommend(const TuneObjective& objective, const std::vector<SpaceAxis>& axes,
                         const Evaluation& best, double min_gain);

}  // namespace aqesim::tune

#endif  // AQESIM_TOOLS_TUNE_RECOMMENDATION_H_
