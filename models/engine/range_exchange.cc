#include "models/engine/range_exchange.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "models/plan/plan_error.h"
#include "models/plan/planned_properties.h"
#include "models/shuffle/generators.h"
#include "models/shuffle/key_distribution.h"

namespace aqesim {
namespace {

/// Bytes per row when no `rows` is given on the way down to the scan.
constexpr int64_t kDefaultRowBytes = 100;

/// Keys when the scan gives none: uniform over (nearly) distinct keys.
KeyDistribution DefaultKeys() {
  KeyDistribution d;
  d.distinct_keys = kMaxDistinctKeys;
  return d;
}

class ExplicitKeys : public KeySource {
 public:
  explicit ExplicitKeys(const std::vector<std::vector<int64_t>>& keys) : keys_(keys) {}
  int num_partitions() const override { return static_cast<int>(keys_.size()); }
  int64_t Count(int p) const override { return static_cast<int64_t>(keys_[static_cast<size_t>(p)].size()); }
  std::vector<int64_t> ReservoirSample(int p, int k, Rng& rng) const override {
    return ReservoirSampleOf(keys_[static_cast<size_t>(p)], k, rng);
  }
  std::vector<int64_t> BernoulliSample(int p, double fraction, Rng& rng) const override {
    std::vector<int64_t> out;
    for (int64_t key : keys_[static_cast<size_t>(p)])
      if (rng.Uniform01() < fraction) out.push_back(key);
    return out;
  }

 private:
  const std::vector<std::vector<int64_t>>& keys_;
};

class GeneratedKeys : public KeySource {
 public:
  GeneratedKeys(const KeyModel& model, std::vector<int64_t> rows) : model_(model), rows_(std::move(rows)) {}
  int num_partitions() const override { return static_cast<int>(rows_.size()); }
  int64_t Count(int p) const override { return rows_[static_cast<size_t>(p)]; }
  std::vector<int64_t> ReservoirSample(int p, int k, Rng& rng) const override {
    return Draws(std::min<int64_t>(k, Count(p)), rng);
  }
  std::vector<int64_t> BernoulliSample(int p, double fraction, Rng& rng) const override {
    return Draws(std::llround(fraction * static_cast<double>(Count(p))), rng);
  }

 private:
  std::vector<int64_t> Draws(int64_t n, Rng& rng) const {
    std::vector<int64_t> out(static_cast<size_t>(std::max<int64_t>(n, 0)));
    for (int64_t& key : out) key = model_.Draw(rng);
    return out;
  }
  const KeyModel& model_;
  std::vector<int64_t> rows_;
};

std::vector<int64_t> SplitEvenly(int64_t total, int parts) {
  const std::vector<double> equal(static_cast<size_t>(std::max(parts, 1)), 1.0);
  return SplitByLargestRemainder(std::max<int64_t>(total, 0), equal);
}

std::vector<double> AsWeights(const std::vector<int64_t>& v) { return {v.begin(), v.end()}; }

}  // namespace

RangeExchangePlan PlanRangeExchange(const ExecNode& exchange, int requested_partitions, int sample_hint,
                                    uint64_t seed) {
  const ExecNode& child = exchange.child(0);
  const int maps = std::max(1, child.planned_partitions);
  const std::string pointer = exchange.source ? exchange.source->pointer : "/plan";
  // Down through filters, projects and sorts to the scan; the first `rows` on the way.
  const ExecNode* x = &child;
  std::optional<int64_t> rows_total;
  while (true) {
    if (!rows_total && x->source && x->source->rows) rows_total = x->source->rows;
    if (x->op != PlanOp::kFilter && x->op != PlanOp::kProject && x->op != PlanOp::kSort) break;
    x = &x->child(0);
  }
  const ExecNode* scan = x->op == PlanOp::kScan ? x : nullptr;
  const KeyDistribution keys = scan && scan->source && scan->source->key_distribution
                                   ? *scan->source->key_distribution
                                   : DefaultKeys();

  // Map task bytes.
  std::vector<int64_t> map_bytes;
  if (scan && scan->source && scan->planned_partitions == maps) {
    const std::vector<int64_t>& tb = scan->source->task_bytes;
    const std::vector<int64_t> split =
        static_cast<int>(tb.size()) == maps ? tb : SplitEvenly(scan->source->scan_bytes, maps);
    map_bytes = SplitByLargestRemainder(DataBytes(child), AsWeights(split));
  } else {
    map_bytes = SplitEvenly(DataBytes(child), maps);
  }

  RangeExchangePlan out;
  if (keys.kind == KeyDistribution::Kind::kExplicit) {
    if (static_cast<int>(keys.task_keys.size()) != maps)
      throw PlanError{pointer, exchange.id + ": the keyDistribution below gives the keys of " +
                                   std::to_string(keys.task_keys.size()) +
                                   " scan tasks, but the exchange has " + std::to_string(maps) +
                                   " map tasks"};
    const ExplicitKeys source(keys.task_keys);
    RangeSampling s = ComputeRangeBounds(source, requested_partitions, sample_hint, seed);
    for (const std::vector<int64_t>& task : keys.task_keys) {
      for (int64_t key : task) {
        s.min_key = std::min(s.min_key.value_or(key), key);
        s.max_key = std::max(s.max_key.value_or(key), key);
      }
    }
    out.reducers = s.partitions();
    SizeMatrix m(maps, out.reducers);
    for (int t = 0; t < maps; ++t) {
      std::vector<double> counts(static_cast<size_t>(out.reducers), 0.0);
      for (int64_t key : keys.task_keys[static_cast<size_t>(t)])
        counts[static_cast<size_t>(RangePartitionOf(key, s.bounds))] += 1;
      const std::vector<int64_t> cells = SplitByLargestRemainder(map_bytes[static_cast<size_t>(t)], counts);
      std::copy(cells.begin(), cells.end(), m.mutable_row(t).begin());
    }
    out.sizes.form = std::move(m);
    out.sizes.source = "range partitioning of " + (scan ? scan->id : child.id) + "'s keys";
    out.sampling = std::make_shared<const RangeSampling>(std::move(s));
    return out;
  }
  const KeyModel model(keys);
  const int64_t total_rows = rows_total.value_or(DataBytes(child) / kDefaultRowBytes);
  const GeneratedKeys source(model, SplitByLargestRemainder(total_rows, AsWeights(map_bytes)));
  RangeSampling s = ComputeRangeBounds(source, requested_partitions, sample_hint, seed);
  if (total_rows > 0) {
    s.min_key = 0;
    s.max_key = keys.distinct_keys - 1;
  }
  out.reducers = s.partitions();
  GenerateSizes g;
  g.map_tasks = maps;
  g.partitions = out.reducers;
  g.map_bytes = map_bytes;
  double below = 0;
  for (int r = 0; r < out.reducers; ++r) {
    const double upto =
        r < static_cast<int>(s.bounds.size()) ? model.Cdf(s.bounds[static_cast<size_t>(r)]) : 1.0;
    g.column_weights.push_back(std::max(upto - below, 0.0));
    below = upto;
  }
  out.sizes.form = std::move(g);
  out.sizes.source = "range partitioning of " + (scan ? scan->id : child.id) + "'s keys";
  out.sampling = std::make_shared<const RangeSampling>(std::move(s));
  return out;
}

}  // namespace aqesim
