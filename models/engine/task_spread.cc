#include "models/engine/task_spread.h"

#include <algorithm>
#include <map>
#include <vector>

namespace aqesim {

namespace {

/// Spark's median (the upper one of an even count) of `v`; 0 when empty.
template <typename T>
T MedianOf(std::vector<T> v) {
  if (v.empty()) return T{};
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

TaskSpread TaskSpreadOf(const StageResult& s) {
  TaskSpread out;
  out.ratio = s.task_median_seconds > 0 ? s.task_max_seconds / s.task_median_seconds : 0;
  out.data_ratio = out.ratio;
  const std::vector<TaskResult>& tasks = s.task_results;
  if (tasks.empty() || s.task_median_seconds <= 0) return out;
  std::map<int, double> first_end;  // executor -> the stage's earliest task end there
  std::vector<int64_t> bytes;
  for (const TaskResult& t : tasks) {
    auto [it, fresh] = first_end.emplace(t.executor, t.end_seconds);
    if (!fresh) it->second = std::min(it->second, t.end_seconds);
    bytes.push_back(t.input_bytes + t.shuffle_read_bytes + t.shuffle_write_bytes);
  }
  const double median_bytes = static_cast<double>(MedianOf(bytes));
  std::vector<double> first_wave;
  double later_max = 0, heavy_first_max = 0, slowest = -1;
  for (size_t i = 0; i < tasks.size(); ++i) {
    const TaskResult& t = tasks[i];
    const double secs = t.end_seconds - t.start_seconds;
    const bool first = t.start_seconds < first_end[t.executor];
    const bool heavy = static_cast<double>(bytes[i]) > kStartupBytesFactor * median_bytes;
    if (first) {
      first_wave.push_back(secs);
      if (heavy) heavy_first_max = std::max(heavy_first_max, secs);
    } else {
      later_max = std::max(later_max, secs - t.startup_seconds);
    }
    if (secs > slowest) {
      slowest = secs;
      out.slowest_is_startup = !heavy && (first || t.startup_seconds >= 0.5 * secs);
    }
  }
  // A heavy first task against the other first tasks (they share its start-up), a later task
  // against every task's median.
  const double first_median = MedianOf(first_wave);
  const double heavy = first_median > 0 ? heavy_first_max / first_median : 0;
  out.data_ratio = std::min(out.ratio, std::max({1.0, heavy, later_max / s.task_median_seconds}));
  return out;
}

}  // namespace aqesim
