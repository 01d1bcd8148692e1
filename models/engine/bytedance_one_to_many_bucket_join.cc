#include "models/engine/bytedance_one_to_many_bucket_join.h"

#include <string>

#include "models/plan/bucketed_scan.h"
#include "models/plan/planned_properties.h"

namespace aqesim {
namespace {

/// True when side `side` of a `type` join outputs its rows that find no match.
bool Preserved(JoinType type, size_t side) {
  switch (type) {
    case JoinType::kFullOuter:
      return true;
    case JoinType::kLeftOuter:
    case JoinType::kLeftAnti:
      return side == 0;
    case JoinType::kRightOuter:
      return side == 1;
    default:
      return false;
  }
}

void Visit(ExecNode* n, const SqlConf& conf, std::vector<Decision>* decisions) {
  for (auto& c : n->children) Visit(c.get(), conf, decisions);
  if (!n->is_join() || !n->source) return;
  const JoinStrategy st = n->join->strategy;
  if (st != JoinStrategy::kSortMerge && st != JoinStrategy::kShuffledHash) return;
  ExecNode* scans[2] = {BucketedScanOperation(&n->child(0)), BucketedScanOperation(&n->child(1))};
  if (!scans[0] || !scans[1]) return;
  for (size_t i = 0; i < 2; ++i) {
    const std::vector<std::string>& given = i == 0 ? n->source->left_keys : n->source->right_keys;
    const BucketSpec& spec = *scans[i]->source->bucketing;
    if (!given.empty() && !SameKeySet(spec.keys, given)) return;
    if (*scans[i]->bucketed_read_tasks != spec.num_buckets) return;  // coalesced by Spark
  }
  const int l = *scans[0]->bucketed_read_tasks, r = *scans[1]->bucketed_read_tasks;
  if (l == r || (l > r ? l % r : r % l) != 0) return;
  const size_t side = l < r ? 0 : 1;  // the side read through a bucket union
  const int small = side == 0 ? l : r, large = side == 0 ? r : l;
  ExecNode* scan = scans[side];
  const ExecNode* other = scans[1 - side];
  const bool filter = Preserved(n->source->join_type, side);
  scan->bucketed_read_tasks = large;
  for (ExecNode* x = scan; x != n; x = x->parent) ComputePlannedProperties(x, conf);
  ComputePlannedProperties(n, conf);
  const std::string keys = KeyList(scan->source->bucketing->keys);
  Decision d;
  d.rule = "EnsureRequirements";
  d.message = n->id + ": bucket union of " + scan->id + ": its " + std::to_string(small) +
              " buckets read by the " + std::to_string(large) + " tasks of " + other->id +
              "'s buckets (task t reads bucket t mod " + std::to_string(small) + ", each bucket " +
              std::to_string(large / small) + " times" +
              (filter ? "; each copy keeps the rows with hash(" + keys + ") mod " + std::to_string(large) +
                            " = t, " + scan->id + " being the preserved side of a " +
                            std::string(JoinTypeName(n->source->join_type)) + " join"
                      : "") +
              "), no shuffle — variant " + kOneToManyBucketJoinVariant +
              " changed this decision (Spark: ShuffleExchange on the " + (side == 0 ? "left" : "right") +
              ", " + scan->id + " shuffled to " + std::to_string(large) + " partitions)";
  d.fields = {{"join", n->id},
              {"scan", scan->id},
              {"side", side == 0 ? "left" : "right"},
              {"bucketUnion", large / small},
              {"filter", filter},
              {"variants", {kOneToManyBucketJoinVariant}},
              {"static", true}};
  decisions->push_back(std::move(d));
}

}  // namespace

void OneToManyBucketJoin(ExecNode* root, const SqlConf& conf, std::vector<Decision>* decisions) {
  if (!conf.variants.bytedance_one_to_many_bucket_join || !conf.bucketing_enabled) return;
  Visit(root, conf, decisions);
}

}  // namespace aqesim
