// What the driver learns of a shuffle when its map stage completes (AQE on): the MapStatus view
// every AQE rule decides on (map_status.h, MapOutputStatistics), and what the named variants
// add to it — ByteDance LAS's exact per-reducer totals (las_exact_reducer_totals.h) and the
// records per reducer the Intel–Baidu variants count (shuffle_records.h). Mirrors
// core/.../MapOutputTracker.scala's registerMapOutput / getStatistics as far as AQE reads them.
#ifndef AQESIM_MODELS_ENGINE_DRIVER_STATISTICS_H_
#define AQESIM_MODELS_ENGINE_DRIVER_STATISTICS_H_

#include "models/conf/spark_conf.h"
#include "models/plan/exec_node.h"
#include "models/shuffle/map_status.h"

namespace aqesim {

/// Sets `exchange`'s ShuffleData::reported (and, with the variants that need them, exact_totals
/// and records_by_partition) from its `actual` sizes. Returns the map-status blocks the driver
/// aggregates (maps x reducers, plus the exact totals' decompressions), to be timed by the cost
/// model's mapStatusAggregateSecondsPerBlock.
double CollectDriverStatistics(const ExecNode& exchange, const SqlConf& conf, MapStatusMode mode);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_DRIVER_STATISTICS_H_
