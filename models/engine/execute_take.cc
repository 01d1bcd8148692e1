#include "models/engine/execute_take.h"

#include <algorithm>
#include <cmath>

namespace aqesim {

std::vector<TakeJob> ExecuteTakeJobs(const TakeSettings& settings,
                                     const std::vector<int64_t>& rows_per_partition) {
  std::vector<TakeJob> jobs;
  const int64_t total = static_cast<int64_t>(rows_per_partition.size());
  const int64_t n = settings.limit;
  const int64_t factor = std::max(settings.scale_up_factor, 2);
  int64_t found = 0;  // buf.length: never more than n
  int64_t scanned = 0;
  while (found < n && scanned < total) {
    int64_t to_try = std::max(settings.initial_partitions, 1);
    if (scanned > 0) {
      if (found == 0) {
        to_try = scanned * factor;
      } else {
        const double estimate = std::ceil(1.5 * static_cast<double>(n - found) *
                                          static_cast<double>(scanned) / static_cast<double>(found));
        // Scala's Double.toInt saturates; the cap below keeps it small anyway.
        to_try = std::min(estimate >= 9.2e18 ? INT64_MAX : static_cast<int64_t>(estimate), scanned * factor);
      }
    }
    const int64_t end = std::min(total, scanned + to_try);
    jobs.push_back(TakeJob{static_cast<int>(scanned), static_cast<int>(end - scanned)});
    for (int64_t p = scanned; p < end && found < n; ++p) {
      // Each task returns at most n rows; the driver keeps what it still needs.
      found += std::min(std::max<int64_t>(rows_per_partition[static_cast<size_t>(p)], 0), n - found);
    }
    scanned = end;
  }
  return jobs;
}

std::vector<int64_t> RowsInProportion(int64_t total_rows, const std::vector<int64_t>& bytes_per_partition) {
  const size_t p = bytes_per_partition.size();
  std::vector<int64_t> rows(p, 0);
  if (p == 0 || total_rows <= 0) return rows;
  double total_bytes = 0;
  for (int64_t b : bytes_per_partition) total_bytes += static_cast<double>(std::max<int64_t>(b, 0));
  const bool even = total_bytes <= 0;
  double cumulative = 0;
  int64_t assigned = 0;
  for (size_t i = 0; i < p; ++i) {
    cumulative += even ? 1.0 : static_cast<double>(std::max<int64_t>(bytes_per_partition[i], 0));
    const double share = cumulative / (even ? static_cast<double>(p) : total_bytes);
    const int64_t upto = i + 1 == p ? total_rows : std::llround(share * static_cast<double>(total_rows));
    rows[i] = std::max<int64_t>(0, upto - assigned);
    assigned += rows[i];
  }
  return rows;
}

}  // namespace aqesim
