// The scheduling pool of an imported selection, from hand-built recorded
// applications.
#include "tools/eventlog/pool_import.h"

#include <catch2/catch.hpp>
#include <string>

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

/// Stage `id` of job `job` (pool `pool`) with tasks launched at `launches`
/// (ms).
void AddStage(RecordedApplication *app, int id, int job, const std::string &pool,
              const std::vector<int64_t> &launches) {
  RecordedStage &st = app->stages[id];
  st.stage_id = id;
  st.job_id = job;
  st.submitted = true;
  st.submission_time_ms = 0;
  for (int64_t at : launches) {
    RecordedTask t;
    t.stage_id = id;
    t.launch_time_ms = at;
    t.finish_time_ms = at + 1000;
    st.tasks.push_back(t);
  }
  app->jobs[job].job_id = job;
  app->jobs[job].pool = pool;
  app->jobs[job].stage_ids.push_back(id);
}

TEST_CASE("ImportPools: the selection's pool with the mode its stages showed", "[eventlog][import][fair]") {
  RecordedApplication app;
  // Pool "etl": stage 1 (job 0) launched at 0, 1000, 2000 ms; stage 2 (job 1)
  // at 0 and 1000 while stage 1 still had a task to launch: FIFO would not
  // have, so the pool is FAIR.
  AddStage(&app, 1, 0, "etl", {0, 1000, 2000});
  AddStage(&app, 2, 1, "etl", {0, 1000});
  json doc = {{"conf", json::object()}};
  SECTION("FIFO mode: nothing") {
    ImportPools(app, {1, 2}, &doc);
    CHECK(doc == json{{"conf", json::object()}});
  }
  app.spark_properties.emplace("spark.scheduler.mode", "FAIR");
  SECTION("FAIR, stages sharing the slots") {
    ImportPools(app, {1, 2}, &doc);
    CHECK(doc["conf"]["spark.scheduler.pool"] == "etl");
    CHECK(doc["driver"]["pools"] == json{{"etl", {{"schedulingMode", "FAIR"}}}});
  }
  SECTION("FAIR, one after the other: a FIFO default pool") {
    RecordedApplication fifo;
    fifo.spark_properties.emplace("spark.scheduler.mode", "FAIR");
    AddStage(&fifo, 1, 0, "", {0, 1000});
    AddStage(&fifo, 2, 1, "", {2000, 3000});
    ImportPools(fifo, {1, 2}, &doc);
    CHECK_FALSE(doc["conf"].contains("spark.scheduler.pool"));
    CHECK(doc["driver"]["pools"] == json{{"default", {{"schedulingMode", "FIFO"}}}});
  }
}

}  // namespace
}  // namespace aqesim::eventlog
