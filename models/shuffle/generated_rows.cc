#include "models/shuffle/generated_rows.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

namespace aqesim {
namespace {

// Seeded Fisher–Yates permutation of 0..n-1.
std::vector<int> Permutation(int n, Rng& rng) {
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  for (int i = n - 1; i > 0; --i) std::swap(p[i], p[rng.UniformInt(static_cast<uint64_t>(i) + 1)]);
  return p;
}

constexpr uint32_t kSelectBuckets = 4096;

// The selection bucket of a remainder in [0, 1): its leading bits, through double (rounding is
// monotone, so the map is monotone; the conversion avoids x87 rounding-mode switches).
inline uint32_t BucketOf(long double r) {
  const auto b = static_cast<uint32_t>(static_cast<double>(r) * kSelectBuckets);
  return b < kSelectBuckets ? b : kSelectBuckets - 1;
}

// Floors of total * weight share into `out`, remainders into scratch->remainder, and each
// remainder's selection bucket (scratch->bucket, counts in scratch->counts); returns the bytes
// still to hand out (may be negative through rounding). The arithmetic is the reference's:
// long double shares w / sum(w), quota = total * share, floor, remainder = quota - floor.
// quota is in [0, total] (share <= 1, rounding is monotone), so truncation is the floor.
template <typename Truncate>
[[gnu::always_inline]] inline int64_t SplitFloorsBody(int64_t total, std::span<const double> weights,
                                                      std::span<int64_t> out, SplitScratch* scratch,
                                                      Truncate trunc) {
  const size_t n = weights.size();
  long double sum_w = 0;
  for (double w : weights) sum_w += w > 0 ? w : 0;
  const bool even = !(sum_w > 0);
  scratch->remainder.resize(n);
  scratch->bucket.resize(n);
  scratch->counts.assign(kSelectBuckets, 0);
  long double* rem = scratch->remainder.data();
  uint16_t* bucket = scratch->bucket.data();
  uint32_t* counts = scratch->counts.data();
  const long double total_ld = static_cast<long double>(total);
  int64_t assigned = 0;
  for (size_t i = 0; i < n; ++i) {
    const long double share = even ? 1.0L / n : (weights[i] > 0 ? weights[i] / sum_w : 0.0L);
    const long double quota = total_ld * share;
    const int64_t fl = trunc(quota);
    out[i] = fl;
    const long double r = quota - static_cast<long double>(fl);
    rem[i] = r;
    const uint32_t b = BucketOf(r);
    bucket[i] = static_cast<uint16_t>(b);
    ++counts[b];
    assigned += fl;
  }
  return total - assigned;
}

int64_t SplitFloorsGeneric(int64_t total, std::span<const double> weights, std::span<int64_t> out,
                           SplitScratch* scratch) {
  return SplitFloorsBody(total, weights, out, scratch, [](long double q) { return static_cast<int64_t>(q); });
}

#if defined(__x86_64__) && defined(__GNUC__)
// With SSE3 the truncating conversion is one fisttp instead of two x87 control-word switches.
[[gnu::target("sse3")]] int64_t SplitFloorsSse3(int64_t total, std::span<const double> weights,
                                                std::span<int64_t> out, SplitScratch* scratch) {
  return SplitFloorsBody(total, weights, out, scratch, [](long double q) { return static_cast<int64_t>(q); });
}
#endif

int64_t SplitFloors(int64_t total, std::span<const double> weights, std::span<int64_t> out,
                    SplitScratch* scratch) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool sse3 = __builtin_cpu_supports("sse3");
  if (sse3) return SplitFloorsSse3(total, weights, out, scratch);
#endif
  return SplitFloorsGeneric(total, weights, out, scratch);
}

// Whole rounds of a deficit >= n; returns what is left (< n).
int64_t AddRounds(int64_t deficit, std::span<int64_t> out) {
  const int64_t n = static_cast<int64_t>(out.size());
  const int64_t rounds = deficit / n;
  if (rounds > 0)
    for (auto& v : out) v += rounds;
  return deficit - rounds * n;
}

// The cells that get one more byte: the k first in (remainder descending, distance from
// tie_start ascending). With v the k-th largest remainder, that is every cell above v, then the
// cells equal to v in cyclic order from tie_start. v is found by bucketing the remainders
// (in [0, 1)) by their leading bits — a monotone map, so the k-th largest lies in the bucket
// where the count from the top reaches k — and selecting within that bucket only.
struct Selection {
  long double v = 0;
  uint32_t bucket = 0;  // v's bucket: cells in higher buckets are above v
};

// After SplitFloors filled the remainders, buckets and counts (1 <= k <= n).
Selection SelectKth(size_t k, SplitScratch* scratch) {
  const std::vector<long double>& rem = scratch->remainder;
  const uint16_t* bucket = scratch->bucket.data();
  const uint32_t* counts = scratch->counts.data();
  const size_t n = rem.size();
  size_t above = 0;
  uint32_t b = kSelectBuckets - 1;
  while (above + counts[b] < k) above += counts[b--];
  std::vector<long double>& sel = scratch->select;
  sel.clear();
  for (size_t i = 0; i < n; ++i)
    if (bucket[i] == b) sel.push_back(rem[i]);
  const size_t pos = k - above - 1;
  std::nth_element(sel.begin(), sel.begin() + static_cast<std::ptrdiff_t>(pos), sel.end(),
                   std::greater<long double>());
  return Selection{sel[pos], b};
}

// Over-assigned through rounding: take bytes back from the smallest remainders (ties: the
// cells farthest from tie_start first), cycling until the total is exact.
void TakeBack(int64_t deficit, const std::vector<long double>& rem, size_t tie_start,
              std::span<int64_t> out) {
  const size_t n = out.size();
  const size_t t = tie_start % n;
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  auto pos = [&](size_t a) { return a >= t ? a - t : a + n - t; };
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (rem[a] != rem[b]) return rem[a] > rem[b];
    return pos(a) < pos(b);
  });
  for (size_t i = n; deficit < 0;) {
    i = (i == 0 ? n : i) - 1;
    if (out[order[i]] > 0) --out[order[i]], ++deficit;
  }
}

}  // namespace

