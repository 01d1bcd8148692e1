#include "models/cost/stage_profile.h"

#include <algorithm>
#include <cmath>

namespace aqesim {

double VanDerCorput(uint64_t n) {
  double value = 0, base = 0.5;
  for (; n > 0; n >>= 1, base *= 0.5) {
    if (n & 1) value += base;
  }
  return value;
}

double QuantileAt(const std::vector<double>& table, double u) {
  if (table.empty()) return 1.0;
  if (table.size() == 1) return table.front();
  const double pos = std::clamp(u, 0.0, 1.0) * static_cast<double>(table.size() - 1);
  const size_t lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, table.size() - 1);
  return table[lo] + (table[hi] - table[lo]) * (pos - static_cast<double>(lo));
}

ProfiledStageTimes::ProfiledStageTimes(const StageProfile& profile, int num_tasks, int total_slots)
    : profile_(profile), num_tasks_(num_tasks) {
  expected_[0] = std::min(num_tasks, std::max(total_slots, 1));
  expected_[1] = num_tasks - expected_[0];
}

double ProfiledStageTimes::RowOps(int64_t input_bytes) const {
  if (profile_.input_bytes > 0)
    return profile_.row_ops * (static_cast<double>(input_bytes) / static_cast<double>(profile_.input_bytes));
  return profile_.row_ops / std::max(profile_.tasks, 1);
}

double ProfiledStageTimes::TaskSeconds(int task, int64_t input_bytes, bool first_wave) {
  const int wave = first_wave ? 0 : 1;
  const double overhead = first_wave ? profile_.overhead_first_wave_seconds : profile_.overhead_later_seconds;
  const double modelled =
      overhead + profile_.fixed_seconds + profile_.seconds_per_row_op * RowOps(input_bytes);
  const int j = drawn_[wave]++;
  if (profile_.critical && num_tasks_ == profile_.tasks && task == profile_.critical->task)
    return modelled * profile_.critical->residual;
  // The wave's tables, or the other wave's when it has none.
  const std::vector<std::vector<double>>* tables = &profile_.residuals[wave];
  if (tables->empty()) tables = &profile_.residuals[1 - wave];
  if (tables->empty()) return modelled;
  const int n = std::max(expected_[wave], j + 1);
  const size_t third =
      std::min(tables->size() - 1, static_cast<size_t>(j) * tables->size() / static_cast<size_t>(n));
  return modelled * QuantileAt((*tables)[third], VanDerCorput(static_cast<uint64_t>(j) + 1));
}

}  // namespace aqesim
