// ClusterSpec: the modelled cluster: executors × cores, static or following a recorded
// executor timeline (dynamic allocation as it happened).
#ifndef AQESIM_MODELS_CLUSTER_CLUSTER_H_
#define AQESIM_MODELS_CLUSTER_CLUSTER_H_

#include <cstdint>
#include <optional>
#include <vector>

namespace aqesim {

/// One executor of a timeline: seconds from the start of the simulation (the query's
/// submission) at which it registers and, optionally, stops taking tasks.
struct ExecutorLifetime {
  double add_seconds = 0;                // <= 0: registered from the start
  std::optional<double> remove_seconds;  // none: never removed; > add_seconds
  /// Its JVM already ran tasks before the start (no executorStartupSeconds). JSON `warm`.
  bool warm = false;
  /// Its JVM already ran this query's code (an earlier run of the same plan; implies `warm`):
  /// its first tasks of a stage are not a cold first wave (no executorStageWarmupSeconds, no
  /// coldCodeSlowdown). JSON `warmCode`.
  bool warm_code = false;
};

struct ClusterSpec {
  /// Number of executors (E). JSON `executors`, > 0.
  int executors = 2;
  /// Cores per executor (C). JSON `executorCores`, > 0. Task slots per executor are
  /// floor(C / spark.task.cpus).
  int executor_cores = 4;
  /// Executor heap, bytes. JSON `executorMemory` ("8g"), default 1 GiB (spark.executor.memory).
  int64_t executor_memory_bytes = int64_t{1} << 30;
  /// Network bandwidth of one executor (NIC), bytes per second, shared by its concurrent tasks.
  /// JSON `networkBytesPerSecond` ("1250m" = 10 Gbit/s). Default 1.25 GB/s (10 GbE).
  int64_t network_bytes_per_second = 1250LL * 1000 * 1000;
  /// Local disk bandwidth of one executor, bytes per second, shared by its concurrent tasks.
  /// JSON `diskBytesPerSecond`. Default 500 MB/s (one SATA SSD).
  int64_t disk_bytes_per_second = 500LL * 1000 * 1000;
  /// Driver's network bandwidth, bytes per second (broadcast collection). JSON
  /// `driverNetworkBytesPerSecond`. Default 1.25 GB/s.
  int64_t driver_network_bytes_per_second = 1250LL * 1000 * 1000;
  /// Driver heap, bytes (JSON `driverMemory`, default 1 GiB = spark.driver.memory).
  int64_t driver_memory_bytes = int64_t{1} << 30;

  /// JSON `executorTimeline`: when each executor registers and is removed. Empty: `executors`
  /// executors present throughout. Non-empty: the scheduler's executors are these entries;
  /// `executors` still sets defaultParallelism (executors × cores; Spark: the cores
  /// registered), and defaults to the most executors present at once.
  std::vector<ExecutorLifetime> executor_timeline;
  /// Static cluster: executors [0, warm_executors) have JVMs that already ran tasks before the
  /// start; the others are fresh (their first tasks pay executorStartupSeconds). JSON
  /// `warmExecutors`, default 0. (With a timeline, each entry's `warm` says it.)
  int warm_executors = 0;
  /// Static cluster: executors [0, warm_code_executors) already ran this query's code (an
  /// earlier run of the same plan; they count as warm JVMs too): no first-wave warm-up or cold
  /// slowdown on them. JSON `warmCodeExecutors`, default 0. (Timeline: each entry's `warmCode`.)
  int warm_code_executors = 0;

  int total_cores() const { return executors * executor_cores; }
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_CLUSTER_CLUSTER_H_
