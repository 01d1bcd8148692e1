#include "tools/tune/default_space.h"

#include <algorithm>
#include <string>

namespace aqesim::tune {

namespace {

SpaceAxis Parsed(const std::string& arg) {
  std::string error;
  return *ParseSpaceArg(arg, &error);  // the fixed texts below always parse
}

}  // namespace

std::vector<SpaceAxis> DefaultSpace(const Scenario& scenario, const RunResult& current,
                                    const ObjectiveSpec& objective) {
  std::vector<SpaceAxis> axes;
  if (!current.exchanges.empty()) {
    axes.push_back(Parsed("spark.sql.adaptive.advisoryPartitionSizeInBytes=16m..1g:log"));
    axes.push_back(Parsed("spark.sql.adaptive.coalescePartitions.parallelismFirst=true,false"));
    axes.push_back(Parsed("spark.sql.adaptive.coalescePartitions.minPartitionSize=1m..64m:log"));
    // The reducer count of the shuffles that follow the configuration (a repartition(n)'s own
    // count does not): coalescing merges what is too many, nothing splits what is too few.
    const int n = scenario.conf.InitialShufflePartitions();
    const bool follows = std::any_of(current.exchanges.begin(), current.exchanges.end(),
                                     [n](const ExchangeExplain& e) { return e.num_partitions == n; });
    if (follows) {
      SpaceAxis p;
      p.key = n == scenario.conf.shuffle_partitions
                  ? "spark.sql.shuffle.partitions"
                  : "spark.sql.adaptive.coalescePartitions.initialPartitionNum";
      p.kind = SpaceAxis::Kind::kInteger;
      p.low = std::max(1, n / 4);
      p.high = std::max(4.0 * n, p.low + 1);
      p.log_scale = true;
      axes.push_back(p);
    }
  }
  if (!current.joins.empty()) {
    axes.push_back(Parsed("spark.sql.adaptive.autoBroadcastJoinThreshold=10m..512m:log"));
    axes.push_back(Parsed("spark.sql.adaptive.skewJoin.skewedPartitionFactor=2.0..10"));
    axes.push_back(Parsed("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes=64m..1g:log"));
  }
  // MapStatus hid a skewed partition from OptimizeSkewedJoin (HighlyCompressedMapStatus above
  // spark.shuffle.minNumPartitionsToHighlyCompress reducers reports small blocks at their average).
  const bool hidden = std::any_of(current.not_applied.begin(), current.not_applied.end(),
                                  [](const NotApplied& n) { return n.reason == "hiddenByMapStatus"; });
  if (hidden) {
    axes.push_back(Parsed("spark.shuffle.accurateBlockSkewedFactor=-1,2,5,10"));
    axes.push_back(Parsed("spark.shuffle.minNumPartitionsToHighlyCompress=2000,5000,10000"));
  }
  // OptimizeSkewedJoin did not split a skew because it needs an extra shuffle: the rule proposes
  // forcing it (spark.sql.adaptive.forceOptimizeSkewedJoin); the search tells whether it pays.
  const bool extra_shuffle = std::any_of(current.not_applied.begin(), current.not_applied.end(),
                                         [](const NotApplied& n) { return n.reason == "needsExtraShuffle"; });
  if (extra_shuffle) axes.push_back(Parsed("spark.sql.adaptive.forceOptimizeSkewedJoin=false,true"));
  if (objective.kind != ObjectiveSpec::Kind::kMakespan) {
    SpaceAxis e;
    e.key = "cluster.executors";
    e.kind = SpaceAxis::Kind::kInteger;
    e.low = 1;
    e.high = 2.0 * std::max(1, scenario.cluster.executors);
    const DynamicAllocationConf& dynamic = scenario.conf.dynamic_allocation;
    if (dynamic.enabled) {
      // Under dynamic allocation spark.executor.instances is only where the allocation manager
      // starts (ExecutorAllocationManager's initial target): what caps the executors is
      // maxExecutors, so that is the key searched, from minExecutors up.
      e.key = "spark.dynamicAllocation.maxExecutors";
      e.low = std::max(1, dynamic.min_executors);
      e.high = std::max(e.high, e.low + 1);
    }
    axes.push_back(e);
    // Memory: half to twice today's, in whole MiB (spill and broadcast limits follow it).
    const int64_t mib = std::max<int64_t>(1, scenario.cluster.executor_memory_bytes >> 20);
    SpaceAxis m;
    m.key = "cluster.executorMemory";
    m.kind = SpaceAxis::Kind::kInteger;
    m.unit.push_back('m');  // (GCC 12's -Wrestrict misfires on assigning the literal here)
    m.low = static_cast<double>(std::max<int64_t>(512, mib / 2));
    m.high = static_cast<double>(std::max<int64_t>(mib * 2, static_cast<int64_t>(m.low) + 1));
    m.log_scale = true;
    axes.push_back(m);
    if (scenario.cluster.executor_cores > 1) {
      SpaceAxis c;
      c.key = "cluster.executorCores";
      c.kind = SpaceAxis::Kind::kInteger;
      c.low = 1;
      c.high = scenario.cluster.executor_cores;
      axes.push_back(c);
    }
  }
  return axes;
}

}  // namespace aqesim::tune
