// The grid a scenario report evaluates before it recommends anything, so that the scenario
// report and the sweep report decide with one recommender (tools/report/recommender.h): the
// scenario is swept over the keys that can matter for its job, as `aqesim sweep` would, and
// the sweep's pick (RecommendFromSweep) is what the report recommends.
//
// Axes, in this order (each holds the scenario's own value, so the grid has its baseline point):
//   a shuffle exchange   spark.sql.adaptive.advisoryPartitionSizeInBytes = own ÷ 4, own, own × 4
//                        (CoalesceShufflePartitions' target, and the skew splits' size; 64m gives
//                        16m, 64m, 256m — the README's example sweep)
//   a skew join needing  spark.sql.adaptive.forceOptimizeSkewedJoin = own (false), true (a
//   an extra shuffle     notApplied needsExtraShuffle: the rule proposes it, the sweep tells
//                        whether the extra shuffle pays off)
//   each line the rules  KEY = own, the rules' value (skew thresholds, accurateBlockSkewedFactor,
//   propose              shuffle.partitions, ...); spark.sql.adaptive.enabled is not a grid key
//                        (the sweep runs every point with AQE off and on) and stays a rule
// Numeric values are in ascending order. The own value of a key the scenario leaves unset is
// Spark's default as the configuration key table writes it (models/conf/conf_key_table.h).
#ifndef AQESIM_TOOLS_REPORT_PROBE_GRID_H_
#define AQESIM_TOOLS_REPORT_PROBE_GRID_H_

#include <string>
#include <vector>

#include "models/conf/spark_conf.h"
#include "tools/report/analysis.h"
#include "tools/report/recommend.h"
#include "tools/sweep/grid.h"
#include "tools/sweep/sweep_info.h"

namespace aqesim::report {

/// The grid for a scenario with configuration `raw` (as the scenario and its --conf have it),
/// the facts of its runs and the rules' recommendation; empty when the run has no shuffle and
/// the rules propose no key.
std::vector<sweep::GridAxis> ProbeGrid(const TuningFacts& facts, const RawConf& raw,
                                       const Recommendation& rules);

/// The command that runs the same sweep: "aqesim sweep FILE [--properties-file F] [--cost C]
/// [--conf K=V]... --grid K=V1,V2 ... -o SWEEP.json", arguments quoted for a POSIX shell when
/// they need it.
std::string SweepCommand(const sweep::SweepInfo& info);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_PROBE_GRID_H_