void SplitByLargestRemainderInto(int64_t total, std::span<const double> weights, size_t tie_start,
                                 std::span<int64_t> out, SplitScratch* scratch) {
  const size_t n = weights.size();
  std::fill(out.begin(), out.end(), 0);
  if (n == 0 || total <= 0) return;
  int64_t deficit = SplitFloors(total, weights, out, scratch);
  const std::vector<long double>& rem = scratch->remainder;
  if (deficit > 0) {
    // Floating error can leave the deficit at or above n; hand out whole rounds first.
    deficit = AddRounds(deficit, out);
    const size_t k = static_cast<size_t>(deficit);
    if (k == 0) return;
    const Selection s = SelectKth(k, scratch);
    const uint16_t* bucket = scratch->bucket.data();
    size_t need = k;
    for (size_t i = 0; i < n; ++i) {
      const int64_t up = bucket[i] > s.bucket;  // branch-free: about half the cells are above
      out[i] += up;
      need -= static_cast<size_t>(up);
      if (bucket[i] == s.bucket && rem[i] > s.v) ++out[i], --need;
    }
    const size_t t = tie_start % n;
    for (size_t j = 0; need > 0 && j < n; ++j) {
      const size_t i = t + j < n ? t + j : t + j - n;
      if (bucket[i] == s.bucket && rem[i] == s.v) ++out[i], --need;
    }
  } else if (deficit < 0) {
    TakeBack(deficit, rem, tie_start, out);
  }
}

std::vector<double> GeneratedColumnWeights(const GenerateSizes& g, int partitions, Rng& rng) {
  if (static_cast<int>(g.column_weights.size()) == partitions) return g.column_weights;
  std::vector<double> w(partitions, 1.0);
  switch (g.distribution) {
    case GenerateSizes::Distribution::kUniform:
      break;
    case GenerateSizes::Distribution::kZipf: {
      const std::vector<int> rank = Permutation(partitions, rng);
      for (int r = 0; r < partitions; ++r) w[r] = std::pow(static_cast<double>(rank[r] + 1), -g.exponent);
      break;
    }
    case GenerateSizes::Distribution::kHotKeys: {
      std::vector<bool> hot(partitions, false);
      int hot_n = 0;
      if (!g.hot_partitions.empty()) {
        for (int p : g.hot_partitions)
          if (p >= 0 && p < partitions && !hot[p]) hot[p] = true, ++hot_n;
      } else {
        const std::vector<int> perm = Permutation(partitions, rng);
        const int count = std::clamp(g.hot_count, 0, partitions);
        for (int i = 0; i < count; ++i) hot[perm[i]] = true;
        hot_n = count;
      }
      if (hot_n == 0 || hot_n == partitions) break;
      const double hot_w = g.hot_fraction / hot_n;
      const double cold_w = (1.0 - g.hot_fraction) / (partitions - hot_n);
      for (int r = 0; r < partitions; ++r) w[r] = hot[r] ? hot_w : cold_w;
      break;
    }
  }
  return w;
}

GeneratedRowStream::GeneratedRowStream(const GenerateSizes& g, int map_tasks, int partitions,
                                       int64_t total_bytes, uint64_t seed)
    : noise_(g.noise), rng_(seed) {
  map_tasks = std::max(map_tasks, 1);
  partitions = std::max(partitions, 1);
  column_weights_ = GeneratedColumnWeights(g, partitions, rng_);
  if (g.map_bytes && static_cast<int>(g.map_bytes->size()) == map_tasks) {
    row_totals_ = *g.map_bytes;
  } else {
    const std::vector<double> equal(map_tasks, 1.0);
    row_totals_.assign(static_cast<size_t>(map_tasks), 0);
    SplitByLargestRemainderInto(std::max<int64_t>(total_bytes, 0), equal, 0, row_totals_, &scratch_);
  }
  if (noise_ > 0) {
    cell_weights_.resize(static_cast<size_t>(partitions));
    checkpoints_.push_back(rng_);
  }
}

