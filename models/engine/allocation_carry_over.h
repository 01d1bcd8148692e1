// The application's allocation manager across the gap between two queries: no task runs there,
// so ExecutorAllocationManager lowers its target to minExecutors at its next 100 ms round
// (cancelling the requests the cluster manager has not granted), the granted requests register
// when their start time is up, and executors idle for executorIdleTimeout are removed (never
// below minExecutors). The same manager runs it (executor_allocation_manager.h), on a scheduler
// with no task.
#ifndef AQESIM_MODELS_ENGINE_ALLOCATION_CARRY_OVER_H_
#define AQESIM_MODELS_ENGINE_ALLOCATION_CARRY_OVER_H_

#include "models/cluster/allocation_state.h"
#include "models/engine/executor_allocation_manager.h"

namespace aqesim {

/// `state` after its gap_seconds (the result's gap_seconds is 0). `settings.at_start` is ignored.
AllocationState CarryAcrossGap(const AllocationState& state, ExecutorAllocationManager::Settings settings);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_ALLOCATION_CARRY_OVER_H_
