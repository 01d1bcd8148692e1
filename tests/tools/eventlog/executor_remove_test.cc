// Dynamic allocation's idle-timeout kills as a log shows them: each kill's own lag to its
// reported removal, in order of kill over the whole application, and the kills before a moment.
// A hand-built application, and the dynamic_alloc log read by hand.
#include "tools/eventlog/executor_remove.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/tools/eventlog/test_util.h"

namespace aqesim::eventlog {
namespace {

void AddExecutor(RecordedApplication* app, const std::string& id, int64_t added, int64_t removed,
                 const std::string& reason) {
  RecordedExecutor e;
  e.executor_id = id;
  e.total_cores = 1;
  e.added_time_ms = added;
  e.removed_time_ms = removed;
  e.removed_reason = reason;
  app->executors.push_back(e);
}

void AddTask(RecordedApplication* app, const std::string& executor, int64_t launch, int64_t finish) {
  RecordedStage& st = app->stages[0];
  st.submitted = true;
  RecordedTask t;
  t.executor_id = executor;
  t.launch_time_ms = launch;
  t.finish_time_ms = finish;
  t.successful = true;
  st.tasks.push_back(t);
}

// Idle timeout 2 s. Executor 1: a task at 1-3 s, killed at 3 + 2 = 5 s, removed at 9 s (4 s).
// Executor 2: no task, registered at 1 s, killed at 1 + 2 = 3 s, removed at 4 s (1 s).
// Executor 3: lost, not killed. Executor 4: a task at 0-1 s, removed "killed by driver" at 2 s,
// idle 1 s only: not an idle-timeout kill.
RecordedApplication FourExecutors() {
  RecordedApplication app;
  app.spark_properties.emplace("spark.master", "yarn");
  app.spark_properties.emplace("spark.dynamicAllocation.enabled", "true");
  app.spark_properties.emplace("spark.dynamicAllocation.executorIdleTimeout", "2s");
  AddExecutor(&app, "1", 0, 9000, "Executor killed by driver.");
  AddExecutor(&app, "2", 1000, 4000, "Executor killed by driver.");
  AddExecutor(&app, "3", 0, 6000, "Container lost");
  AddExecutor(&app, "4", 0, 2000, "Executor killed by driver.");
  AddTask(&app, "1", 1000, 3000);
  AddTask(&app, "4", 0, 1000);
  return app;
}

TEST_CASE("ExecutorRemoveByKillMs: each idle-timeout kill's lag, in order of kill", "[eventlog][cluster]") {
  const RecordedApplication app = FourExecutors();
  const std::vector<RecordedKill> kills = IdleTimeoutKills(app);
  REQUIRE(kills.size() == 2);
  CHECK(kills[0].executor_id == "2");
  CHECK(kills[0].killed_ms == 3000);
  CHECK(kills[1].executor_id == "1");
  CHECK(kills[1].killed_ms == 5000);
  CHECK(ExecutorRemoveByKillMs(app) == std::vector<int64_t>{1000, 4000});
  CHECK(ExecutorKillsBefore(app, 3000) == 0);  // (a kill at the moment is not before it)
  CHECK(ExecutorKillsBefore(app, 3001) == 1);
  CHECK(ExecutorKillsBefore(app, 10000) == 2);
  RecordedApplication fixed = app;
  fixed.spark_properties.erase("spark.dynamicAllocation.enabled");
  CHECK(ExecutorRemoveByKillMs(fixed).empty());
  CHECK(ExecutorKillsBefore(fixed, 10000) == 0);
}

TEST_CASE("ExecutorRemoveByKillMs: the dynamic_alloc log, read by hand from its events",
          "[eventlog][cluster]") {
  // Times in s from the application's start (1727965992605); idle timeout 10 s. Each kill: the
  // executor's last TaskEnd (or its ExecutorAdded) + 10 s, to its ExecutorRemoved. Before SQL
  // execution 0 (92.588 s): executors 2 and 1, no task, added at 20.866 and 24.956 s, killed at
  // 30.866 and 34.956 s, removed at 44.664 and 48.187 s. In execution 1 (113.471-133.103 s):
  // executors 3, 5, 4, last tasks at 114.143, 114.341, 114.471 s, removed at 137.487, 137.850,
  // 137.345 s. Between executions 2 and 3 (139.069-154.295 s): executor 9 (no task, added at
  // 138.751 s), 6 and 10 (last tasks at 138.850 and 139.068 s), removed at 161.920, 162.009 and
  // 172.834 s: executor 10's 23.766 s is the one the median (13.2 s) misses. After execution 4
  // (168.359-173.460 s): 7, 12, 11, 13, 8 (last tasks at 170.948, 171.730, 172.002, 173.262,
  // 173.459 s) and 14 (no task, added at 177.355 s), removed at 193.332, 193.066, 193.260,
  // 196.784, 204.693 and 199.154 s.
  const RecordedApplication app =
      ReadEventLog(testing::Fixture("eventlog_4nodes_8cores_dynamic_alloc.zstd"), nullptr);
  CHECK(ExecutorRemoveByKillMs(app) == std::vector<int64_t>{13798, 13231, 13344, 13509, 12874, 13169, 13159,
                                                            23766, 12384, 11336, 11258, 13522, 21234, 11799});
  const int64_t start = 1727965992605;
  CHECK(ExecutorKillsBefore(app, start + 92588) == 2);   // execution 0
  CHECK(ExecutorKillsBefore(app, start + 113471) == 2);  // execution 1
  CHECK(ExecutorKillsBefore(app, start + 134875) == 5);  // execution 2
  CHECK(ExecutorKillsBefore(app, start + 154295) == 8);  // execution 3: executor 10's is the 8th (index 7)
  CHECK(ExecutorKillsBefore(app, start + 168359) == 8);  // execution 4
}

}  // namespace
}  // namespace aqesim::eventlog
