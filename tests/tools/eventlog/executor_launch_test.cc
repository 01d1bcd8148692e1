// The executor launch time measured on a hand-built recorded application (the rp_sql corpus
// log's pattern: executors registering while a stage waits, each taking its first task a
// couple of hundred ms later).
#include "tools/eventlog/executor_launch.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tools/eventlog/scenario_import.h"

namespace aqesim::eventlog {
namespace {

void AddExecutor(RecordedApplication* app, const std::string& id, int64_t added, int profile = 0) {
  RecordedExecutor e;
  e.executor_id = id;
  e.host = "host" + id;
  e.total_cores = 4;
  e.added_time_ms = added;
  e.resource_profile_id = profile;
  app->executors.push_back(e);
}

void AddTask(RecordedStage* st, const std::string& executor, int64_t launch, int64_t finish) {
  RecordedTask t;
  t.stage_id = st->stage_id;
  t.task_type = "ResultTask";
  t.end_reason = "Success";
  t.executor_run_time_ms = finish - launch;
  t.index = static_cast<int>(st->tasks.size());
  t.executor_id = executor;
  t.launch_time_ms = launch;
  t.finish_time_ms = finish;
  t.successful = true;
  st->tasks.push_back(t);
}

TEST_CASE("ExecutorLaunchMs: registration to first task while tasks were pending", "[eventlog][cluster]") {
  RecordedApplication app;
  app.spark_properties.emplace("spark.master", "yarn");
  AddExecutor(&app, "1", 1000);     // stage 0 pending since 500: first task at 1250 -> 250
  AddExecutor(&app, "2", 2000);     // its pending task went to executor 1 at 2100 first: no sample
  AddExecutor(&app, "3", 3500);     // nothing pending at 3500 (stage 1 submitted at 4000): none
  AddExecutor(&app, "4", 6000);     // stage 2 pending since 5000: first task at 6190 -> 190
  AddExecutor(&app, "5", 6000, 1);  // another resource profile: stage 2's tasks are not its own
  RecordedStage& s0 = app.stages[0];
  s0.stage_id = 0;
  s0.submitted = true;
  s0.submission_time_ms = 500;
  AddTask(&s0, "1", 1250, 1900);
  AddTask(&s0, "1", 1900, 2100);
  AddTask(&s0, "1", 2100, 2600);  // pending at executor 2's registration, launched on 1 first
  AddTask(&s0, "2", 2300, 2900);
  RecordedStage& s1 = app.stages[1];
  s1.stage_id = 1;
  s1.submitted = true;
  s1.submission_time_ms = 4000;
  AddTask(&s1, "3", 4010, 4500);
  RecordedStage& s2 = app.stages[2];
  s2.stage_id = 2;
  s2.submitted = true;
  s2.submission_time_ms = 5000;
  AddTask(&s2, "4", 6190, 7000);
  AddTask(&s2, "5", 6400, 7000);  // (not possible in Spark; shows the profile filter)

  CHECK(ExecutorLaunchSamplesMs(app) == std::vector<int64_t>{250, 190});
  CHECK(ExecutorLaunchMs(app) == 220);  // median of two: their mean

  RecordedApplication none;
  AddExecutor(&none, "1", 0);
  CHECK_FALSE(ExecutorLaunchMs(none).has_value());
}

/// One job of one stage of one task on `executor` from `launch` to `finish`.
void AddJob(RecordedApplication* app, int id, int64_t submit, const std::string& executor, int64_t launch,
            int64_t finish) {
  RecordedJob& job = app->jobs[id];
  job.job_id = id;
  job.submission_time_ms = submit;
  job.completion_time_ms = finish;
  job.stage_ids = {id};
  job.result = std::string("JobSucceeded");
  RecordedStage& st = app->stages[id];
  st.stage_id = id;
  st.job_id = id;
  st.submitted = true;
  st.submission_time_ms = submit;
  st.completion_time_ms = finish;
  st.num_tasks = 1;
  AddTask(&st, executor, launch, finish);
  st.tasks.back().input_bytes = 1000;
  st.successful_tasks = 1;
  st.input_bytes = 1000;
}

/// The scenario of job `job` (a selection of one job).
nlohmann::json ImportJob(const RecordedApplication& app, int job) {
  ImportOptions options;
  options.job_id = job;
  std::vector<std::string> warnings;
  return ImportScenario(app, options, &warnings).scenario;
}

TEST_CASE("ImportScenario: executorLaunchSeconds, and a stage's launch delay net of the launch",
          "[eventlog][cluster][profile]") {
  // Job 0: submitted at 0; executor 1 registers at 100 and runs its task from 300 (sample 200)
  // and is removed at 4000. Job 1: submitted at 5000 with no executor; executor 2 registers at
  // 6000 and runs its task from 6220 (sample 220). Launch time: median 210 ms. Job 1's stage
  // waited for an executor: launchDelaySeconds = 6220 - (6000 + 210) = 10 ms (was the whole
  // 1220 ms from submission to first launch).
  RecordedApplication app;
  app.spark_properties.emplace("spark.master", "yarn");
  AddExecutor(&app, "1", 100);
  app.executors.back().removed_time_ms = 4000;
  AddExecutor(&app, "2", 6000);
  AddJob(&app, 0, 0, "1", 300, 900);
  AddJob(&app, 1, 5000, "2", 6220, 7000);
  app.max_concurrent_executors = 1;
  app.executor_cores = 4;
  CHECK(ExecutorLaunchMs(app) == 210);

  const nlohmann::json scenario = ImportJob(app, 1);
  INFO(scenario.dump());
  CHECK(scenario.at("cluster").at("executorLaunchSeconds").get<double>() == Approx(0.21));
  CHECK(scenario.at("cluster").at("executorTimeline").at(0).at("add").get<double>() == Approx(1.0));
  CHECK(scenario.at("profiles").at("result").at("launchDelaySeconds").get<double>() == Approx(0.01));
}

TEST_CASE("ImportScenario: an executor launched sooner than the median launch time is no wait",
          "[eventlog][cluster][profile]") {
  // Samples: executor 1 200 ms (job 0), executor 2 150 ms (job 1), executor 3 250 ms (job 2):
  // median 200 ms. Job 1 is submitted at 5000 with no executor; executor 2 registers at 6000
  // and runs the stage's first task at 6150, before 6000 + 200: it was ready by then, so the
  // stage's launch delay is 0, not the 1150 ms from submission (the recorded wait for an
  // executor stayed in the stage's profile, and a replay on executors present from the start
  // waited for it again).
  RecordedApplication app;
  app.spark_properties.emplace("spark.master", "yarn");
  AddExecutor(&app, "1", 100);
  app.executors.back().removed_time_ms = 4000;
  AddExecutor(&app, "2", 6000);
  app.executors.back().removed_time_ms = 8000;
  AddExecutor(&app, "3", 9000);
  AddJob(&app, 0, 0, "1", 300, 900);
  AddJob(&app, 1, 5000, "2", 6150, 7000);
  AddJob(&app, 2, 8500, "3", 9250, 9900);
  app.max_concurrent_executors = 1;
  app.executor_cores = 4;
  CHECK(ExecutorLaunchMs(app) == 200);

  const nlohmann::json scenario = ImportJob(app, 1);
  INFO(scenario.dump());
  CHECK(scenario.at("profiles").at("result").at("launchDelaySeconds").get<double>() == 0.0);
}

}  // namespace
}  // namespace aqesim::eventlog
