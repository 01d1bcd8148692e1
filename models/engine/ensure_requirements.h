// EnsureRequirements (sql/core/.../exchange/EnsureRequirements.scala; field-variants §1): the
// shuffles Spark's planner inserts where a child's output partitioning does not satisfy the
// distribution its parent requires.
//
//   operator                                         requires of each child
//   sort-merge / shuffled hash join                  ClusteredDistribution (hash on its keys)
//   aggregate with grouping keys (grouped: true)     ClusteredDistribution
//   aggregate without grouping keys (grouped: false) AllTuples (one partition)
//   global sort (sort with global: true)             OrderedDistribution (a range exchange)
//   broadcast hash / nested-loop join, cartesian,
//   union, filter, project, local sort, exchange     nothing
//
// Output partitioning: a scan is UnknownPartitioning(tasks); an exchange HashPartitioning
// (RangePartitioning with `partitioning: range`, which alone satisfies OrderedDistribution
// besides SinglePartition; SinglePartition when `singlePartition`; round-robin —
// REBALANCE_PARTITIONS_BY_NONE — is unknown); filter, project, sort and aggregate keep their child's; a
// sort-merge or shuffled hash join its left child's, a broadcast join its streamed child's; a union or
// cartesian product is unknown. A scenario names no keys on exchanges, so a hash partitioning is taken to be
// on the keys the operator above clusters by (the scenario's own exchanges keep their meaning);
// SinglePartition satisfies both ClusteredDistribution and AllTuples.
//
// An inserted exchange has origin ENSURE_REQUIREMENTS, no `sizes` (the child's output spread
// evenly) and numPartitions: 1 for AllTuples; for a join side, the partition count of the
// other side when that side already satisfies its distribution with a count the user fixed
// (an exchange with numPartitions) — Spark shuffles to the fixed side's count so that both
// are co-partitioned; otherwise spark.sql.shuffle.partitions (initialPartitionNum when AQE and
// coalescing are on). Explicit exchanges in the scenario are never removed or changed.
// Runs after static join selection (a join planned as a broadcast needs no co-partitioning)
// and before the exchanges are materialised, as in Spark's preparation rules.
#ifndef AQESIM_MODELS_ENGINE_ENSURE_REQUIREMENTS_H_
#define AQESIM_MODELS_ENGINE_ENSURE_REQUIREMENTS_H_

#include <deque>
#include <vector>

#include "models/aqe/decision.h"
#include "models/conf/spark_conf.h"
#include "models/plan/exec_node.h"

namespace aqesim {

/// Inserts the exchanges `root`'s operators require. The scenario nodes of inserted exchanges
/// are appended to `sources` (which must outlive the plan); one "EnsureRequirements" decision
/// per insertion is appended to `decisions`.
void EnsureRequirements(ExecNode* root, const SqlConf& conf, std::deque<PlanNode>* sources,
                        std::vector<Decision>* decisions);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_ENSURE_REQUIREMENTS_H_
