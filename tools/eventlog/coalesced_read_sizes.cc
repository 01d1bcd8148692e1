#include "tools/eventlog/coalesced_read_sizes.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "models/shuffle/map_status.h"
#include "models/shuffle/sizes_spec.h"

namespace aqesim::eventlog {
namespace {

/// Passes over a group before giving up (each pass moves every block at most one step).
constexpr int kMaxPasses = 64;

/// How the simulated driver will see a block of x true bytes: reported as
/// ReportedBlockBytes(x, ratio), then MapStatus-encoded. Every "step" below is a change of
/// that code, found in true bytes.
class BlockReport {
 public:
  explicit BlockReport(double ratio) : ratio_(ratio) {}
  int Code(int64_t x) const { return CompressSize(ReportedBlockBytes(x, ratio_)); }
  /// What getSizeForBlock returns for the block.
  int64_t Decoded(int64_t x) const { return DecompressSize(static_cast<uint8_t>(Code(x))); }
  /// Smallest x >= 1 whose code is at least `code`.
  int64_t MinBytesOfCode(int code) const {
    if (code <= 1) return 1;
    return MinBytesReporting(DecompressSize(static_cast<uint8_t>(code - 1)) + 1);
  }
  /// Bytes a block can give without its code dropping.
  int64_t SlackDown(int64_t x) const {
    const int code = Code(x);
    if (code < 2) return 0;
    return std::max<int64_t>(x - MinBytesOfCode(code), 0);
  }
  /// Bytes a block can take without its code rising (empty blocks stay empty; the top code
  /// has no room counted).
  int64_t SlackUp(int64_t x) const {
    const int code = Code(x);
    if (x <= 0 || code >= 255) return 0;
    return std::max<int64_t>(MinBytesOfCode(code + 1) - 1 - x, 0);
  }

