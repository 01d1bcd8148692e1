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

namespace {

/// The median residual of the later wave (warm tasks); < 0 when the profile has none.
double WarmResidual(const StageProfile& p) {
  const auto& later = p.residuals[1];
  if (later.empty()) return -1.0;
  std::vector<double> medians;
  for (const auto& t : later) medians.push_back(QuantileAt(t, 0.5));
  std::sort(medians.begin(), medians.end());
  return medians[medians.size() / 2];
}

/// Run time (A + B·U) of a resized task of U row-operations (header comment, "Resized stages").
double ResizedRun(const StageProfile& p, double row_ops) {
  if (p.seconds_per_row_op > 0) return p.fixed_seconds + p.seconds_per_row_op * row_ops;
  const double mean = p.row_ops / std::max(p.tasks, 1);
  // All tasks alike ("fixed"): the stage's run time per task is its work on its rows.
  if (p.input_bytes > 0 && mean > 0) return p.fixed_seconds * row_ops / mean;
  return p.fixed_seconds;
}

/// True when every recorded task was its executor's first wave (no later-wave tables).
bool ColdOnly(const StageProfile& p) { return p.residuals[1].empty() && !p.residuals[0].empty(); }

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// B' of a cold-only profile (header comment), or nullopt when only the cost model has one.
std::optional<double> ResizeRate(const StageProfile& p, const LogRates& log) {
  if (p.seconds_per_row_op > 0) return p.seconds_per_row_op;
  return log.seconds_per_row_op;
}

/// A resized task of a cold-only profile (header comment, "Without").
double ColdOnlyResizedSeconds(const StageProfile& p, const LogRates& log, double row_ops, bool first_wave,
                              double residual, std::optional<double> modelled_work) {
  double rate = ResizeRate(p, log).value_or(row_ops > 0 && modelled_work ? *modelled_work / row_ops : 0.0);
  const double mean = p.row_ops / std::max(p.tasks, 1);
  const double recorded_cold = std::max(0.0, p.fixed_seconds + p.seconds_per_row_op * mean - rate * mean);
  const double cold = std::min(recorded_cold, log.cold_start_cap_seconds.value_or(recorded_cold));
  // What no cold start explains is work: on the task's rows, or per task when it read none.
  double per_task = 0;
  if (mean > 0)
    rate += (recorded_cold - cold) / mean;
  else
    per_task = recorded_cold - cold;
  const double work = per_task + rate * row_ops;
  if (first_wave) return (p.overhead_first_wave_seconds + cold + work) * residual;
  return (log.warm_overhead_seconds.value_or(p.overhead_later_seconds) + work) * residual;
}

/// A task of a stage whose task count differs from the recorded one, with its drawn residual.
double ResizedSeconds(const StageProfile& p, double row_ops, bool first_wave, double residual) {
  const double run = ResizedRun(p, row_ops);
  const double overhead = first_wave ? p.overhead_first_wave_seconds : p.overhead_later_seconds;
  const double warm = first_wave ? WarmResidual(p) : -1.0;
  if (warm < 0) return (overhead + run) * residual;
  // First wave: the recorded first-wave task of the recorded mean size, and the size
  // difference at the warm (later-wave) rate — a cold executor's extra cost is per task of
  // the first wave, not per row.
  const double mean_run = ResizedRun(p, p.row_ops / std::max(p.tasks, 1));
  const double seconds = (overhead + mean_run) * residual + (run - mean_run) * warm;
  return std::max(seconds, (overhead + run) * std::min(residual, warm));
}

}  // namespace

std::optional<double> FirstWaveExtraSeconds(const StageProfile& p) {
  const double warm = WarmResidual(p);
  if (warm < 0 || p.residuals[0].empty()) return std::nullopt;
  std::vector<double> medians;
  for (const auto& t : p.residuals[0]) medians.push_back(QuantileAt(t, 0.5));
  std::sort(medians.begin(), medians.end());
  const double cold = medians[medians.size() / 2];
  const double run = ResizedRun(p, p.row_ops / std::max(p.tasks, 1));
  return std::max(0.0,
                  (p.overhead_first_wave_seconds + run) * cold - (p.overhead_later_seconds + run) * warm);
}

