// Variant bytedance.oneToManyBucketJoin (ByteDance, Spark+AI Summit 2020; field-variants §2), beside
// CoalesceBucketsInJoin (coalesce_buckets_in_join.h) and changing what EnsureRequirements
// decides for it: a sort-merge or shuffled hash join of two bucketed scans (each under nothing
// but filters and projects, each bucketed on exactly its join keys) whose bucket counts k < m
// differ with m a multiple of k — one that Spark would shuffle — runs without a shuffle. The
// k-bucket side is read through a "bucket union" that keeps its partitioning: the join runs m
// tasks, task t reading bucket t of the m-bucket side and bucket t mod k of the other (the keys of
// bucket t mod k hash to buckets t mod k, t mod k + k, … of the m-bucket table), so each of the
// k buckets is read m / k times. Where the duplicated side's unmatched rows are output (it is the
// preserved side: LeftOuter, FullOuter or LeftAnti on the left, RightOuter or FullOuter on the
// right) each copy keeps only the rows with hash(keys) mod m = t, a filter over the bucket
// before the join (it streams the bucket's bytes and passes k / m of them on). Off by default
// (aqesim.variant.bytedance.oneToManyBucketJoin); runs after CoalesceBucketsInJoin, so a join
// Spark coalesces is left to Spark.
#ifndef AQESIM_MODELS_ENGINE_BYTEDANCE_ONE_TO_MANY_BUCKET_JOIN_H_
#define AQESIM_MODELS_ENGINE_BYTEDANCE_ONE_TO_MANY_BUCKET_JOIN_H_

#include <vector>

#include "models/aqe/decision.h"
#include "models/conf/spark_conf.h"
#include "models/plan/exec_node.h"

namespace aqesim {

/// The variant's name (after aqesim.variant.).
inline constexpr const char* kOneToManyBucketJoinVariant = "bytedance.oneToManyBucketJoin";

/// Reads the smaller side of each eligible join as a bucket union; one "EnsureRequirements"
/// decision per join, saying that the variant changed it and what Spark would have done.
void OneToManyBucketJoin(ExecNode* root, const SqlConf& conf, std::vector<Decision>* decisions);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_BYTEDANCE_ONE_TO_MANY_BUCKET_JOIN_H_