 private:
  /// Smallest x >= 1 with ReportedBlockBytes(x, ratio) >= y.
  int64_t MinBytesReporting(int64_t y) const {
    if (ratio_ == 1.0) return std::max<int64_t>(y, 1);
    auto x = static_cast<int64_t>(std::ceil((static_cast<double>(y) - 0.5) / ratio_));
    x = std::max<int64_t>(x, 1);
    while (x > 1 && ReportedBlockBytes(x - 1, ratio_) >= y) --x;
    while (ReportedBlockBytes(x, ratio_) < y) ++x;
    return x;
  }
  double ratio_;
};

/// Moves blocks of one group [start, end) so that its encoded sum approaches `driver` from
/// below (rules in the header). `blocks` rows are map tasks.
void MatchEncodedSum(const BlockReport& report, std::vector<std::vector<int64_t>>* blocks, int start, int end,
                     int64_t driver) {
  if (end - start < 2) return;
  auto& c = *blocks;
  const size_t maps = c.size();
  int64_t encoded = 0;
  for (size_t m = 0; m < maps; ++m) {
    for (int r = start; r < end; ++r) encoded += report.Decoded(c[m][r]);
  }
  // Lower blocks from the end of the group while the group's encoded sum is above Spark's.
  for (int pass = 0; pass < kMaxPasses && encoded > driver; ++pass) {
    bool moved = false;
    for (int r = end - 1; r >= start && encoded > driver; --r) {
      for (size_t m = 0; m < maps && encoded > driver; ++m) {
        const int64_t x = c[m][r];
        const int code = report.Code(x);
        if (code < 2) continue;
        const int64_t lowered = report.MinBytesOfCode(code) - 1;
        if (lowered < 1) continue;  // never empty a block
        int64_t freed = x - lowered;
        int64_t room = 0;
        for (int q = start; q < end; ++q) room += q == r ? 0 : report.SlackUp(c[m][q]);
        if (room < freed) continue;
        const int64_t before = report.Decoded(x);
        c[m][r] = lowered;
        for (int q = start; q < end && freed > 0; ++q) {
          if (q == r) continue;
          const int64_t take = std::min(freed, report.SlackUp(c[m][q]));
          c[m][q] += take;
          freed -= take;
        }
        encoded += report.Decoded(lowered) - before;
        moved = true;
      }
    }
    if (!moved) break;
  }
  // Raise blocks from the start of the group while a step still fits under Spark's sum.
  for (int pass = 0; pass < kMaxPasses && encoded < driver; ++pass) {
    bool moved = false;
    for (int r = start; r < end && encoded < driver; ++r) {
      for (size_t m = 0; m < maps && encoded < driver; ++m) {
        const int64_t x = c[m][r];
        if (x <= 0) continue;  // never fill an empty block
        const int code = report.Code(x);
        if (code >= 255) continue;
        const int64_t raised = report.MinBytesOfCode(code + 1);
        const int64_t gain = report.Decoded(raised) - report.Decoded(x);
        if (gain <= 0 || gain > driver - encoded) continue;
        int64_t cost = raised - x;
        int64_t room = 0;
        for (int q = start; q < end; ++q) room += q == r ? 0 : report.SlackDown(c[m][q]);
        if (room < cost) continue;
        c[m][r] = raised;
        for (int q = end - 1; q >= start && cost > 0; --q) {
          if (q == r) continue;
          const int64_t take = std::min(cost, report.SlackDown(c[m][q]));
          c[m][q] -= take;
          cost -= take;
        }
        encoded += gain;
        moved = true;
      }
    }
    if (!moved) break;
  }
}

/// Checks the arguments of ReconstructCoalescedBlocks / EstimateReportedSizeRatio and
/// returns the blocks before any move: (map, group) bytes fitted to both margins, each split
/// evenly over the group's reducers.
std::vector<std::vector<int64_t>> EvenBlocks(const std::vector<int64_t>& map_bytes,
                                             const std::vector<int>& group_starts, int num_reducers,
                                             const std::vector<int64_t>& group_true_bytes,
                                             const std::vector<int64_t>& group_driver_bytes) {
  const size_t groups = group_starts.size();
  if (groups == 0 || group_true_bytes.size() != groups ||
      (!group_driver_bytes.empty() && group_driver_bytes.size() != groups)) {
    throw std::invalid_argument("coalesced read: " + std::to_string(groups) + " group starts, " +
                                std::to_string(group_true_bytes.size()) + " group sizes, " +
                                std::to_string(group_driver_bytes.size()) + " driver sizes");
  }
  if (group_starts.front() != 0 || group_starts.back() >= num_reducers ||
      !std::is_sorted(group_starts.begin(), group_starts.end()) ||
      std::adjacent_find(group_starts.begin(), group_starts.end()) != group_starts.end()) {
    throw std::invalid_argument("coalesced read: group starts are not increasing from 0 below " +
                                std::to_string(num_reducers));
  }
  const auto negative = [](int64_t v) { return v < 0; };
  if (std::any_of(map_bytes.begin(), map_bytes.end(), negative) ||
      std::any_of(group_true_bytes.begin(), group_true_bytes.end(), negative)) {
    throw std::invalid_argument("coalesced read: negative sizes");
  }
  const long double rows = std::accumulate(map_bytes.begin(), map_bytes.end(), 0.0L);
  const long double cols = std::accumulate(group_true_bytes.begin(), group_true_bytes.end(), 0.0L);
  if (rows != cols || !(rows < 9223372036854775808.0L)) {
    throw std::invalid_argument("coalesced read: map tasks wrote " +
                                std::to_string(static_cast<double>(rows)) + " bytes, its groups read " +
                                std::to_string(static_cast<double>(cols)));
  }
  const SizeMatrix by_group = FitMarginals(map_bytes, group_true_bytes);
  std::vector<std::vector<int64_t>> blocks(map_bytes.size(), std::vector<int64_t>(num_reducers, 0));
  for (size_t g = 0; g < groups; ++g) {
    const int start = group_starts[g];
    const int end = g + 1 < groups ? group_starts[g + 1] : num_reducers;
    const int64_t length = end - start;
    for (size_t m = 0; m < map_bytes.size(); ++m) {
      const int64_t bytes = by_group.at(static_cast<int>(m), static_cast<int>(g));
      for (int r = start; r < end; ++r) blocks[m][r] = bytes / length + (r - start < bytes % length ? 1 : 0);
    }
  }
  return blocks;
}

long double EncodedTotal(const BlockReport& report, const std::vector<std::vector<int64_t>>& blocks) {
  long double total = 0;
  for (const auto& row : blocks) {
    for (int64_t x : row) total += report.Decoded(x);
  }
  return total;
}

}  // namespace

std::vector<int> EstimateGroupStarts(const std::vector<int64_t>& driver_bytes, int num_reducers) {
  const size_t groups = driver_bytes.size();
  if (groups == 0 || static_cast<int64_t>(groups) > num_reducers) return {};
  long double total = 0;
  for (int64_t b : driver_bytes) total += static_cast<long double>(std::max<int64_t>(b, 0));
  std::vector<int64_t> length(groups, 0);
  std::vector<std::pair<long double, size_t>> remainder;
  int64_t assigned = 0;
  for (size_t g = 0; g < groups; ++g) {
    const long double exact =
        total > 0 ? static_cast<long double>(std::max<int64_t>(driver_bytes[g], 0)) * num_reducers / total
                  : static_cast<long double>(num_reducers) / groups;
    length[g] = static_cast<int64_t>(exact);
    assigned += length[g];
    remainder.emplace_back(exact - static_cast<long double>(length[g]), g);
  }
  std::stable_sort(remainder.begin(), remainder.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t k = 0; assigned < num_reducers; k = (k + 1) % groups, ++assigned) ++length[remainder[k].second];
  // Every spec covers at least one reducer: take from the longest group (lowest index).
  for (size_t g = 0; g < groups; ++g) {
    if (length[g] > 0) continue;
    const size_t longest =
        static_cast<size_t>(std::max_element(length.begin(), length.end()) - length.begin());
    --length[longest];
    length[g] = 1;
  }
  std::vector<int> starts(groups, 0);
  for (size_t g = 1; g < groups; ++g) starts[g] = starts[g - 1] + static_cast<int>(length[g - 1]);
  return starts;
}

std::vector<std::vector<int64_t>> ReconstructCoalescedBlocks(const std::vector<int64_t>& map_bytes,
                                                             const std::vector<int>& group_starts,
                                                             int num_reducers,
                                                             const std::vector<int64_t>& group_true_bytes,
                                                             const std::vector<int64_t>& group_driver_bytes,
                                                             double reported_size_ratio) {
  std::vector<std::vector<int64_t>> blocks =
      EvenBlocks(map_bytes, group_starts, num_reducers, group_true_bytes, group_driver_bytes);
  if (group_driver_bytes.empty()) return blocks;
  const BlockReport report(reported_size_ratio);
  const size_t groups = group_starts.size();
  for (size_t g = 0; g < groups; ++g) {
    const int end = g + 1 < groups ? group_starts[g + 1] : num_reducers;
    MatchEncodedSum(report, &blocks, group_starts[g], end, group_driver_bytes[g]);
  }
  return blocks;
}

double EstimateReportedSizeRatio(const std::vector<int64_t>& map_bytes, const std::vector<int>& group_starts,
                                 int num_reducers, const std::vector<int64_t>& group_true_bytes,
                                 const std::vector<int64_t>& group_driver_bytes) {
  // Sums in long double: a corrupt log's sizes must not wrap.
  const long double r = std::accumulate(group_true_bytes.begin(), group_true_bytes.end(), 0.0L);
  const long double d = std::accumulate(group_driver_bytes.begin(), group_driver_bytes.end(), 0.0L);
  // What Spark's own MapStatus of the bytes read can give: every block decodes to [x, 1.1 x].
  // (Checked on the sums first: a vanilla log never pays for the blocks below.)
  if (r <= 0 || d <= 0 || (d >= r && d <= r * 1.1L)) return 1.0;
  const std::vector<std::vector<int64_t>> blocks =
      EvenBlocks(map_bytes, group_starts, num_reducers, group_true_bytes, group_driver_bytes);
  // The largest ratio whose encoded even split stays within the recorded total (monotone in
  // the ratio), on a log scale; then rounded to 4 significant digits, downwards.
  double lo = 1e-6, hi = 1e6;
  if (EncodedTotal(BlockReport(lo), blocks) > d) return lo;
  for (int i = 0; i < 100 && hi / lo > 1.0 + 1e-9; ++i) {
    const double mid = std::sqrt(lo * hi);
    (EncodedTotal(BlockReport(mid), blocks) <= d ? lo : hi) = mid;
  }
  const double scale = std::pow(10.0, 3 - static_cast<int>(std::floor(std::log10(lo))));
  return std::max(std::floor(lo * scale) / scale, 1e-6);
}

std::vector<int64_t> EncodedGroupBytes(const std::vector<std::vector<int64_t>>& blocks,
                                       const std::vector<int>& group_starts, double reported_size_ratio) {
  const BlockReport report(reported_size_ratio);
  std::vector<int64_t> out(group_starts.size(), 0);
  for (const auto& row : blocks) {
    for (size_t g = 0; g < group_starts.size(); ++g) {
      const int end = g + 1 < group_starts.size() ? group_starts[g + 1] : static_cast<int>(row.size());
      for (int r = group_starts[g]; r < end; ++r) out[g] += report.Decoded(row[r]);
    }
  }
  return out;
}

}  // namespace aqesim::eventlog
