#include "models/engine/hot_bucket_shuffle.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "models/plan/bucketed_scan.h"
#include "models/plan/planned_properties.h"

namespace aqesim {

std::optional<SizesSpec> HotBucketShuffleSizes(const ExecNode& exchange, int reducers) {
  if (!exchange.source || exchange.source->sizes || exchange.children.empty() || reducers < 2 ||
      !exchange.parent || !exchange.parent->source)
    return std::nullopt;
  const ExecNode* scan = &exchange.child(0);
  while ((scan->op == PlanOp::kFilter || scan->op == PlanOp::kProject) && !scan->children.empty())
    scan = &scan->child(0);
  if (scan->op != PlanOp::kScan || scan->bucketed_read_tasks || !scan->source || !scan->source->bucketing)
    return std::nullopt;
  const BucketSpec& spec = *scan->source->bucketing;
  if (spec.bucket_bytes.empty()) return std::nullopt;  // an even split has no hot bucket
  // Partitioned on the bucket keys: the parent's keys for this child (none given: the bucket keys).
  const ExecNode& parent = *exchange.parent;
  const size_t side = parent.children.size() > 1 && &parent.child(1) == &exchange ? 1 : 0;
  const std::vector<std::string>& keys =
      parent.is_join() ? (side == 0 ? parent.source->left_keys : parent.source->right_keys)
                       : parent.source->grouping_keys;
  if (!keys.empty() && !SameKeySet(keys, spec.keys)) return std::nullopt;
  std::vector<int64_t> sorted = spec.bucket_bytes;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2),
                   sorted.end());
  const int64_t median = sorted[sorted.size() / 2];
  int64_t scan_bytes = 0, excess = 0;
  for (const int64_t b : spec.bucket_bytes) {
    scan_bytes += b;
    excess += std::max<int64_t>(b - median, 0);
  }
  if (excess <= 0 || scan_bytes <= 0) return std::nullopt;
  // Weights as shares of the scan's bytes (the same shares of the exchange's bytes).
  const double total = static_cast<double>(scan_bytes);
  std::vector<double> weights(static_cast<size_t>(reducers),
                              static_cast<double>(scan_bytes - excess) / total / reducers);
  for (size_t b = 0; b < spec.bucket_bytes.size(); ++b)
    weights[b % static_cast<size_t>(reducers)] +=
        static_cast<double>(std::max<int64_t>(spec.bucket_bytes[b] - median, 0)) / total;
  GenerateSizes g;
  g.partitions = reducers;
  g.column_weights = std::move(weights);
  SizesSpec out;
  out.form = std::move(g);
  out.source = "hash partitioning of " + scan->id + "'s buckets on " + KeyList(spec.keys) +
               " (a hot bucket's key in one partition)";
  return out;
}

}  // namespace aqesim
