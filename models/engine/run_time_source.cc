#include "models/engine/run_time_source.h"

namespace aqesim {

StageTimeCounts CountStageTimes(const RunResult& run) {
  StageTimeCounts c;
  for (const StageResult& s : run.stages) {
    if (s.time_source == "modelled")
      ++c.modelled;
    else if (s.resized_by)
      ++c.resized;
    else
      ++c.profiled;
  }
  return c;
}

std::string TimeSourceLabel(const StageTimeCounts& counts) {
  if (counts.modelled == 0) return "profiled";
  return counts.profiled + counts.resized > 0 ? "mixed" : "modelled";
}

std::string RunTimeSource(const RunResult& run) { return TimeSourceLabel(CountStageTimes(run)); }

}  // namespace aqesim
