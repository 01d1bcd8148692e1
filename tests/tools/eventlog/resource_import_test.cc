// The cluster's resources imported from hand-built recorded applications: GPUs of the default
// profile, the resource profiles an executor timeline refers to (the rp_sql corpus log in small:
// its profile 1 has 2 cores and 2 GPUs, a task takes 2 cpus and 2 GPUs; profile 0 executors 4
// cores and 1 GPU, a task 0.25 GPU).
#include "tools/eventlog/resource_import.h"

#include <catch2/catch.hpp>

#include "models/scenario/scenario.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

RecordedApplication RpSqlInSmall() {
  RecordedApplication app;
  app.spark_properties.emplace("spark.master", "yarn");
  app.spark_properties.emplace("spark.executor.resource.gpu.amount", "1");
  app.spark_properties.emplace("spark.task.resource.gpu.amount", "0.25");
  RecordedResourceProfile rp1;
  rp1.id = 1;
  rp1.executor_cores = 2;
  rp1.executor_gpus = 2;
  rp1.task_cpus = 2;
  rp1.task_gpus = 2;
  app.resource_profiles[1] = rp1;
  auto executor = [&](const std::string& id, int cores, int64_t added, int profile) {
    RecordedExecutor e;
    e.executor_id = id;
    e.host = id;
    e.total_cores = cores;
    e.added_time_ms = added;
    e.resource_profile_id = profile;
    app.executors.push_back(e);
  };
  executor("2", 2, 0, 1);
  executor("6", 4, 500, 0);
  executor("7", 4, 0, 0);
  // Job 0: one 4-task stage on executor 7, 0 -> 2000 ms.
  RecordedJob& job = app.jobs[0];
  job.job_id = 0;
  job.submission_time_ms = 0;
  job.completion_time_ms = 2000;
  job.stage_ids = {0};
  job.result = std::string("JobSucceeded");
  RecordedStage& st = app.stages[0];
  st.stage_id = 0;
  st.job_id = 0;
  st.submitted = true;
  st.submission_time_ms = 0;
  st.completion_time_ms = 2000;
  st.num_tasks = 4;
  const std::string type = "ResultTask", executor_id = "7", success = "Success";
  for (int i = 0; i < 4; ++i) {
    RecordedTask t;
    t.stage_id = 0;
    t.index = i;
    t.task_type = type;
    t.launch_time_ms = 10;
    t.finish_time_ms = 1990;
    t.executor_id = executor_id;
    t.successful = true;
    t.end_reason = success;
    t.input_bytes = 1000;
    st.tasks.push_back(t);
  }
  st.successful_tasks = 4;
  st.input_bytes = 4000;
  app.max_concurrent_executors = 3;
  app.executor_cores = 4;
  return app;
}

TEST_CASE("ImportResources: GPUs of the default profile and the profiles the timeline names",
          "[eventlog][import][resources]") {
  const RecordedApplication app = RpSqlInSmall();
  json cluster = {{"executorTimeline", {{{"add", 0}, {"resourceProfile", 1}}, {{"add", 0.5}}, {{"add", 0}}}}};
  json conf = json::object();
  ImportResources(app, &cluster, &conf);
  CHECK(cluster["executorGpus"] == 1);
  CHECK(conf["spark.task.resource.gpu.amount"] == "0.25");
  REQUIRE(cluster["resourceProfiles"].size() == 1);
  CHECK(cluster["resourceProfiles"][0] ==
        json{{"id", 1}, {"executorCores", 2}, {"taskCpus", 2}, {"executorGpus", 2}, {"taskGpus", 2.0}});

  // No timeline entry of profile 1: no profile listed. No GPU property: no GPU field.
  RecordedApplication plain = app;
  plain.spark_properties.erase("spark.task.resource.gpu.amount");
  json static_cluster = json::object();
  json conf2 = json::object();
  ImportResources(plain, &static_cluster, &conf2);
  CHECK_FALSE(static_cluster.contains("resourceProfiles"));
  CHECK_FALSE(static_cluster.contains("executorGpus"));
  CHECK_FALSE(conf2.contains("spark.task.resource.gpu.amount"));
}

TEST_CASE("ImportScenario: executors of another resource profile are in the timeline with it",
          "[eventlog][import][resources]") {
  ImportOptions options;
  options.job_id = 0;
  std::vector<std::string> warnings;
  const ImportedScenario imported = ImportScenario(RpSqlInSmall(), options, &warnings);
  const json& cluster = imported.scenario["cluster"];
  INFO(cluster.dump());
  // A static cluster but for executor 2's profile: the timeline lists it with its profile, and
  // executor 6, registered at 0.5 s.
  REQUIRE(cluster.contains("executorTimeline"));
  REQUIRE(cluster["executorTimeline"].size() == 3);
  CHECK(cluster["executorTimeline"][0]["resourceProfile"] == 1);
  CHECK_FALSE(cluster["executorTimeline"][1].contains("resourceProfile"));
  CHECK(cluster["executorTimeline"][1]["add"] == 0.5);
  CHECK(cluster["resourceProfiles"][0]["id"] == 1);
  // The scenario loads: 4 + 4 slots of profile 0 (GPU-limited to 4 each), 1 of profile 1.
  LoadResult r = LoadScenarioJson(imported.scenario, "imported.json", {});
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  CHECK(r.scenario->cluster.executor_gpus == 1);
  CHECK(SlotsPerExecutor(r.scenario->cluster, r.scenario->conf.task_cpus, r.scenario->conf.task_gpu_amount) ==
        std::vector<int>{1, 4, 4});
}

}  // namespace
}  // namespace aqesim::eventlog
