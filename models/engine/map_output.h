// Map output: when every task of a map stage has run, the exchange's planned rows (one per
// partition of the stage's output as planned without AQE) become the rows of the map tasks
// that ran — the matrix the readers fetch and MapStatus reports. A planned row read by one task
// is that task's; a row several tasks read for (a skew split, a coalesced read above) is split
// between them in proportion to the bytes each read for it (the tasks' shares, task_work.h),
// cell by cell with cumulative rounding so every byte is kept; a row no task read for (an empty
// reducer dropped by coalescing) goes with the previous row's last task.
#ifndef AQESIM_MODELS_ENGINE_MAP_OUTPUT_H_
#define AQESIM_MODELS_ENGINE_MAP_OUTPUT_H_

#include <cstdint>
#include <vector>

#include "models/conf/spark_conf.h"
#include "models/engine/run_result.h"
#include "models/engine/task_work.h"
#include "models/plan/exec_node.h"
#include "models/plan/query_stage.h"
#include "models/shuffle/map_output_statistics.h"
#include "models/shuffle/map_status.h"

namespace aqesim {

/// Sets the actual rows of `stage`'s exchange from its planned rows and every task's
/// normalized shares (`shares[task]`). When task t read exactly planned row t (e.g. scan tasks)
/// the planned matrix is moved, not copied (and may stay streamed). Throws PlanError when the
/// apportioned rows would have to be held densely beyond kMaxSizeMatrixCells.
void ApportionMapOutput(const QueryStage& stage, const std::vector<Shares>& shares);

/// A shuffle the run must hold densely (rows resampled or apportioned after the plan below it
/// changed) is bounded like a given matrix: PlanError (exit 2) rather than an allocation
/// failure when a streamed 10^10-cell shuffle would have to be materialised. `why` says what
/// would materialise it.
void CheckMaterializable(const ExecNode& exchange, const char* why, int64_t maps, int64_t reducers);

/// The MapStatus settings of the configuration.
MapStatusConfig MapStatusConfigOf(const SqlConf& conf);

/// Every task of map stage `stage` finished: its output as they wrote it (ApportionMapOutput),
/// each task's bytes written into `tasks`, and with AQE the driver's view of it (MapStatus as
/// `mode` reports it; the LAS variants' exact totals). Returns the driver's MapOutputStatistics
/// aggregation time, seconds (`seconds_per_block` per map × reducer block, 0 without AQE).
double FinishMapStage(const QueryStage& stage, const std::vector<Shares>& shares,
                      std::vector<TaskResult>* tasks, const SqlConf& conf, MapStatusMode mode,
                      double seconds_per_block);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_MAP_OUTPUT_H_
