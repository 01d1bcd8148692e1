// A dynamic-allocation scenario for hand-computed schedules: the scan's bytes are its seconds
// (scanSecondsPerByte 1, nothing else costs), warm JVMs and compiled code, minExecutors 0, both
// backlog timeouts 1 s, executorIdleTimeout 60 s; `conf` adds or replaces keys.
#ifndef AQESIM_TESTS_SUPPORT_DYNAMIC_ALLOCATION_DOC_H_
#define AQESIM_TESTS_SUPPORT_DYNAMIC_ALLOCATION_DOC_H_

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"
#include "tests/support/launch_only_cost.h"

namespace aqesim::testing {

inline LoadResult LoadDynamicAllocation(const nlohmann::json& cluster, const nlohmann::json& plan,
                                        const nlohmann::json& conf = nlohmann::json::object()) {
  nlohmann::json cost = LaunchOnlyCost(0.0);
  cost["scanSecondsPerByte"] = 1.0;
  nlohmann::json c = {{"spark.dynamicAllocation.enabled", "true"},
                      {"spark.dynamicAllocation.minExecutors", "0"},
                      {"spark.dynamicAllocation.schedulerBacklogTimeout", "1s"},
                      {"spark.dynamicAllocation.sustainedSchedulerBacklogTimeout", "1s"},
                      {"spark.dynamicAllocation.executorIdleTimeout", "60s"}};
  c.update(conf);
  return LoadScenarioJson({{"name", "t"}, {"cluster", cluster}, {"cost", cost}, {"conf", c}, {"plan", plan}},
                          "test.json", ConfOverrides{});
}

/// The run with AQE off; fails the test when the scenario does not load.
inline RunResult RunDynamicAllocation(const nlohmann::json& cluster, const nlohmann::json& plan,
                                      const nlohmann::json& conf = nlohmann::json::object()) {
  LoadResult r = LoadDynamicAllocation(cluster, plan, conf);
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return SimulateQuery(*r.scenario, /*adaptive=*/false);
}

/// runs[].executors as (seconds, executors) pairs.
using ExecutorCounts = std::vector<std::pair<double, int>>;
inline ExecutorCounts ExecutorCountsOf(const RunResult& r) {
  ExecutorCounts out;
  for (const ExecutorCountChange& c : r.executors) out.emplace_back(c.seconds, c.executors);
  return out;
}

}  // namespace aqesim::testing

#endif  // AQESIM_TESTS_SUPPORT_DYNAMIC_ALLOCATION_DOC_H_
