#include "tools/eventlog/spill_import.h"

#include <algorithm>
#include <cmath>

namespace aqesim::eventlog {

SpillMeasurement MeasureSpill(const std::vector<SpillTaskInput>& tasks, int64_t disk_bytes_per_second) {
  SpillMeasurement out;
  out.task_seconds.assign(tasks.size(), 0.0);
  double calm_gc = 0, calm_records = 0;  // tasks that did not spill
  for (const SpillTaskInput& t : tasks) {
    if (t.task->memory_bytes_spilled > 0) continue;
    calm_gc += static_cast<double>(std::max<int64_t>(t.task->jvm_gc_time_ms, 0)) / 1000.0;
    calm_records += t.records;
  }
  const double g = calm_records > 0 ? calm_gc / calm_records : 0.0;
  int spilling = 0;
  double memory = 0, disk = 0, gc = 0, seconds = 0, records = 0;
  for (size_t i = 0; i < tasks.size(); ++i) {
    const RecordedTask& t = *tasks[i].task;
    if (t.memory_bytes_spilled <= 0) continue;
    const double task_gc = static_cast<double>(std::max<int64_t>(t.jvm_gc_time_ms, 0)) / 1000.0;
    const double disk_bytes = static_cast<double>(std::max<int64_t>(t.disk_bytes_spilled, 0));
    const double share = static_cast<double>(disk_bytes_per_second) / std::max(tasks[i].slots, 1);
    const double io = share > 0 ? 2.0 * disk_bytes / share : 0.0;
    const double run = static_cast<double>(std::max<int64_t>(t.executor_run_time_ms, 0)) / 1000.0;
    const double s = std::min(run, std::max(0.0, task_gc - g * tasks[i].records) + io);
    out.task_seconds[i] = s;
    ++spilling;
    memory += static_cast<double>(t.memory_bytes_spilled);
    disk += disk_bytes;
    gc += task_gc;
    seconds += s;
    records += tasks[i].records;
  }
  if (spilling == 0 || records <= 0) {
    out.task_seconds.assign(tasks.size(), 0.0);  // no record size: nothing to price it by
    return out;
  }
  nlohmann::json r = nlohmann::json::object();
  r["tasks"] = spilling;
  r["memoryBytes"] = static_cast<int64_t>(memory);
  r["diskBytes"] = static_cast<int64_t>(disk);
  r["gcSeconds"] = std::round(gc * 1000.0) / 1000.0;
  r["seconds"] = std::round(seconds * 1e4) / 1e4;
  r["recordBytes"] = std::round(memory / records * 1000.0) / 1000.0;
  out.record = std::move(r);
  return out;
}

}  // namespace aqesim::eventlog