LogRates LogResizeRates(const std::map<std::string, StageProfile>& profiles,
                        double model_cold_start_seconds) {
  std::vector<double> rates, overheads;
  double cap = std::max(0.0, model_cold_start_seconds);
  for (const auto& [name, p] : profiles) {
    if (p.rates == "stage" && p.seconds_per_row_op > 0) rates.push_back(p.seconds_per_row_op);
    if (!p.residuals[1].empty()) overheads.push_back(p.overhead_later_seconds);
    if (const auto extra = FirstWaveExtraSeconds(p)) cap = std::max(cap, *extra);
  }
  LogRates out;
  if (!rates.empty()) out.seconds_per_row_op = Median(rates);
  if (!overheads.empty()) out.warm_overhead_seconds = Median(overheads);
  out.cold_start_cap_seconds = cap;
  return out;
}

double ResizeFactor(const StageProfile& profile, int num_tasks) {
  const double n = std::max(num_tasks, 1), recorded = std::max(profile.tasks, 1);
  return std::max(n / recorded, recorded / n);
}

ProfiledStageTimes::ProfiledStageTimes(const StageProfile& profile, int num_tasks, int total_slots,
                                       std::optional<SpillPricing> spill, LogRates log)
    : profile_(profile), log_(log), num_tasks_(num_tasks), spill_(spill) {
  expected_[0] = std::min(num_tasks, std::max(total_slots, 1));
  expected_[1] = num_tasks - expected_[0];
}

double ProfiledStageTimes::RowOps(int64_t input_bytes) const {
  if (profile_.input_bytes > 0)
    return profile_.row_ops * (static_cast<double>(input_bytes) / static_cast<double>(profile_.input_bytes));
  return profile_.row_ops / std::max(profile_.tasks, 1);
}

bool ProfiledStageTimes::NeedsModelledWork() const {
  return num_tasks_ != profile_.tasks && ColdOnly(profile_) && !ResizeRate(profile_, log_);
}

double ProfiledStageTimes::TaskSeconds(int task, int64_t input_bytes, bool first_wave,
                                       std::optional<double> modelled_work) {
  const bool own_spill = num_tasks_ == profile_.tasks && profile_.critical &&
                         task == profile_.critical->task && profile_.critical->spill_seconds;
  const double spill = own_spill ? *profile_.critical->spill_seconds
                       : spill_  ? SpillSeconds(*spill_, RowOps(input_bytes))
                                 : 0.0;
  return WorkSeconds(task, input_bytes, first_wave, modelled_work) + spill;
}

double ProfiledStageTimes::WorkSeconds(int task, int64_t input_bytes, bool first_wave,
                                       std::optional<double> modelled_work) {
  const int wave = first_wave ? 0 : 1;
  const bool resized = num_tasks_ != profile_.tasks;
  const double overhead = first_wave ? profile_.overhead_first_wave_seconds : profile_.overhead_later_seconds;
  const double modelled =
      overhead + profile_.fixed_seconds + profile_.seconds_per_row_op * RowOps(input_bytes);
  const int j = drawn_[wave]++;
  if (!resized && profile_.critical && task == profile_.critical->task)
    return modelled * profile_.critical->residual;
  // The wave's tables, or the other wave's when it has none.
  const std::vector<std::vector<double>>* tables = &profile_.residuals[wave];
  if (tables->empty()) tables = &profile_.residuals[1 - wave];
  double residual = 1.0;
  if (!tables->empty()) {
    const int n = std::max(expected_[wave], j + 1);
    const size_t third =
        std::min(tables->size() - 1, static_cast<size_t>(j) * tables->size() / static_cast<size_t>(n));
    residual = QuantileAt((*tables)[third], VanDerCorput(static_cast<uint64_t>(j) + 1));
  }
  if (resized && ColdOnly(profile_))
    return ColdOnlyResizedSeconds(profile_, log_, RowOps(input_bytes), first_wave, residual, modelled_work);
  if (resized) return ResizedSeconds(profile_, RowOps(input_bytes), first_wave, residual);
  return modelled * residual;
}

}  // namespace aqesim
