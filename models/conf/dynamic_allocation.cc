#include "models/conf/dynamic_allocation.h"

#include <cmath>
#include <functional>
#include <string>
#include <utility>

#include "models/conf/conf_key_table.h"
#include "models/conf/property_value.h"

namespace aqesim {
namespace {

// A key whose value is a whole number >= `min` (Spark's intConf).
ConfKeyInfo Count(std::string key, int min, std::function<void(DynamicAllocationConf*, int)> set) {
  return {std::move(key),
          [min, set](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
            const std::optional<int> v = ParseInt(value);
            if (!v || *v < min) return "expected an integer >= " + std::to_string(min) + FoundValue(value);
            set(&conf->dynamic_allocation, *v);
            return std::string();
          },
          {}};
}

// A duration (Spark's timeConf): a bare number is in `unit_seconds`; like Spark's
// JavaUtils.timeStringAs, the value is truncated to whole units ("1500ms" as a SECONDS key is 1 s).
ConfKeyInfo Duration(std::string key, double unit_seconds, bool positive,
                     std::function<void(DynamicAllocationConf*, double)> set) {
  return {std::move(key),
          [unit_seconds, positive, set](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
            const TimeStringResult r = ParseTimeString(value, unit_seconds);
            const double units = r.ok ? std::floor(r.seconds / unit_seconds + 1e-9) : -1;
            if (r.ok && positive && units == 0 && r.seconds > 0 && unit_seconds >= 1) {
              // "1ms": Spark's getTimeAsSeconds reads 0 s, which validateSettings refuses.
              return "expected a duration of at least 1s (Spark reads this key in whole seconds with "
                     "getTimeAsSeconds, dropping any fraction: this value is 0 s)" +
                     FoundValue(value);
            }
            if (!r.ok || units < 0 || (positive && units <= 0)) {
              return std::string("expected a duration ") + (positive ? "> 0" : ">= 0") + " such as " +
                     (unit_seconds >= 1 ? "60s or 2min" : "500ms or 30s") + FoundValue(value);
            }
            set(&conf->dynamic_allocation, units * unit_seconds);
            return std::string();
          },
          {}};
}

ConfKeyInfo Flag(std::string key, std::function<void(DynamicAllocationConf*, bool)> set) {
  return {std::move(key),
          [set](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
            const std::optional<bool> v = ParseBool(value);
            if (!v) return "expected a boolean (true or false)" + FoundValue(value);
            set(&conf->dynamic_allocation, *v);
            return std::string();
          },
          {}};
}

}  // namespace

void AppendDynamicAllocationKeys(std::vector<ConfKeyInfo>* t) {
  using D = DynamicAllocationConf;
  auto add = [t](ConfKeyInfo info, ConfKeyDoc doc) {
    info.doc = std::move(doc);
    t->push_back(std::move(info));
  };
  // "since": the keys' `.version(...)` in core's config/package.scala.
  add(Flag("spark.dynamicAllocation.enabled", [](D* d, bool v) { d->enabled = v; }),
      {"false", "boolean", "1.2.0", "executors come and go with the task backlog"});
  add(Count("spark.dynamicAllocation.minExecutors", 0, [](D* d, int v) { d->min_executors = v; }),
      {"0", "integer", "1.2.0", "dynamic allocation keeps at least this many executors"});
  // Spark's default is Int.MaxValue, which its documentation writes "infinity".
  add(Count("spark.dynamicAllocation.maxExecutors", 1, [](D* d, int v) { d->max_executors = v; }),
      {"infinity", "integer", "1.2.0", "dynamic allocation keeps at most this many executors"});
  add(Count("spark.dynamicAllocation.initialExecutors", 0, [](D* d, int v) { d->initial_executors = v; }),
      {"(value of spark.dynamicAllocation.minExecutors)", "integer", "1.3.0", "executors at the start"});
  add({"spark.dynamicAllocation.executorAllocationRatio",
       [](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
         const std::optional<double> v = ParseDouble(value);
         if (!v || !(*v > 0 && *v <= 1)) return "expected a number in (0, 1]" + FoundValue(value);
         conf->dynamic_allocation.executor_allocation_ratio = *v;
         return std::string();
       },
       {}},
      {"1.0", "ratio", "2.4.0", "share of the backlog's executors requested"});
  add(Duration("spark.dynamicAllocation.schedulerBacklogTimeout", 1, true,
               [](D* d, double s) { d->scheduler_backlog_timeout_seconds = s; }),
      {"1s", "duration (bare number: s)", "1.2.0", "backlog age before the first executor request"});
  add(Duration("spark.dynamicAllocation.sustainedSchedulerBacklogTimeout", 1, true,
               [](D* d, double s) { d->sustained_scheduler_backlog_timeout_seconds = s; }),
      {"(value of spark.dynamicAllocation.schedulerBacklogTimeout)", "duration (bare number: s)", "1.2.0",
       "interval of the following, doubling requests"});
  add(Duration("spark.dynamicAllocation.executorIdleTimeout", 1, false,
               [](D* d, double s) { d->executor_idle_timeout_seconds = s; }),
      {"60s", "duration (bare number: s)", "1.2.0", "an executor idle this long is removed"});
  // Spark's default is Integer.MAX_VALUE seconds, which its documentation writes "infinity".
  add(Duration("spark.dynamicAllocation.cachedExecutorIdleTimeout", 1, false,
               [](D* d, double s) { d->cached_executor_idle_timeout_seconds = s; }),
      {"infinity", "duration (bare number: s)", "1.4.0", "checked only; no cached blocks are modelled"});
  add(Flag("spark.dynamicAllocation.shuffleTracking.enabled",
           [](D* d, bool v) { d->shuffle_tracking_enabled = v; }),
      {"true", "boolean", "3.0.0", "an idle executor holding needed shuffle output is kept"});
  // Spark's default is Long.MaxValue milliseconds, which its documentation writes "infinity".
  add(Duration("spark.dynamicAllocation.shuffleTracking.timeout", 0.001, false,
               [](D* d, double s) { d->shuffle_tracking_timeout_seconds = s; }),
      {"infinity", "duration (bare number: ms)", "3.0.0", "how long such an executor is kept"});
  add(Flag("spark.shuffle.service.enabled", [](D* d, bool v) { d->shuffle_service_enabled = v; }),
      {"false", "boolean", "1.2.0", "shuffle files outlive their executor, which may then go"});
}

}  // namespace aqesim
