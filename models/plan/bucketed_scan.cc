#include "models/plan/bucketed_scan.h"

#include <algorithm>

namespace aqesim {

int64_t BucketBytes(const BucketSpec& spec, int64_t scan_bytes, int bucket) {
  const int n = std::max(1, spec.num_buckets);
  if (bucket < 0 || bucket >= n) return 0;
  if (static_cast<int>(spec.bucket_bytes.size()) == n) return spec.bucket_bytes[bucket];
  return scan_bytes / n + (bucket < scan_bytes % n ? 1 : 0);
}

int64_t BucketedTaskBytes(const BucketSpec& spec, int64_t scan_bytes, int tasks, int task) {
  if (tasks <= 0 || task < 0 || task >= tasks) return 0;
  // A bucket union (variant bytedance.oneToManyBucketJoin): task t reads bucket t mod numBuckets.
  if (tasks > spec.num_buckets) return BucketBytes(spec, scan_bytes, task % std::max(1, spec.num_buckets));
  int64_t total = 0;
  for (int b = task; b < spec.num_buckets; b += tasks) total += BucketBytes(spec, scan_bytes, b);
  return total;
}

bool BucketUnionFilters(const ExecNode& scan) {
  if (!scan.bucketed_read_tasks || !scan.source || !scan.source->bucketing ||
      *scan.bucketed_read_tasks <= scan.source->bucketing->num_buckets)
    return false;
  const ExecNode* side = &scan;
  while (side->parent && (side->parent->op == PlanOp::kFilter || side->parent->op == PlanOp::kProject))
    side = side->parent;
  const ExecNode* join = side->parent;
  if (!join || !join->is_join() || !join->source) return false;
  const bool left = &join->child(0) == side;
  switch (join->source->join_type) {
    case JoinType::kFullOuter:
      return true;
    case JoinType::kLeftOuter:
    case JoinType::kLeftAnti:
      return left;
    case JoinType::kRightOuter:
      return !left;
    default:
      return false;
  }
}

const ExecNode* BucketedScanOperation(const ExecNode& n) {
  const ExecNode* x = &n;
  while (x->op == PlanOp::kFilter || x->op == PlanOp::kProject) x = &x->child(0);
  if (x->op != PlanOp::kScan || !x->bucketed_read_tasks || !x->source || !x->source->bucketing)
    return nullptr;
  return x;
}

ExecNode* BucketedScanOperation(ExecNode* n) {
  return const_cast<ExecNode*>(BucketedScanOperation(static_cast<const ExecNode&>(*n)));
}

bool SameKeySet(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  if (a.size() != b.size()) return false;
  std::vector<std::string> x = a, y = b;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  return x == y && std::adjacent_find(x.begin(), x.end()) == x.end();
}

std::string KeyList(const std::vector<std::string>& keys) {
  if (keys.size() == 1) return keys[0];
  std::string out = "(";
  for (size_t i = 0; i < keys.size(); ++i) out += (i ? ", " : "") + keys[i];
  return out + ")";
}

}  // namespace aqesim