void GeneratedRowStream::Checkpoint() {
  if (next_map_ % kCheckpointRows == 0 &&
      static_cast<size_t>(next_map_ / kCheckpointRows) == checkpoints_.size())
    checkpoints_.push_back(rng_);
}

void GeneratedRowStream::Seek(int map) {
  map = std::clamp(map, 0, num_maps());
  if (noise_ <= 0 || map == next_map_) {
    next_map_ = map;
    return;
  }
  // Start from the current position when it is between the target and its checkpoint.
  const size_t k = std::min(static_cast<size_t>(map / kCheckpointRows), checkpoints_.size() - 1);
  const int from = static_cast<int>(k) * kCheckpointRows;
  if (!(next_map_ >= from && next_map_ < map)) {
    rng_ = checkpoints_[k];
    next_map_ = from;
  }
  const size_t n = column_weights_.size();
  while (next_map_ < map) {
    for (size_t r = 0; r < n; ++r) rng_.NextU64();  // one Uniform01 per cell
    ++next_map_;
    Checkpoint();
  }
}

const GeneratedRowStream::SplitPlan& GeneratedRowStream::PlanFor(int64_t total) {
  for (const SplitPlan& p : plans_)
    if (p.total == total) return p;
  SplitPlan& p = plans_[next_plan_slot_];
  next_plan_slot_ = (next_plan_slot_ + 1) % 2;
  const size_t n = column_weights_.size();
  p.total = total;
  p.general = false;
  p.floors.assign(n, 0);
  p.above.clear();
  p.at.clear();
  p.need_at = 0;
  if (total <= 0) return p;
  int64_t deficit = SplitFloors(total, column_weights_, p.floors, &scratch_);
  if (deficit < 0) {
    p.general = true;
    return p;
  }
  deficit = AddRounds(deficit, p.floors);
  const size_t k = static_cast<size_t>(deficit);
  if (k == 0) return p;
  const std::vector<long double>& rem = scratch_.remainder;
  const Selection s = SelectKth(k, &scratch_);
  const uint16_t* bucket = scratch_.bucket.data();
  for (size_t i = 0; i < n; ++i) {
    if (bucket[i] < s.bucket) continue;
    if (bucket[i] > s.bucket || rem[i] > s.v)
      p.above.push_back(static_cast<int32_t>(i));
    else if (rem[i] == s.v)
      p.at.push_back(static_cast<int32_t>(i));
  }
  p.need_at = k - p.above.size();
  return p;
}

void GeneratedRowStream::NextRow(std::span<int64_t> out) {
  const int map = next_map_++;
  const size_t n = column_weights_.size();
  const size_t tie_start = static_cast<size_t>(map) % n;
  const int64_t total = row_totals_[map];
  if (noise_ > 0) {
    for (size_t r = 0; r < n; ++r) {
      cell_weights_[r] = column_weights_[r] * (1.0 + noise_ * (2.0 * rng_.Uniform01() - 1.0));
    }
    Checkpoint();
    SplitByLargestRemainderInto(total, cell_weights_, tie_start, out, &scratch_);
    return;
  }
  const SplitPlan& p = PlanFor(total);
  if (p.general) {
    SplitByLargestRemainderInto(total, column_weights_, tie_start, out, &scratch_);
    return;
  }
  std::copy(p.floors.begin(), p.floors.end(), out.begin());
  for (int32_t i : p.above) ++out[i];
  if (p.need_at > 0) {
    const size_t m = p.at.size();
    size_t j = static_cast<size_t>(
        std::lower_bound(p.at.begin(), p.at.end(), static_cast<int32_t>(tie_start)) - p.at.begin());
    for (size_t c = 0; c < p.need_at; ++c, ++j) {
      if (j == m) j = 0;
      ++out[p.at[j]];
    }
  }
}

StreamedShuffleStatistics StreamShuffleStatistics(GeneratedRowStream* rows, const MapStatusConfig& config,
                                                  MapStatusMode mode) {
  const size_t n = static_cast<size_t>(rows->num_reducers());
  ReportedShuffleSizes::Builder builder(rows->num_reducers(), config, mode);
  builder.Reserve(rows->num_maps() - rows->next_map());
  StreamedShuffleStatistics out;
  out.true_partition_bytes.assign(n, 0);
  out.map_bytes.reserve(static_cast<size_t>(rows->num_maps() - rows->next_map()));
  std::vector<int64_t> row(n);
  int64_t* col = out.true_partition_bytes.data();
  while (!rows->done()) {
    rows->NextRow(row);
    builder.AddMap(row);
    int64_t sum = 0;
    for (size_t r = 0; r < n; ++r) {
      col[r] += row[r];
      sum += row[r];
    }
    out.map_bytes.push_back(sum);
  }
  out.reported = std::move(builder).Build();
  return out;
}

}  // namespace aqesim
