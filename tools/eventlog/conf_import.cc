#include "tools/eventlog/conf_import.h"

#include <optional>
#include <string>
#include <string_view>

#include "models/conf/property_value.h"

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

}  // namespace

json ImportConf(ImportContext& ctx, const RecordedSqlExecution* execution) {
  const RecordedApplication& app = ctx.app;
  json conf = json::object();
  for (const auto& [k, v] : app.spark_properties) {
    if (IsImportedConfKey(k)) conf[k] = v;
  }
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
