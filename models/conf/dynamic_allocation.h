// DynamicAllocationConf: spark.dynamicAllocation.* (and the shuffle keys that decide whether an
// idle executor may go), as core/src/main/scala/org/apache/spark/internal/config/package.scala
// defines them in Spark 4.0. ExecutorAllocationManager (models/engine/executor_allocation_manager.h)
// runs the policy they describe. Times are seconds.
#ifndef AQESIM_MODELS_CONF_DYNAMIC_ALLOCATION_H_
#define AQESIM_MODELS_CONF_DYNAMIC_ALLOCATION_H_

#include <algorithm>
#include <optional>
#include <vector>

namespace aqesim {

struct DynamicAllocationConf {
  bool enabled = false;                          // spark.dynamicAllocation.enabled
  int min_executors = 0;                         // spark.dynamicAllocation.minExecutors (>= 0)
  std::optional<int> max_executors;              // spark.dynamicAllocation.maxExecutors (unset: unbounded)
  std::optional<int> initial_executors;          // spark.dynamicAllocation.initialExecutors (unset: min)
  double executor_allocation_ratio = 1.0;        // spark.dynamicAllocation.executorAllocationRatio, (0, 1]
  double scheduler_backlog_timeout_seconds = 1;  // spark.dynamicAllocation.schedulerBacklogTimeout (> 0)
  /// spark.dynamicAllocation.sustainedSchedulerBacklogTimeout (> 0; unset: schedulerBacklogTimeout).
  std::optional<double> sustained_scheduler_backlog_timeout_seconds;
  double executor_idle_timeout_seconds = 60;  // spark.dynamicAllocation.executorIdleTimeout (>= 0)
  /// spark.dynamicAllocation.cachedExecutorIdleTimeout: accepted; no cached blocks are modelled.
  std::optional<double> cached_executor_idle_timeout_seconds;
  bool shuffle_tracking_enabled = true;  // spark.dynamicAllocation.shuffleTracking.enabled (3.4+: true)
  /// spark.dynamicAllocation.shuffleTracking.timeout (unset: never): how long an idle executor
  /// holding shuffle output of the running query is kept.
  std::optional<double> shuffle_tracking_timeout_seconds;
  bool shuffle_service_enabled = false;  // spark.shuffle.service.enabled (shuffle files outlive executors)

  bool operator==(const DynamicAllocationConf&) const = default;

  /// The first target: max(minExecutors, initialExecutors, spark.executor.instances), as
  /// Spark's Utils.getDynamicAllocationInitialExecutors.
  int InitialExecutors(std::optional<int> executor_instances) const {
    return std::max({min_executors, initial_executors.value_or(0), executor_instances.value_or(0)});
  }
  double SustainedBacklogTimeoutSeconds() const {
    return sustained_scheduler_backlog_timeout_seconds.value_or(scheduler_backlog_timeout_seconds);
  }
};

struct ConfKeyInfo;  // conf_key_table.h

/// Appends the keys above to the configuration key table.
void AppendDynamicAllocationKeys(std::vector<ConfKeyInfo>* table);

}  // namespace aqesim

#endif  // AQESIM_MODELS_CONF_DYNAMIC_ALLOCATION_H_
