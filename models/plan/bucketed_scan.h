// A scan of a bucketed table (Spark's FileSourceScanExec over a relation with a BucketSpec,
// sql/core/.../DataSourceScanExec.scala): read as a bucketed scan, its output partitioning is
// HashPartitioning(bucket keys, numBuckets) and each task reads one bucket — or, when
// CoalesceBucketsInJoin coalesced the buckets to k, task t reads every bucket b with
// b mod k == t (a bucket id is the key's hash modulo numBuckets, so buckets t, t + k, t + 2k, …
// hold the keys of partition t of HashPartitioning(keys, k)). docs/aqe-behaviour.md §14.
#ifndef AQESIM_MODELS_PLAN_BUCKETED_SCAN_H_
#define AQESIM_MODELS_PLAN_BUCKETED_SCAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "models/plan/exec_node.h"

namespace aqesim {

/// Bytes of bucket `bucket` of `spec` over a scan of `scan_bytes`: bucket_bytes[bucket] when
/// given, else an even split (the first scan_bytes % numBuckets buckets one byte larger).
int64_t BucketBytes(const BucketSpec& spec, int64_t scan_bytes, int bucket);

/// Bytes task `task` of a bucketed scan read in `tasks` tasks reads: the buckets b with
/// b mod tasks == task.
int64_t BucketedTaskBytes(const BucketSpec& spec, int64_t scan_bytes, int tasks, int task);

/// True when `scan` is read through a bucket union (more tasks than buckets) whose copies each
/// keep only their own keys: the side of the join above it (through filters and projects) whose
/// unmatched rows are output (LeftOuter, FullOuter, LeftAnti on the left; RightOuter, FullOuter on
/// the right). models/engine/bytedance_one_to_many_bucket_join.h.
bool BucketUnionFilters(const ExecNode& scan);

/// The scan below `n` when `n` is a bucketed scan read bucketed, or only filters and projects
/// over one (Spark's BucketJoinHelper.hasScanOperation); null otherwise.
const ExecNode* BucketedScanOperation(const ExecNode& n);
ExecNode* BucketedScanOperation(ExecNode* n);

/// True when `a` and `b` hold the same keys, each once, in any order.
bool SameKeySet(const std::vector<std::string>& a, const std::vector<std::string>& b);

/// "user_id" or "(a, b)", for messages.
std::string KeyList(const std::vector<std::string>& keys);

}  // namespace aqesim

#endif  // AQESIM_MODELS_PLAN_BUCKETED_SCAN_H_
