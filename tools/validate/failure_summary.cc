#include "tools/validate/failure_summary.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace aqesim::validate {

std::string FailuresText(const Validation& v) {
  constexpr size_t kWidth = 160;
  std::string out;
  for (const StageComparison& c : v.stages) {
    if (!c.HadFailures()) continue;
    if (out.empty()) out = "\nstages with failed or resubmitted attempts:\n";
    std::string line = "  " + c.selection;
    if (c.stage_id) line += ", stage " + std::to_string(*c.stage_id);
    if (!c.simulated_name.empty()) line += " (" + c.simulated_name + ")";
    // Reasons by count, most first (then by name).
    std::vector<std::pair<int, std::string>> reasons;
    int recorded = 0;
    for (const auto& [reason, n] : c.recorded_failed_attempts) {
      reasons.push_back({-n, reason});
      recorded += n;
    }
    std::sort(reasons.begin(), reasons.end());
    line += ": " + std::to_string(recorded) + " failed attempt" + (recorded == 1 ? "" : "s") + " recorded";
    if (!reasons.empty()) {
      line += " (";
      for (size_t i = 0; i < reasons.size(); ++i)
        line += (i ? ", " : "") + std::to_string(-reasons[i].first) + " " + reasons[i].second;
      line += ")";
    }
    line += ", " + std::to_string(c.simulated_failed_attempts) + " replayed";
    std::string detail = c.simulated_failed.empty()
                             ? "    replayed: completed"
                             : "    replayed: stopped (" + c.simulated_failed + "), its job failed";
    detail += "; recorded: " + std::to_string(c.recorded_stage_attempts) + " stage attempt" +
              (c.recorded_stage_attempts == 1 ? "" : "s") +
              (c.recorded_failure.empty() ? ", completed" : ", failed: " + c.recorded_failure);
    for (std::string* l : {&line, &detail})
      if (l->size() > kWidth) *l = l->substr(0, kWidth - 3) + "...";
    line += "\n" + detail;
    out += line + "\n";
  }
  return out;
}

}  // namespace aqesim::validate
