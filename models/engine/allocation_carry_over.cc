#include "models/engine/allocation_carry_over.h"

#include <algorithm>
#include <vector>

#include "sim/simulator.h"
#include "sim/task_scheduler.h"

namespace aqesim {

AllocationState CarryAcrossGap(const AllocationState& state, ExecutorAllocationManager::Settings settings) {
  AllocationState start = state;
  start.gap_seconds = 0;
  if (state.gap_seconds <= 0) return start;
  Simulator sim;
  ExecutorWindow absent;
  absent.remove = SimTime::Zero();
  const size_t capacity = std::max<size_t>(1, state.executors.size() + state.requests.size());
  TaskScheduler scheduler(sim, std::vector<ExecutorWindow>(capacity, absent),
                          std::max(1, settings.slots_per_executor));
  settings.at_start = start;
  // (the query's requests, not the gap's; kills are counted over the application's whole run:
  // the gap's take their own lags, from the state's killsMade on)
  settings.start_seconds_by_request.clear();
  ExecutorAllocationManager manager(sim, scheduler, std::move(settings), nullptr);
  manager.Start();
  const SimTime end = SimTime::Seconds(state.gap_seconds);
  sim.ScheduleAt(end, TaskScheduler::kTaskEndTier, [] {});  // keeps the 100 ms rounds going to the end
  sim.RunUntil(end);
  return manager.StateNow();
}

}  // namespace aqesim
