// DisableUnnecessaryBucketedScan (sql/core/.../bucketing/DisableUnnecessaryBucketedScan.scala, a
// preparation rule after EnsureRequirements; docs/aqe-behaviour.md §14): when
// spark.sql.sources.bucketing.autoBucketedScan.enabled (default true), a bucketed scan whose
// partitioning nothing uses is read as a normal scan (file splits: `tasks`, `taskBytes`, or
// bytes / spark.sql.files.maxPartitionBytes), which spreads a few large buckets over more tasks.
//
// Walking down from the root: an operator with an "interesting" partition requirement (a
// sort-merge or shuffled hash join, a grouped or global aggregate) marks its subtree as
// needing it and clears the two flags below; an exchange (and a broadcast join's build side,
// which a BroadcastExchange reads) marks its subtree as under an exchange; any other operator
// but a filter, project or sort clears "only allowed operators". A bucketed scan is read
// normally when nothing above needs a partitioning, or when the need is cut by an exchange with
// only filters, projects and sorts between.
#ifndef AQESIM_MODELS_ENGINE_DISABLE_UNNECESSARY_BUCKETED_SCAN_H_
#define AQESIM_MODELS_ENGINE_DISABLE_UNNECESSARY_BUCKETED_SCAN_H_

#include <vector>

#include "models/aqe/decision.h"
#include "models/conf/spark_conf.h"
#include "models/plan/exec_node.h"

namespace aqesim {

/// Turns unneeded bucketed scans under `root` into normal scans; one
/// "DisableUnnecessaryBucketedScan" decision each.
void DisableUnnecessaryBucketedScan(ExecNode* root, const SqlConf& conf, std::vector<Decision>* decisions);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_DISABLE_UNNECESSARY_BUCKETED_SCAN_H_
