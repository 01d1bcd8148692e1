#include "tools/aqesim/variant_comparison.h"

#include <cstdio>
#include <sstream>

#include "models/aqe/decision.h"
#include "models/engine/simulated_band.h"
#include "tools/aqesim/simulate.h"
#include "tools/text/table_text.h"

namespace aqesim::cli {
namespace {

std::string Label(const std::vector<std::string>& variants) {
  if (variants.empty()) return "Apache Spark (no variant)";
  std::string s;
  for (const std::string& v : variants) s += (s.empty() ? "" : " + ") + v;
  return s;
}

int TotalTasks(const RunResult& r) {
  int n = 0;
  for (const StageResult& s : r.stages) n += s.tasks;
  return n;
}

int SkewJoins(const RunResult& r) {
  int n = 0;
  for (const JoinExplain& j : r.joins) n += j.is_skew_join ? 1 : 0;
  return n;
}

std::vector<const Decision*> ChangedByVariants(const RunResult& r) {
  std::vector<const Decision*> out;
  for (const Decision& d : r.decisions)
    if (d.fields.contains("variants")) out.push_back(&d);
  return out;
}

}  // namespace

std::vector<VariantRun> SimulateVariantComparison(Scenario* scenario, const RunResult& with_all) {
  const VariantSwitches enabled = scenario->conf.variants;
  const std::vector<std::string> names = enabled.EnabledNames();
  std::vector<VariantRun> rows;
  if (names.empty()) return rows;
  // The variants' parameters (intel.targetPostShuffleRowCount, ...) stay as the scenario set them.
  std::vector<VariantSwitches> settings{enabled.AllOff()};
  if (names.size() > 1) {
    for (const VariantInfo& v : KnownVariants())
      if (enabled.*(v.field)) settings.push_back(enabled.Only(v.field));
  }
  for (const VariantSwitches& s : settings) {
    scenario->conf.variants = s;
    try {
      RunResult run = SimulateOrThrow(*scenario, true);
      std::optional<MakespanBand> band = SimulateBand(scenario, run);
      rows.push_back({s.EnabledNames(), std::move(run), band});
    } catch (...) {
      scenario->conf.variants = enabled;
      throw;
    }
  }
  scenario->conf.variants = enabled;
  rows.push_back({names, with_all, SimulateBand(scenario, with_all)});
  return rows;
}

std::string VariantComparisonText(const std::vector<VariantRun>& rows) {
  std::ostringstream out;
  out << "variants side by side (AQE on; seconds from the same cost model, to compare, not to read "
         "absolutely):\n";
  for (const VariantRun& row : rows) {
    char buf[160];
    const std::string band =
        row.band ? BandText(row.band->low_seconds, row.band->high_seconds) : " (profiled)";
    std::snprintf(buf, sizeof buf, "  %-60s makespan %10.3f s%-14s  %7d tasks  %s\n",
                  Label(row.variants).c_str(), row.run.makespan_seconds, band.c_str(), TotalTasks(row.run),
                  Counted(SkewJoins(row.run), "skew join").c_str());
    out << buf;
    // Within 160 columns, as `run`'s decisions (a variant's skew split was one 302-column line).
    for (const Decision* d : ChangedByVariants(row.run))
      out << WrapText("    " + d->rule + " " + d->message, 160, 6) << "\n";
  }
  return out.str();
}

nlohmann::ordered_json VariantComparisonJson(const std::vector<VariantRun>& rows) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const VariantRun& row : rows) {
    nlohmann::ordered_json changed = nlohmann::ordered_json::array();
    for (const Decision* d : ChangedByVariants(row.run)) changed.push_back(d->message);
    out.push_back(
        {{"variants", row.variants},
         {"makespanSeconds", row.run.makespan_seconds},
         {"makespanSecondsLow", row.band ? nlohmann::ordered_json(row.band->low_seconds) : nullptr},
         {"makespanSecondsHigh", row.band ? nlohmann::ordered_json(row.band->high_seconds) : nullptr},
         {"tasks", TotalTasks(row.run)},
         {"skewJoins", SkewJoins(row.run)},
         {"decisionsChangedByVariants", std::move(changed)}});
  }
  return out;
}

}  // namespace aqesim::cli
