#include "tools/scale/scale_output.h"

#include <cstdlib>
#include <sstream>
#include <vector>

#include "models/aqe/decision.h"
#include "tools/text/table_text.h"
#include "tools/text/time_source_text.h"

namespace aqesim::scale {

namespace {

using ojson = nlohmann::ordered_json;

void PutBand(ojson* j, const std::string& key, double value, const std::optional<MakespanBand>& band) {
  (*j)[key] = value;
  if (band) {
    (*j)[key + "Low"] = band->low_seconds;
    (*j)[key + "High"] = band->high_seconds;
  }
}

ojson RowRef(const ScaleRow& row) {
  return {{"percent", row.percent}, {"executors", row.executors}, {"makespanSeconds", row.makespan_seconds}};
}

}  // namespace

std::string SecondsWithBand(double s, const std::optional<MakespanBand>& band) {
  return Fixed(s, 3) + " s" + (band ? BandText(band->low_seconds, band->high_seconds) : std::string());
}

std::string TrustText(const ScaleResult& r, bool log) {
  std::string out;
  std::string banded;  // the rows of a profiled log with a band: a profile resized to more tasks
  for (const ScaleRow& row : r.rows)
    if (row.band) banded += (banded.empty() ? "" : ", ") + PercentsText(row);
  if (r.time_source == "profiled" && banded.empty())
    out += "every stage timed by the log's recorded profiles (extrapolated to each cluster; no band)";
  else if (r.time_source == "profiled")
    out +=
        "every stage timed by the log's recorded profiles (extrapolated to each cluster; no band), except on "
        "the rows with a band (" +
        banded +
        "): there AQE gave a stage 2× or more, or half or fewer, of the recorded tasks, its profile resized "
        "to them (run's timed column: profiled (resized ×N)) and carrying the cost model's band (a smaller "
        "change is resized without one)";
  else
    out += std::string("the cost model's") + (r.time_source == "mixed" ? " for the modelled stages" : "") +
           ", with its band (every modelled task × " + TwoDigits(kDefaultsBand.low) + " and × " +
           TwoDigits(kDefaultsBand.high) + ": README \"How far to trust the seconds\")";
  if (log)
    out +=
        "; Sparklens s: the recorded task times re-scheduled on that many executors, the recorded time "
        "between stages kept as driver time, a recorded wait for executors included (Sparklens' method, no "
        "model)";
  return out;
}

ojson ScaleToJson(const ScaleResult& r, const std::string& subject, bool log) {
  ojson rows = ojson::array();
  for (const ScaleRow& row : r.rows) {
    ojson j = {{"percent", row.percent},
               {"percents", row.percents.empty() ? std::vector<double>{row.percent} : row.percents},
               {"executors", row.executors}};
    PutBand(&j, "makespanSeconds", row.makespan_seconds, row.band);
    j["timeSource"] = TimeSourceLabel(row.stage_times);
    j["stageTimes"] = {{"profiled", row.stage_times.profiled},
                       {"resized", row.stage_times.resized},
                       {"modelled", row.stage_times.modelled}};
    j["coreHours"] = row.available_core_hours;
    j["coreHoursUsed"] = row.used_core_hours;
    j["utilization"] = row.utilization();
    PutBand(&j, "criticalPathSeconds", row.critical_path_seconds, row.critical_path_band);
    PutBand(&j, "idealSeconds", row.ideal_seconds, row.ideal_band);
    if (log) j["sparklensSeconds"] = row.sparklens_seconds ? ojson(*row.sparklens_seconds) : ojson(nullptr);
    j["decisionsChanged"] = row.decisions_changed;
    j["decisionsReplaced"] = row.decisions_replaced;
    if (row.rise_seconds > 0) j["riseSeconds"] = row.rise_seconds;
    if (row.rise_cause) j["riseCause"] = *row.rise_cause;
    rows.push_back(std::move(j));
  }
  ojson out = {{log ? "log" : "scenario", subject}, {"adaptive", r.adaptive},
               {"baseExecutors", r.base_executors}, {"executorCores", r.executor_cores},
               {"timeSource", r.time_source},       {"rows", std::move(rows)}};
  const ScaleRow& cp = r.rows[r.critical_path_row];
  PutBand(&out, "criticalPathSeconds", cp.critical_path_seconds, cp.critical_path_band);
  const ScaleRow& base = r.rows[BaseRow(r)];
  PutBand(&out, "idealSeconds", base.ideal_seconds, base.ideal_band);
  out["fastest"] = RowRef(r.rows[r.fastest]);
  out["fewestExecutorsWithin5Percent"] = RowRef(r.rows[r.within_5_percent]);
  out["fewestExecutorsWithin10Percent"] = RowRef(r.rows[r.within_10_percent]);
  if (r.faster_and_cheaper) out["fasterAndCheaper"] = RowRef(r.rows[*r.faster_and_cheaper]);
  out["balanced"] = RowRef(r.rows[r.balanced]);
  out["dynamicAllocationReplaced"] = r.dynamic_allocation;
  out["executorTimelineReplaced"] = r.timeline_replaced;
  if (r.recorded_seconds) out["recordedSeconds"] = *r.recorded_seconds;
  return out;
}

std::string ScaleToTable(const ScaleResult& r, const std::string& subject, bool log) {
  // Every line within kTextColumns: the table is narrow; the lines around it are wrapped.
  std::ostringstream out;
  const auto wrapped = [&](const std::string& text, size_t indent) {
    out << WrapText(text, kTextColumns, indent) << "\n";
  };
  std::string title = "scale " + TerminalText(subject) + " — AQE " + (r.adaptive ? "on" : "off") +
                      ", 100 % = " + Counted(r.base_executors, "executor") + " × " +
                      Counted(r.executor_cores, "core");
  if (r.dynamic_allocation) title += " (the peak dynamic allocation reached; rows run static executors)";
  if (r.timeline_replaced) title += " (the most present at once; rows replace the recorded timeline)";
  wrapped(title, 2);
  std::vector<std::string> head = {"percent",    "executors",   "makespan", "timed",
                                   "core-hours", "utilisation", "ideal"};
  if (log) head.push_back("Sparklens s");
  head.push_back("AQE decisions");
  std::vector<std::vector<std::string>> rows;
  for (const ScaleRow& row : r.rows) {
    std::vector<std::string> cells = {PercentsText(row),
                                      std::to_string(row.executors),
                                      SecondsWithBand(row.makespan_seconds, row.band),
                                      TimeSourceCell(row.stage_times),
                                      TwoDigits(row.available_core_hours),
                                      Fixed(100 * row.utilization(), 1) + " %",
                                      SecondsWithBand(row.ideal_seconds, row.ideal_band)};
    if (log) cells.push_back(row.sparklens_seconds ? Fixed(*row.sparklens_seconds, 3) : "-");
    cells.push_back(&row == &r.rows.front() ? ""
                    : row.decisions_changed_count == 0
                        ? "same"
                        : std::to_string(row.decisions_changed_count) + " changed");
    rows.push_back(std::move(cells));
  }
  const size_t last = head.size() - 1;
  out << TextTable(head, rows, [last](size_t i) { return i != last && i != 3; });  // timed: left
  const ScaleRow& cp = r.rows[r.critical_path_row];
  // Each row's tasks take their own times (first waves, cold starts, AQE's partitions), so each
  // row has its own critical path: the least is the answer, named with its row.
  wrapped("critical path (infinite executors, with the task times of the " + std::to_string(cp.executors) +
              "-executor row: the least over the rows): " +
              SecondsWithBand(cp.critical_path_seconds, cp.critical_path_band) + "; ideal at " +
              Counted(r.rows[BaseRow(r)].executors, "executor") + ": " +
              SecondsWithBand(r.rows[BaseRow(r)].ideal_seconds, r.rows[BaseRow(r)].ideal_band),
          2);
  if (r.recorded_seconds)
    wrapped("recorded: " + Fixed(*r.recorded_seconds, 3) +
                " s on the log's own executors as they came and went (the rows have theirs from the start: " +
                Counted(r.rows[BaseRow(r)].executors, "executor") + ", " +
                Fixed(r.rows[BaseRow(r)].makespan_seconds, 3) + " s)",
            2);
  auto ref = [&](size_t i) {
    const ScaleRow& row = r.rows[i];
    return Counted(row.executors, "executor") + " (" + PercentsText(row) + "), " +
           Fixed(row.makespan_seconds, 3) + " s";
  };
  wrapped("fastest: " + ref(r.fastest) + "; fewest executors within 5 %: " + ref(r.within_5_percent) +
              "; within 10 %: " + ref(r.within_10_percent),
          2);
  wrapped("balanced (the least makespan × core-hours: time and cost weighed alike): " + ref(r.balanced) +
              ", " + TwoDigits(r.rows[r.balanced].available_core_hours) + " core-hours",
          2);
  if (r.faster_and_cheaper) {
    const ScaleRow& f = r.rows[*r.faster_and_cheaper];
    const ScaleRow& b = r.rows[BaseRow(r)];
    wrapped("faster and cheaper than " + Counted(b.executors, "executor") + " (" +
                Fixed(b.makespan_seconds, 3) + " s, " + TwoDigits(b.available_core_hours) + " core-hours): " +
                ref(*r.faster_and_cheaper) + ", " + TwoDigits(f.available_core_hours) + " core-hours",
            2);
  }
  int rises = 0;
  for (size_t i = 1; i < r.rows.size(); ++i) {
    const ScaleRow& a = r.rows[i - 1];
    const ScaleRow& b = r.rows[i];
    const bool changed = b.decisions_changed_count > 0;
    if (changed) {
      out << "AQE decided differently at " << Counted(b.executors, "executor") << " than at " << a.executors
          << ":\n";
      for (const std::string& d : b.decisions_changed) wrapped("  now:    " + d, 10);
      for (const std::string& d : b.decisions_replaced)
        wrapped("  before: " + d, 10);  // alone: no longer taken
    }
    if (b.rise_seconds > 0) {
      ++rises;
      wrapped("makespan rises at " + PercentsText(b) + " (" + Counted(b.executors, "executor") +
                  "): " + Fixed(b.makespan_seconds, 3) + " s, +" + Fixed(b.rise_seconds, 3) + " s (+" +
                  Fixed(100 * b.rise_seconds / a.makespan_seconds, 1) + " %) over " +
                  Fixed(a.makespan_seconds, 3) + " s at " + Counted(a.executors, "executor") +
                  (!changed ? ", with the same AQE decisions: not AQE but " +
                                  b.rise_cause.value_or("the schedule (which task runs where and when)")
                            : ": AQE decided differently (above)"),
              2);
    }
  }
  if (rises > 0)
    wrapped("more executors are not always faster here: " + std::to_string(rises) +
                (rises == 1 ? " row is" : " rows are") + " slower than the row before (above)",
            2);
  wrapped("seconds: " + TrustText(r, log), 2);
  return out.str();
}

}  // namespace aqesim::scale
