#include "models/shuffle/range_partitioner.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace aqesim {

double RangeSampleSize(int partitions, int hint) {
  return std::min(static_cast<double>(hint) * static_cast<double>(partitions), 1e6);
}

int RangeSampleSizePerPartition(double sample_size, int input_partitions) {
  return static_cast<int>(std::ceil(3.0 * sample_size / std::max(1, input_partitions)));
}

std::vector<int64_t> DetermineBounds(std::vector<WeightedKey> candidates, int partitions) {
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const WeightedKey& a, const WeightedKey& b) { return a.key < b.key; });
  double sum = 0;
  for (const WeightedKey& c : candidates) sum += static_cast<double>(c.weight);
  const double step = sum / std::max(1, partitions);
  double cumulative = 0;
  double target = step;
  std::vector<int64_t> bounds;
  std::optional<int64_t> previous;
  for (size_t i = 0; i < candidates.size() && static_cast<int>(bounds.size()) < partitions - 1; ++i) {
    cumulative += static_cast<double>(candidates[i].weight);
    if (cumulative < target) continue;
    const int64_t key = candidates[i].key;
    if (previous && key <= *previous) continue;  // a key equal to the last bound is no bound
    bounds.push_back(key);
    target += step;
    previous = key;
  }
  return bounds;
}

int RangePartitionOf(int64_t key, std::span<const int64_t> bounds) {
  return static_cast<int>(std::lower_bound(bounds.begin(), bounds.end(), key) - bounds.begin());
}

std::vector<int64_t> ReservoirSampleOf(std::span<const int64_t> items, int k, Rng& rng) {
  const size_t keep = std::min(items.size(), static_cast<size_t>(std::max(k, 0)));
  std::vector<int64_t> reservoir(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(keep));
  for (size_t i = keep; i < items.size(); ++i) {
    const auto j = static_cast<size_t>(rng.Uniform01() * static_cast<double>(i + 1));
    if (j < keep) reservoir[j] = items[i];
  }
  return reservoir;
}

RangeSampling ComputeRangeBounds(const KeySource& source, int requested_partitions, int hint, uint64_t seed) {
  RangeSampling out;
  out.requested_partitions = requested_partitions;
  if (requested_partitions <= 1) return out;
  const int inputs = source.num_partitions();
  out.sample_size = RangeSampleSize(requested_partitions, hint);
  out.sample_size_per_partition = RangeSampleSizePerPartition(out.sample_size, inputs);
  std::vector<std::vector<int64_t>> sketch(static_cast<size_t>(inputs));
  for (int p = 0; p < inputs; ++p) {
    Rng rng(MixSeed(seed, "sketch", p));
    sketch[static_cast<size_t>(p)] = source.ReservoirSample(p, out.sample_size_per_partition, rng);
    out.total_rows += source.Count(p);
    out.sketched_keys += static_cast<int64_t>(sketch[static_cast<size_t>(p)].size());
  }
  if (out.total_rows == 0) return out;
  out.fraction = std::min(out.sample_size / static_cast<double>(out.total_rows), 1.0);
  std::vector<WeightedKey> candidates;
  for (int p = 0; p < inputs; ++p) {
    const int64_t n = source.Count(p);
    const std::vector<int64_t>& sample = sketch[static_cast<size_t>(p)];
    if (out.fraction * static_cast<double>(n) > out.sample_size_per_partition) {
      out.imbalanced_partitions.push_back(p);
      continue;
    }
    if (sample.empty()) continue;
    const auto weight = static_cast<float>(static_cast<double>(n) / static_cast<double>(sample.size()));
    for (int64_t key : sample) candidates.push_back({key, weight});
  }
  const auto resample_weight = static_cast<float>(1.0 / out.fraction);
  for (int p : out.imbalanced_partitions) {
    Rng rng(MixSeed(seed, "resample", p));
    for (int64_t key : source.BernoulliSample(p, out.fraction, rng)) {
      candidates.push_back({key, resample_weight});
      ++out.resampled_keys;
    }
  }
  const int partitions = static_cast<int>(std::min<int64_t>(requested_partitions, candidates.size()));
  out.bounds = DetermineBounds(std::move(candidates), partitions);
  return out;
}

}  // namespace aqesim
