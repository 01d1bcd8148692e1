// The request → registration time of dynamic allocation's executors, measured on a hand-built
// recorded application: ramps of backlog, each one's first registration sampled.
#include "tools/eventlog/executor_start.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "tests/tools/eventlog/test_util.h"

namespace aqesim::eventlog {
namespace {

void AddExecutor(RecordedApplication* app, const std::string& id, int64_t added,
                 std::optional<int64_t> removed = std::nullopt) {
  RecordedExecutor e;
  e.executor_id = id;
  e.host = "host" + id;
  e.total_cores = 4;  // 4 slots
  e.added_time_ms = added;
  e.removed_time_ms = removed;
  app->executors.push_back(e);
}

/// Stage `id` submitted at `submitted` with one successful task per (executor, launch, finish).
void AddStage(RecordedApplication* app, int id, int64_t submitted,
              const std::vector<std::tuple<std::string, int64_t, int64_t>>& tasks) {
  RecordedStage& st = app->stages[id];
  st.stage_id = id;
  st.submitted = true;
  st.submission_time_ms = submitted;
  st.num_tasks = static_cast<int>(tasks.size());
  int64_t last = submitted;
  for (const auto& [executor, launch, finish] : tasks) {
    RecordedTask t;
    t.stage_id = id;
    t.index = static_cast<int>(st.tasks.size());
    t.executor_id = executor;
    t.launch_time_ms = launch;
    t.finish_time_ms = finish;
    t.successful = true;
    t.end_reason = "Success";
    st.tasks.push_back(t);
    last = std::max(last, finish);
  }
  st.completion_time_ms = last;
}

RecordedApplication Ramps() {
  RecordedApplication app;
  app.spark_properties.emplace("spark.master", "yarn");
  app.spark_properties.emplace("spark.dynamicAllocation.enabled", "true");
  AddExecutor(&app, "1", 0, 1000);  // before any stage: an initial executor, no sample
  AddExecutor(&app, "2", 9000);     // stage 0's 6 tasks wait from 5000 on no slot: 9000 − (5000 + 1000)
  AddExecutor(&app, "3", 9500);     // the same ramp's second executor (8 slots ≥ 6: it ends it): none
  AddExecutor(&app, "4", 23000);    // stage 1's 10 tasks > 8 slots from 20000: 23000 − (20000 + 1000)
  AddStage(&app, 0, 5000,
           {{"2", 9000, 10000},
            {"2", 9000, 10000},
            {"2", 9000, 10000},
            {"2", 9000, 10000},
            {"3", 9500, 10500},
            {"3", 9500, 10500}});
  std::vector<std::tuple<std::string, int64_t, int64_t>> t1;
  for (int i = 0; i < 8; ++i) t1.emplace_back(i < 4 ? "2" : "3", 20000, 24000);
  t1.emplace_back("4", 23000, 25000);
  t1.emplace_back("4", 23000, 25000);
  AddStage(&app, 1, 20000, t1);
  return app;
}

TEST_CASE("ExecutorStartMs: the first registration of each backlog ramp after the backlog timeout",
          "[eventlog][cluster]") {
  const RecordedApplication app = Ramps();
  CHECK(ExecutorStartSamplesMs(app) == std::vector<int64_t>{3000, 2000});
  CHECK(ExecutorStartMs(app) == 2500);
}

TEST_CASE("ExecutorStartMs: spark.dynamicAllocation.schedulerBacklogTimeout moves the requests",
          "[eventlog][cluster]") {
  RecordedApplication app = Ramps();
  app.spark_properties.emplace("spark.dynamicAllocation.schedulerBacklogTimeout", "2s");
  CHECK(ExecutorStartSamplesMs(app) == std::vector<int64_t>{2000, 1000});
}

TEST_CASE("ExecutorStartMs: nothing without dynamic allocation", "[eventlog][cluster]") {
  RecordedApplication app = Ramps();
  app.spark_properties.erase("spark.dynamicAllocation.enabled");
  CHECK(ExecutorStartSamplesMs(app).empty());
  CHECK_FALSE(ExecutorStartMs(app).has_value());
}

TEST_CASE("ExecutorStartMs: the dynamic_alloc log's first ramp, read by hand from its events",
          "[eventlog][cluster]") {
  // Executors 1 and 2 were removed (idle) at ...037269 and ...040792; stage 0 (6 tasks) was
  // submitted at 1727966085560 on no executor; executor 4 registered at 1727966095765:
  // 95765 − (85560 + 1000) = 9205 ms. The log's median is that ramp's too.
  const RecordedApplication app =
      ReadEventLog(testing::Fixture("eventlog_4nodes_8cores_dynamic_alloc.zstd"), nullptr);
  const std::vector<int64_t> samples = ExecutorStartSamplesMs(app);
  REQUIRE_FALSE(samples.empty());
  CHECK(samples.front() == 9205);
  CHECK(ExecutorStartMs(app) == 9205);
}

}  // namespace
}  // namespace aqesim::eventlog
