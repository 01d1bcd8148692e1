#include "models/engine/coalesce_buckets_in_join.h"

#include <algorithm>
#include <string>

#include "models/plan/bucketed_scan.h"
#include "models/plan/join_selection_helper.h"
#include "models/plan/planned_properties.h"

namespace aqesim {
namespace {

/// The join keys of side `i` (the scan's bucket keys when the scenario gives none).
const std::vector<std::string>& SideKeys(const ExecNode& join, size_t i, const ExecNode& scan) {
  const std::vector<std::string>& given = i == 0 ? join.source->left_keys : join.source->right_keys;
  return given.empty() ? scan.source->bucketing->keys : given;
}

void Visit(ExecNode* n, const SqlConf& conf, std::vector<Decision>* decisions) {
  for (auto& c : n->children) Visit(c.get(), conf, decisions);
  if (!n->is_join() || !n->source) return;
  const JoinStrategy st = n->join->strategy;
  if (st != JoinStrategy::kSortMerge && st != JoinStrategy::kShuffledHash) return;
  ExecNode* left = BucketedScanOperation(&n->child(0));
  ExecNode* right = BucketedScanOperation(&n->child(1));
  if (!left || !right) return;
  // Both sides partitioned on exactly their join keys (ExtractJoinWithBuckets).
  if (!SameKeySet(left->source->bucketing->keys, SideKeys(*n, 0, *left)) ||
      !SameKeySet(right->source->bucketing->keys, SideKeys(*n, 1, *right)))
    return;
  // Not yet coalesced: the tasks are the table's buckets.
  const int l = *left->bucketed_read_tasks, r = *right->bucketed_read_tasks;
  if (l != left->source->bucketing->num_buckets || r != right->source->bucketing->num_buckets) return;
  const int small = std::min(l, r), large = std::max(l, r);
  if (small == large || large % small != 0) return;
  if (large / small > conf.coalesce_buckets_in_join_max_bucket_ratio) return;
  const size_t side = l > r ? 0 : 1;
  if (st == JoinStrategy::kShuffledHash && n->join->build_side &&
      BuildChildIndex(*n->join->build_side) == side)
    return;  // only the streamed side of a shuffled hash join
  ExecNode* scan = side == 0 ? left : right;
  scan->bucketed_read_tasks = small;
  for (ExecNode* x = scan; x != n; x = x->parent) ComputePlannedProperties(x, conf);
  ComputePlannedProperties(n, conf);
  Decision d;
  d.rule = "CoalesceBucketsInJoin";
  d.message = n->id + ": buckets of " + scan->id + " coalesced " + std::to_string(large) + " → " +
              std::to_string(small) + " (the " + (side == 0 ? "right" : "left") + " side has " +
              std::to_string(small) + "; ratio " + std::to_string(large / small) +
              " <= spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio " +
              std::to_string(conf.coalesce_buckets_in_join_max_bucket_ratio) + "): each of its " +
              std::to_string(small) + " tasks reads " + std::to_string(large / small) + " buckets";
  d.fields = {{"join", n->id},          {"scan", scan->id},      {"side", side == 0 ? "left" : "right"},
              {"bucketsBefore", large}, {"bucketsAfter", small}, {"static", true}};
  decisions->push_back(std::move(d));
}

}  // namespace

void PlanBucketedScans(ExecNode* root, const SqlConf& conf) {
  for (ExecNode* n : PreOrder(root)) {
    if (n->op != PlanOp::kScan || !n->source || !n->source->bucketing) continue;
    if (conf.bucketing_enabled)
      n->bucketed_read_tasks = n->source->bucketing->num_buckets;
    else
      n->bucketed_read_tasks.reset();
  }
}

void CoalesceBucketsInJoin(ExecNode* root, const SqlConf& conf, std::vector<Decision>* decisions) {
  if (!conf.coalesce_buckets_in_join_enabled) return;
  Visit(root, conf, decisions);
}

}  // namespace aqesim
