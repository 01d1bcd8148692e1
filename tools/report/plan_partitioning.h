// Where each shuffle of a scenario's plan gets its partition count, as the report needs it
// before recommending spark.sql.shuffle.partitions: from the configuration (a shuffle
// EnsureRequirements adds: spark.sql.shuffle.partitions, or initialPartitionNum with AQE),
// or fixed by the job (`numPartitions`: repartition(n), an RDD's numPartitions;
// `singlePartition`). A shuffle join (sort-merge, shuffled hash) reads both sides partition
// by partition, so their counts must agree: a configured shuffle joined with a fixed one is
// pinned to it, and raising the configuration would give the join sides different counts,
// which the simulator refuses as a plan error (models/engine/static_planner.h).
#ifndef AQESIM_TOOLS_REPORT_PLAN_PARTITIONING_H_
#define AQESIM_TOOLS_REPORT_PLAN_PARTITIONING_H_

#include <map>
#include <string>

#include "models/plan/plan.h"

namespace aqesim::report {

struct ShufflePartitioning {
  /// The job fixes the count (`numPartitions` or `singlePartition`); the configuration does not move it.
  bool fixed = false;
  /// For a configured shuffle: the id of a fixed shuffle that a shuffle join requires it to
  /// match; "" when none.
  std::string pinned_by;
};

/// Every exchange of `plan` by id.
std::map<std::string, ShufflePartitioning> PartitioningOfShuffles(const PlanNode& plan);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_PLAN_PARTITIONING_H_
