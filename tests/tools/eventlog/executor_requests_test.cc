// Dynamic allocation's requests reconstructed from recorded counts: each request's latency to the
// registration answering it, and the grant bound a request answered after the target dropped
// below it gives. A hand-built application, and the dynamic_alloc log read by hand.
#include "tools/eventlog/executor_requests.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tests/tools/eventlog/test_util.h"

namespace aqesim::eventlog {
namespace {

void AddExecutor(RecordedApplication* app, const std::string& id, int64_t added) {
  RecordedExecutor e;
  e.executor_id = id;
  e.host = "host" + id;
  e.total_cores = 4;  // 4 slots
  e.added_time_ms = added;
  app->executors.push_back(e);
}

/// Stage `id` submitted at `submitted`, its tasks (executor, launch, finish), completed at the
/// last finish.
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
    t.executor_id = executor;
    t.launch_time_ms = launch;
    t.finish_time_ms = finish;
    t.successful = true;
    st.tasks.push_back(t);
    last = std::max(last, finish);
  }
  st.completion_time_ms = last;
}

// Stage 0 (12 tasks, 3 executors' worth) submitted at 1 s on no executor: the 2 s round
// requests 1 (target 1), the 3 s round 2 more (target 3); executors 1, 2, 3 register at 12, 13
// and 16 s. Stage 1 (13 tasks) at 21 s on 12 slots: the 22 s round raises the target to
// max(0, 3) + 1 = 4 and requests 1; at 22.5 s twelve tasks end, one is left (maxNeeded 1): the
// target drops below the request, which executor 4 answers anyway at 25 s.
RecordedApplication TwoRamps() {
  RecordedApplication app;
  app.start_time_ms = 0;
  app.spark_properties.emplace("spark.master", "yarn");
  app.spark_properties.emplace("spark.dynamicAllocation.enabled", "true");
  AddExecutor(&app, "1", 12000);
  AddExecutor(&app, "2", 13000);
  AddExecutor(&app, "3", 16000);
  AddExecutor(&app, "4", 25000);
  std::vector<std::tuple<std::string, int64_t, int64_t>> t0, t1;
  for (int i = 0; i < 12; ++i)
    t0.emplace_back(std::to_string(1 + i / 4), 12000 + (i / 4) * 1000 + (i >= 8) * 2000, 20000);
  AddStage(&app, 0, 1000, t0);
  for (int i = 0; i < 12; ++i) t1.emplace_back(std::to_string(1 + i / 4), 21000, 22500);
  t1.emplace_back("1", 22500, 23000);
  AddStage(&app, 1, 21000, t1);
  return app;
}

TEST_CASE("ReconstructExecutorRequests: the rounds' requests, each answered by the next registration",
          "[eventlog][cluster]") {
  const std::vector<ReconstructedRequest> r = ReconstructExecutorRequests(TwoRamps());
  REQUIRE(r.size() == 4);
  CHECK(r[0].requested_ms == 2000);
  CHECK(r[1].requested_ms == 3000);
  CHECK(r[2].requested_ms == 3000);
  CHECK(r[3].requested_ms == 22000);
  CHECK(r[2].executor_id == "3");
  CHECK(r[2].registered_ms == 16000);
  CHECK_FALSE(r[0].outlived_drop_ms.has_value());
  CHECK(r[3].outlived_drop_ms == 22500);
}

TEST_CASE("ExecutorStartByRequestMs: the latencies of the requests made within the window, in order",
          "[eventlog][cluster]") {
  const RecordedApplication app = TwoRamps();
  CHECK(ExecutorStartByRequestMs(app, 0, 30000) == std::vector<int64_t>{10000, 10000, 13000, 3000});
  CHECK(ExecutorStartByRequestMs(app, 2500, 21000) == std::vector<int64_t>{10000, 13000});
  CHECK(ExecutorGrantMs(app) == 500);  // request 3 was granted within 22.5 − 22 s
}

TEST_CASE("ExecutorStartByRequestMs: nothing without dynamic allocation", "[eventlog][cluster]") {
  RecordedApplication app = TwoRamps();
  app.spark_properties.erase("spark.dynamicAllocation.enabled");
  CHECK(ReconstructExecutorRequests(app).empty());
  CHECK(ExecutorStartByRequestMs(app, 0, 30000).empty());
  CHECK_FALSE(ExecutorGrantMs(app).has_value());
}

TEST_CASE("ExecutorStartByRequestMs: the dynamic_alloc log, read by hand from its events",
          "[eventlog][cluster]") {
  // Times in s from the application's start (1727965992605). SQL execution 0 (92.588-111.628
  // s): stages 0, 1 (12 tasks, 4 per executor) at 92.955 s, no executor: rounds at 93.955 (1)
  // and 94.955 s (2), answered by executors 4, 3, 5 at 103.160, 105.138, 106.221 s; stage 4 (13
  // tasks, 3 executors) at 108.120 s: the 109.120 s round asks for a 4th, executor 6 at
  // 112.747 s. SQL execution 1 (113.471-133.103 s): stage 13 (17 tasks) at 129.319 s with
  // executor 6 live and 3, 4, 5 killed (until 137.3-137.9 s): the 130.319 s round raises the
  // target to 4 + 1 = 5 and asks for 5 − 1 = 4, answered by 10, 9, 7, 8 at 134.355, 138.751,
  // 145.399, 146.440 s. The 4th request of execution 0 outlived a drop 0.671 s after it (at
  // 109.791 s stage 4's first task ended: 12 tasks, 3 executors).
  const RecordedApplication app =
      ReadEventLog(testing::Fixture("eventlog_4nodes_8cores_dynamic_alloc.zstd"), nullptr);
  const int64_t start = 1727965992605;
  CHECK(ExecutorStartByRequestMs(app, start + 92588, start + 111628) ==
        std::vector<int64_t>{9205, 10183, 11266, 3627});
  CHECK(ExecutorStartByRequestMs(app, start + 113471, start + 133103) ==
        std::vector<int64_t>{4036, 8432, 15080, 16121});
  CHECK(ExecutorGrantMs(app) == 671);
  int answered = 0;
  for (const ReconstructedRequest& r : ReconstructExecutorRequests(app)) answered += r.registered_ms ? 1 : 0;
  CHECK(answered == 15);  // every registration, the two initial executors' included
}

}  // namespace
}  // namespace aqesim::eventlog
