#include "tools/tune/simulation_memory.h"

#include <algorithm>
#include <cmath>

namespace aqesim::tune {

int ThreadsWithinMemory(int requested, int64_t planned_tasks, double largest_data_scale) {
  const double one = static_cast<double>(std::max<int64_t>(planned_tasks, 1)) *
                     std::max(largest_data_scale, 1.0) * static_cast<double>(kBytesPerPlannedTask);
  const double fit = std::floor(static_cast<double>(kTuneMemoryBytes) / one);
  return std::max(1, std::min(requested, fit >= requested ? requested : static_cast<int>(fit)));
}

}  // namespace aqesim::tune
