// How a run's (or a scale row's) seconds were timed, in words, from its stages' counts
// (models/engine/run_time_source.h): the cell of scale's `timed` column, the stage list of the
// report's "Seconds:" lines and of the line `run` prints above each stage table. Header-only,
// so every tool library can use it.
#ifndef AQESIM_TOOLS_TEXT_TIME_SOURCE_TEXT_H_
#define AQESIM_TOOLS_TEXT_TIME_SOURCE_TEXT_H_

#include <string>
#include <vector>

#include "models/aqe/decision.h"
#include "models/cost/defaults_band.h"
#include "models/engine/run_time_source.h"
#include "tools/text/table_text.h"

namespace aqesim {

/// The label with what it leaves out: "profiled", "profiled (1 resized)", "mixed (2 of 5
/// modelled)", "modelled".
inline std::string TimeSourceCell(const StageTimeCounts& c) {
  const std::string label = TimeSourceLabel(c);
  if (label == "profiled" && c.resized > 0) return label + " (" + std::to_string(c.resized) + " resized)";
  if (label == "mixed")
    return label + " (" + std::to_string(c.modelled) + " of " + std::to_string(c.stages()) + " modelled)";
  return label;
}

/// "2 stages profiled from the log, 1 resized from a profile (recorded tasks extrapolated to
/// another task count), 3 modelled": the kinds present, in that order, the first with "stage(s)".
inline std::string StageTimesText(const StageTimeCounts& c) {
  std::vector<std::string> parts;
  if (c.profiled > 0)
    parts.push_back(Counted(static_cast<int64_t>(c.profiled), "stage") + " profiled from the log");
  if (c.resized > 0)
    parts.push_back(
        (parts.empty() ? Counted(static_cast<int64_t>(c.resized), "stage") : std::to_string(c.resized)) +
        " resized from a profile (recorded tasks extrapolated to another task count)");
  if (c.modelled > 0)
    parts.push_back(
        (parts.empty() ? Counted(static_cast<int64_t>(c.modelled), "stage") : std::to_string(c.modelled)) +
        " modelled");
  std::string which;
  for (size_t i = 0; i < parts.size(); ++i) which += (i == 0 ? "" : ", ") + parts[i];
  return which;
}

/// "every modelled task × 0.79 and × 7.6 (README "How far to trust the seconds")": what the band
/// of modelled (and resized) seconds is.
inline std::string BandFactorsText() {
  return "every modelled task × " + TwoDigits(kDefaultsBand.low) + " and × " + TwoDigits(kDefaultsBand.high) +
         " (README \"How far to trust the seconds\")";
}

}  // namespace aqesim

#endif  // AQESIM_TOOLS_TEXT_TIME_SOURCE_TEXT_H_
