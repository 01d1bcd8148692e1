#include "tools/eventlog/executor_remove.h"

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>

#include "models/conf/property_value.h"

namespace aqesim::eventlog {

std::vector<RecordedKill> IdleTimeoutKills(const RecordedApplication& app) {
  std::vector<RecordedKill> kills;
  const std::optional<std::string> enabled = app.spark_property("spark.dynamicAllocation.enabled");
  if (app.local_mode || !enabled || !ParseBool(*enabled).value_or(false)) return kills;
  std::vector<std::tuple<int64_t, int64_t, std::string, int64_t>> order;  // (killed, added, id, removed)
  for (const RecordedExecutor& e : app.executors) {
    if (!e.removed_time_ms) continue;
    bool idle_rule = false;  // (only a kill the idle timeout explains: "killed by driver", idle by then)
    const std::optional<int64_t> killed = app.OffersTasksUntilMs(e, &idle_rule);
    if (!killed || !idle_rule) continue;
    order.emplace_back(*killed, e.added_time_ms, e.executor_id, *e.removed_time_ms);
  }
  std::sort(order.begin(), order.end());
  for (const auto& [killed, added, id, removed] : order) kills.push_back({id, killed, removed});
  return kills;
}

std::vector<int64_t> ExecutorRemoveByKillMs(const RecordedApplication& app) {
  std::vector<int64_t> out;
  for (const RecordedKill& k : IdleTimeoutKills(app)) out.push_back(k.removed_ms - k.killed_ms);
  return out;
}

int64_t ExecutorKillsBefore(const RecordedApplication& app, int64_t at_ms) {
  int64_t n = 0;
  for (const RecordedKill& k : IdleTimeoutKills(app)) n += k.killed_ms < at_ms ? 1 : 0;
  return n;
}

}  // namespace aqesim::eventlog
