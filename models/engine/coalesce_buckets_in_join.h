// Bucketed scans at planning: which scans are read bucketed, and CoalesceBucketsInJoin
// (sql/core/.../bucketing/CoalesceBucketsInJoin.scala, a preparation rule that runs before
// EnsureRequirements, with and without AQE). docs/aqe-behaviour.md §14.
//
// A scan of a table with `bucketing` is read as a bucketed scan when
// spark.sql.sources.bucketing.enabled (default true): numBuckets tasks, output partitioning
// HashPartitioning(bucket keys, numBuckets).
//
// CoalesceBucketsInJoin, when spark.sql.bucketing.coalesceBucketsInJoin.enabled (default false):
// a sort-merge or shuffled hash join whose two sides are each a bucketed scan under nothing but
// filters and projects, each partitioned on exactly its join keys (in any order), with different
// bucket counts of which the larger is a multiple of the smaller and larger / smaller ≤
// spark.sql.bucketing.coalesceBucketsInJoin.maxBucketRatio (default 4): the side with more
// buckets is read in as many tasks as the other has buckets, task t reading buckets t, t + k, …
// (models/plan/bucketed_scan.h). A shuffled hash join coalesces only its streamed side (a build
// side read in fewer, larger tasks could run out of memory). Runs after static join selection.
#ifndef AQESIM_MODELS_ENGINE_COALESCE_BUCKETS_IN_JOIN_H_
#define AQESIM_MODELS_ENGINE_COALESCE_BUCKETS_IN_JOIN_H_

#include <vector>

#include "models/aqe/decision.h"
#include "models/conf/spark_conf.h"
#include "models/plan/exec_node.h"

namespace aqesim {

/// Marks every scan of a bucketed table under `root` as read bucketed (numBuckets tasks) when
/// spark.sql.sources.bucketing.enabled; leaves them normal scans otherwise.
void PlanBucketedScans(ExecNode* root, const SqlConf& conf);

/// Coalesces the buckets of one side of each eligible join; one "CoalesceBucketsInJoin"
/// decision per coalesced side.
void CoalesceBucketsInJoin(ExecNode* root, const SqlConf& conf, std::vector<Decision>* decisions);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_COALESCE_BUCKETS_IN_JOIN_H_
