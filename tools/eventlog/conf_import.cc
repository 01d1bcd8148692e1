#include "tools/eventlog/conf_import.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/conf/property_value.h"
#include "models/conf/spark_conf.h"
#include "models/scenario/scenario.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

/// Configuration keys copied from `Spark Properties` into the scenario's conf.
bool IsImportedConfKey(const std::string& key) {
  static const char* kExact[] = {
      "spark.sql.shuffle.partitions",
      "spark.sql.autoBroadcastJoinThreshold",
      "spark.sql.files.maxPartitionBytes",
      "spark.sql.files.openCostInBytes",
      "spark.sql.join.preferSortMergeJoin",
      "spark.sql.leafNodeDefaultParallelism",
      "spark.default.parallelism",
      "spark.shuffle.minNumPartitionsToHighlyCompress",
      "spark.shuffle.accurateBlockThreshold",
      "spark.shuffle.push.enabled",
      "spark.sql.shuffledHashJoinFactor",
      "spark.shuffle.compress",
      "spark.io.compression.codec",
      "spark.locality.wait",
      "spark.locality.wait.node",
      "spark.shuffle.reduceLocality.enabled",
      "spark.task.cpus",  // slots per executor = cores / task cpus
      "spark.scheduler.mode",
      "spark.master",  // local[N]: one executor in the driver (scale refuses it, no dynamic allocation)
  };
  for (const char* k : kExact) {
    if (key == k) return true;
  }
  return key.rfind("spark.sql.adaptive.", 0) == 0;
}

/// Spark's default of spark.sql.adaptive.enabled for a version string ("3.2.1" -> true).
bool AdaptiveDefault(const std::optional<std::string>& version) {
  if (!version) return true;
  // "MAJOR.MINOR..." (the minor's digits end at the next non-digit: "3.2.1", "3.3-SNAPSHOT").
  const std::string_view v = *version;
  const size_t dot = v.find('.');
  if (dot == std::string_view::npos) return true;
  const std::string_view rest = v.substr(dot + 1);
  const std::optional<int> major = ParseInt(v.substr(0, dot));
  const std::optional<int> minor = ParseInt(rest.substr(0, rest.find_first_not_of("0123456789")));
  if (!major || !minor) return true;
  return *major > 3 || (*major == 3 && *minor >= 2);
}

/// A boolean Spark property of the log, as Spark reads it (case-insensitive "true"/"false").
bool PropertyIsTrue(const RecordedApplication& app, const std::string& key) {
  const std::optional<std::string> v = app.spark_property(key);
  return v && ParseBool(*v).value_or(false);
}

/// Under dynamic allocation, the policy's keys (spark.dynamicAllocation.*, the shuffle service,
/// spark.executor.instances: ExecutorAllocationManager's initial target is the largest of
/// minExecutors, initialExecutors and it), so that a what-if replacing the recorded executor
/// timeline (`--conf spark.dynamicAllocation.maxExecutors=...`) starts from the recorded policy.
/// The recorded timeline still drives a replay (cluster_scheduler.h). Not carried in local mode
/// (Spark ignores dynamic allocation there).
void CarryDynamicAllocation(ImportContext& ctx, json* conf) {
  const RecordedApplication& app = ctx.app;
  if (app.local_mode || !PropertyIsTrue(app, "spark.dynamicAllocation.enabled")) return;
  RawConf carried;
  for (const auto& [k, v] : app.spark_properties) {
    if (k.rfind("spark.dynamicAllocation.", 0) == 0 || k == "spark.shuffle.service.enabled" ||
        k == "spark.executor.instances")
      carried[k] = v;
  }
  // Values the loader would refuse (Spark started with them, but e.g. a templated value or one
  // beyond this simulator's limits) must not cost the whole import: the keys are left out.
  std::vector<ConfProblem> problems;
  const SqlConf sc = ResolveSqlConf(carried, &problems);
  const DynamicAllocationConf& d = sc.dynamic_allocation;
  std::string refused;
  for (const ConfProblem& p : problems) {
    if (p.is_error && refused.empty()) refused = p.message;
  }
  if (refused.empty() && d.max_executors && d.min_executors > *d.max_executors)
    refused = "spark.dynamicAllocation.minExecutors is above maxExecutors";
  if (refused.empty() && d.max_executors && d.InitialExecutors(sc.executor_instances) > *d.max_executors)
    refused =
        "the initial executors (the most of minExecutors, initialExecutors and spark.executor.instances) "
        "are above maxExecutors";
  if (refused.empty() && d.InitialExecutors(sc.executor_instances) > kMaxExecutors)
    refused = "more than " + std::to_string(kMaxExecutors) + " initial executors";
  if (!refused.empty()) {
    ctx.warnings->push_back(app.path +
                            ": the log's dynamic allocation settings are not kept in the scenario's conf (" +
                            refused + "): a dynamic-allocation what-if starts from Spark's defaults");
    return;
  }
  for (const auto& [k, v] : carried) (*conf)[k] = v;
}

}  // namespace

json ImportConf(ImportContext& ctx, const RecordedSqlExecution* execution, bool executor_timeline) {
  const RecordedApplication& app = ctx.app;
  json conf = json::object();
  for (const auto& [k, v] : app.spark_properties) {
    if (IsImportedConfKey(k)) conf[k] = v;
  }
  if (executor_timeline) CarryDynamicAllocation(ctx, &conf);
  if (!conf.contains("spark.sql.adaptive.enabled")) {
    if (execution != nullptr) {
      conf["spark.sql.adaptive.enabled"] = execution->adaptive() ? "true" : "false";  // read from the plan
    } else {
      const bool on = AdaptiveDefault(app.spark_version) && app.spark_version &&
                      app.spark_version->rfind("1.", 0) != 0 && app.spark_version->rfind("2.", 0) != 0;
      conf["spark.sql.adaptive.enabled"] = on ? "true" : "false";
      ctx.Estimated("/conf/" + JsonPointerToken("spark.sql.adaptive.enabled"));
    }
  }
  return conf;
}

}  // namespace aqesim::eventlog
