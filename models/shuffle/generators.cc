#include "models/shuffle/generators.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/rng.h"

namespace aqesim {
namespace {

// Seeded Fisher–Yates permutation of 0..n-1.
std::vector<int> Permutation(int n, Rng& rng) {
  std::vector<int> p(n);
  std::iota(p.begin(), p.end(), 0);
  for (int i = n - 1; i > 0; --i) std::swap(p[i], p[rng.UniformInt(static_cast<uint64_t>(i) + 1)]);
  return p;
}

std::vector<double> ColumnWeights(const GenerateSizes& g, int partitions, Rng& rng) {
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

}  // namespace

std::vector<int64_t> SplitByLargestRemainder(int64_t total, std::span<const double> weights, size_t tie_start) {
  const size_t n = weights.size();
  std::vector<int64_t> out(n, 0);
  if (n == 0 || total <= 0) return out;
  long double sum_w = 0;
  for (double w : weights) sum_w += w > 0 ? w : 0;
  const bool even = !(sum_w > 0);
  std::vector<long double> remainder(n);
  int64_t assigned = 0;
  for (size_t i = 0; i < n; ++i) {
    const long double share = even ? 1.0L / n : (weights[i] > 0 ? weights[i] / sum_w : 0.0L);
    const long double quota = static_cast<long double>(total) * share;
    long double fl = std::floor(quota);
    if (fl > static_cast<long double>(total)) fl = static_cast<long double>(total);
    out[i] = static_cast<int64_t>(fl);
    remainder[i] = quota - fl;
    assigned += out[i];
  }
  // Order: largest remainder first; ties by distance from tie_start (cyclic).
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  auto before = [&](size_t a, size_t b) {
    if (remainder[a] != remainder[b]) return remainder[a] > remainder[b];
    return (a + n - tie_start % n) % n < (b + n - tie_start % n) % n;
  };
  int64_t deficit = total - assigned;
  if (deficit > 0) {
    // Floating error can leave the deficit at or above n; hand out whole rounds first.
    const int64_t rounds = deficit / static_cast<int64_t>(n);
    if (rounds > 0)
      for (auto& v : out) v += rounds;
    deficit -= rounds * static_cast<int64_t>(n);
    const size_t k = static_cast<size_t>(deficit);
    if (k > 0) {
      std::nth_element(order.begin(), order.begin() + (k - 1), order.end(), before);
      for (size_t i = 0; i < k; ++i) ++out[order[i]];
    }
  } else if (deficit < 0) {
    // Over-assigned through rounding: take back from the smallest remainders.
    std::sort(order.begin(), order.end(), before);
    for (size_t i = n; deficit < 0;) {
      i = (i == 0 ? n : i) - 1;
      if (out[order[i]] > 0) --out[order[i]], ++deficit;
    }
  }
  return out;
}

SizeMatrix GenerateSizeMatrix(const GenerateSizes& g, int map_tasks, int partitions, int64_t total_bytes,
                              uint64_t seed) {
  map_tasks = std::max(map_tasks, 1);
  partitions = std::max(partitions, 1);
  Rng rng(seed);
  const std::vector<double> column_weights = ColumnWeights(g, partitions, rng);

  std::vector<int64_t> row_totals;
  if (g.map_bytes && static_cast<int>(g.map_bytes->size()) == map_tasks) {
    row_totals = *g.map_bytes;
  } else {
    const std::vector<double> equal(map_tasks, 1.0);
    row_totals = SplitByLargestRemainder(std::max<int64_t>(total_bytes, 0), equal);
  }

  SizeMatrix m(map_tasks, partitions);
  std::vector<double> cell_weights(partitions);
  for (int map = 0; map < map_tasks; ++map) {
    for (int r = 0; r < partitions; ++r) {
      double w = column_weights[r];
      if (g.noise > 0) w *= 1.0 + g.noise * (2.0 * rng.Uniform01() - 1.0);
      cell_weights[r] = w;
    }
    const std::vector<int64_t> row =
        SplitByLargestRemainder(row_totals[map], cell_weights, static_cast<size_t>(map) % partitions);
    std::copy(row.begin(), row.end(), m.mutable_row(map).begin());
  }
  return m;
}

uint64_t SizesSeedFor(uint64_t scenario_seed, std::string_view exchange_id) {
  return MixSeed(scenario_seed, "sizes", exchange_id);
}

}  // namespace aqesim
