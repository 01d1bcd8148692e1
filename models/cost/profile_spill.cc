#include "models/cost/profile_spill.h"

#include <algorithm>

#include "models/cost/stage_profile.h"

namespace aqesim {

std::optional<SpillPricing> MeasuredSpillPricing(const StageProfile& profile, int64_t memory_per_task) {
  if (!profile.spill || profile.spill->memory_bytes <= 0 || profile.spill->record_bytes <= 0)
    return std::nullopt;
  SpillPricing p;
  p.record_bytes = profile.spill->record_bytes;
  p.seconds_per_byte = profile.spill->seconds / static_cast<double>(profile.spill->memory_bytes);
  p.memory_per_task = memory_per_task;
  return p;
}

SpillPricing FallbackSpillPricing(double unsafe_row_bytes, double compression_ratio,
                                  double disk_bytes_per_second_per_slot, int64_t memory_per_task) {
  SpillPricing p;
  p.record_bytes = std::max(unsafe_row_bytes, 0.0) + kSorterBytesPerRecord;
  if (compression_ratio > 0 && disk_bytes_per_second_per_slot > 0)
    p.seconds_per_byte = 2.0 / (compression_ratio * disk_bytes_per_second_per_slot);
  p.memory_per_task = memory_per_task;
  return p;
}

double SpillSeconds(const SpillPricing& pricing, double row_ops) {
  const double working_set = std::max(row_ops, 0.0) * pricing.record_bytes;
  if (working_set <= static_cast<double>(pricing.memory_per_task)) return 0;
  return working_set * pricing.seconds_per_byte;
}

}  // namespace aqesim
