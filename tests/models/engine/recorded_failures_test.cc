// A profiled stage's recorded failed attempts replayed (models/engine/recorded_failures.h)
// against hand-computed schedules: a failed attempt and its retry, a job aborted at
// spark.task.maxFailures (and local mode's limit of 1), a fetch failure without resubmission
// failing the job before its next stage, a resubmitted stage's retry after its recorded delay.
#include "models/engine/recorded_failures.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/cost/stage_profile.h"
#include "models/engine/query_execution.h"
#include "models/scenario/scenario.h"

namespace aqesim {
namespace {

std::unique_ptr<Scenario> Load(const nlohmann::json& doc) {
  LoadResult r = LoadScenarioJson(doc, "test.json", {});
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return std::move(r.scenario);
}

/// Every task of the profile takes 0.5 s: no overhead, A = 0.5 s, B = 0, residuals 1.
nlohmann::json Profile(int tasks, nlohmann::json failed) {
  const nlohmann::json one = std::vector<double>(kResidualQuantiles, 1.0);
  return {{"tasks", tasks},
          {"inputBytes", 3000000},
          {"rowOps", 3000},
          {"overheadSeconds", {{"firstWave", 0.0}, {"later", 0.0}}},
          {"fixedSeconds", 0.5},
          {"secondsPerRowOp", 0.0},
          {"rates", "fixed"},
          {"residuals", {{"firstWave", {one}}, {"later", {one}}}},
          {"critical", {{"task", tasks - 1}, {"residual", 1.0}}},
          {"failedAttempts", std::move(failed)}};
}

/// A scan of 3 equal tasks on 1 executor x 1 slot, timed by `profile`.
nlohmann::json Scan(nlohmann::json profile, nlohmann::json conf = nlohmann::json::object()) {
  return {
      {"name", "t"},
      {"cluster", {{"executors", 1}, {"executorCores", 1}, {"executorMemory", "4g"}}},
      {"conf", std::move(conf)},
      {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", 3000000}, {"taskBytes", {1000000, 1000000, 1000000}}}},
      {"profiles", {{"result", std::move(profile)}}},
      {"driver", {{"startSeconds", 0.0}, {"endSeconds", 0.0}}}};
}

nlohmann::json Failures(int task, int n, const std::string& reason = "ExceptionFailure") {
  nlohmann::json out = nlohmann::json::array();
  for (int i = 0; i < n; ++i) out.push_back({{"task", task}, {"seconds", 0.2}, {"reason", reason}});
  return out;
}

TEST_CASE("RecordedFailures: a failed attempt holds the slot for its recorded time, then the task is retried",
          "[engine][profile][failures]") {
  // t0 [0, 0.5]; t1's recorded failure [0.5, 0.7]; its retry [0.7, 1.2] before t2 [1.2, 1.7].
  auto s = Load(Scan(Profile(3, Failures(1, 1))));
  const RunResult r = SimulateQuery(*s, false);
  REQUIRE(r.stages.size() == 1);
  const StageResult& st = r.stages[0];
  CHECK(st.failed_attempts == 1);
  CHECK(st.failed.empty());
  CHECK_FALSE(r.job_failure.has_value());
  CHECK(r.failures.empty());
  REQUIRE(st.task_results.size() == 3);
  CHECK(st.task_results[0].start_seconds == Approx(0.0));
  CHECK(st.task_results[1].start_seconds == Approx(0.7));
  CHECK(st.task_results[1].end_seconds == Approx(1.2));
  CHECK(st.task_results[2].start_seconds == Approx(1.2));
  CHECK(st.task_results[2].end_seconds == Approx(1.7));
  CHECK(r.makespan_seconds == Approx(1.7));
  const nlohmann::ordered_json j = RunToJson(r, false);
  CHECK(j["stages"][0]["failedAttempts"] == 1);
  CHECK_FALSE(j["stages"][0].contains("failed"));
  CHECK_FALSE(j.contains("jobFailed"));
}

TEST_CASE("RecordedFailures: a task failing spark.task.maxFailures times aborts its stage and job",
          "[engine][profile][failures]") {
  SECTION("the default 4 on a cluster") {
    // t0 [0, 0.5]; t1 fails at 0.7, 0.9, 1.1, 1.3: aborted at 1.3, t2 never runs.
    auto s = Load(Scan(Profile(3, Failures(1, 4))));
    const RunResult r = SimulateQuery(*s, false);
    const StageResult& st = r.stages[0];
    CHECK(st.failed_attempts == 4);
    CHECK(st.failed == "aborted");
    CHECK(st.complete_seconds == Approx(1.3));
    REQUIRE(r.job_failure.has_value());
    CHECK(r.job_failure->stage == "result");
    CHECK(r.job_failure->task == 1);
    CHECK(r.job_failure->reason == "aborted");
    CHECK(r.job_failure->at_seconds == Approx(1.3));
    CHECK(r.makespan_seconds == Approx(1.3));
    REQUIRE(r.failures.size() == 1);
    CHECK(r.failures[0] ==
          "result: task 1 failed 4 times (spark.task.maxFailures = 4); the stage and its job aborted at "
          "1.300 s");
    const nlohmann::ordered_json j = RunToJson(r, false);
    CHECK(j["jobFailed"]["stage"] == "result");
    CHECK(j["jobFailed"]["reason"] == "aborted");
    CHECK(j["stages"][0]["failed"] == "aborted");
  }
  SECTION("spark.task.maxFailures=5 lets the fifth attempt run") {
    // t1's attempts fail at 0.7 .. 1.3, the fifth [1.3, 1.8], t2 [1.8, 2.3].
    auto s = Load(Scan(Profile(3, Failures(1, 4)), {{"spark.task.maxFailures", "5"}}));
    const RunResult r = SimulateQuery(*s, false);
    CHECK_FALSE(r.job_failure.has_value());
    CHECK(r.stages[0].failed_attempts == 4);
    CHECK(r.makespan_seconds == Approx(2.3));
  }
  SECTION("local mode allows one failure, local[1, 2] two") {
    auto local = Load(Scan(Profile(3, Failures(1, 4)), {{"spark.master", "local[1]"}}));
    const RunResult r = SimulateQuery(*local, false);
    REQUIRE(r.job_failure.has_value());
    CHECK(r.job_failure->at_seconds == Approx(0.7));
    CHECK(r.failures[0] ==
          "result: task 1 failed 1 times (spark.task.maxFailures = 1); the stage and its job aborted at "
          "0.700 s");
    auto two = Load(Scan(Profile(3, Failures(1, 4)), {{"spark.master", "local[1, 2]"}}));
    CHECK(SimulateQuery(*two, false).job_failure->at_seconds == Approx(0.9));
  }
  SECTION("attempts killed or lost with an executor not caused by the app do not count") {
    nlohmann::json killed = Failures(1, 4, "TaskKilled");
    killed.push_back(
        {{"task", 1}, {"seconds", 0.2}, {"reason", "ExecutorLostFailure"}, {"causedByApp", false}});
    auto s = Load(Scan(Profile(3, killed)));
    const RunResult r = SimulateQuery(*s, false);
    CHECK_FALSE(r.job_failure.has_value());
    CHECK(r.stages[0].failed_attempts == 5);
    CHECK(r.makespan_seconds == Approx(2.5));  // 0.5 + 5 x 0.2 + 0.5 + 0.5
  }
}

TEST_CASE("RecordedFailures: a fetch failure without resubmission fails the job before its next stage",
          "[engine][profile][failures]") {
  // e1 map (2 tasks on 2 slots, 0.5 s each) then the result stage (2 tasks, 0.5 s each), which
  // has a FetchFailed attempt of 0.1 s on task 0 and no resubmission: result's t0 fails at
  // 0.5 + 0.1 = 0.6, the job fails there; t1 [0.5, 1.0] is killed. With stageResubmitted and
  // retryAfterSeconds 1.0: t0 again from 1.6, [1.6, 2.1], makespan 2.1 + 0.25.
  const nlohmann::json one = std::vector<double>(kResidualQuantiles, 1.0);
  auto profile = [&](nlohmann::json failed) {
    nlohmann::json p = {{"tasks", 2},
                        {"inputBytes", 0},
                        {"rowOps", 0},
                        {"overheadSeconds", {{"firstWave", 0.0}, {"later", 0.0}}},
                        {"fixedSeconds", 0.5},
                        {"secondsPerRowOp", 0.0},
                        {"rates", "fixed"},
                        {"residuals", {{"firstWave", {one}}, {"later", {one}}}},
                        {"critical", {{"task", 1}, {"residual", 1.0}}},
                        {"submitGapSeconds", 0.0}};
    if (!failed.is_null()) p["failedAttempts"] = std::move(failed);
    return p;
  };
  auto doc = [&](nlohmann::json failed) {
    return nlohmann::json{
        {"name", "t"},
        {"cluster", {{"executors", 1}, {"executorCores", 2}, {"executorMemory", "4g"}}},
        {"plan",
         {{"op", "aggregate"},
          {"id", "a"},
          {"child",
           {{"op", "exchange"},
            {"id", "e1"},
            {"child", {{"op", "scan"}, {"id", "s"}, {"bytes", 2000}, {"tasks", 2}}},
            {"sizes", {{"matrix", {{500, 500}, {500, 500}}}}}}}}},
        {"profiles", {{"e1 map", profile(nullptr)}, {"result", profile(std::move(failed))}}},
        {"driver", {{"startSeconds", 0.0}, {"endSeconds", 0.25}}}};
  };
  SECTION("not resubmitted: the job fails") {
    auto s =
        Load(doc({{{"task", 0}, {"seconds", 0.1}, {"reason", "FetchFailed"}, {"stageResubmitted", false}}}));
    const RunResult r = SimulateQuery(*s, false);
    REQUIRE(r.stages.size() == 2);
    CHECK(r.stages[0].complete_seconds == Approx(0.5));
    CHECK(r.stages[1].failed == "FetchFailed");
    CHECK(r.stages[1].complete_seconds == Approx(0.6));
    CHECK(r.stages[1].failed_attempts == 2);  // the fetch failure and t1, killed
    REQUIRE(r.job_failure.has_value());
    CHECK(r.job_failure->at_seconds == Approx(0.6));
    CHECK(r.makespan_seconds == Approx(0.85));  // + driver end 0.25
    REQUIRE(r.failures.size() == 1);
    CHECK(r.failures[0] ==
          "result: task 0 failed fetching shuffle output (FetchFailed) and the stage was not resubmitted; "
          "its job "
          "failed at 0.600 s");
  }
  SECTION("resubmitted: the partition runs again after the recorded delay") {
    auto s = Load(doc({{{"task", 0},
                        {"seconds", 0.1},
                        {"reason", "FetchFailed"},
                        {"stageResubmitted", true},
                        {"retryAfterSeconds", 1.0}}}));
    const RunResult r = SimulateQuery(*s, false);
    CHECK_FALSE(r.job_failure.has_value());
    CHECK(r.stages[1].failed_attempts == 1);
    REQUIRE(r.stages[1].task_results.size() == 2);
    CHECK(r.stages[1].task_results[0].start_seconds == Approx(1.6));
    CHECK(r.stages[1].task_results[0].end_seconds == Approx(2.1));
    CHECK(r.makespan_seconds == Approx(2.35));
  }
}

TEST_CASE("RecordedFailures: a resized stage replays none of its recorded failures",
          "[engine][profile][failures]") {
  // The profile recorded 2 tasks; the scan runs 3: its partitions are not the recorded ones.
  auto s = Load(Scan(Profile(2, Failures(1, 4))));
  const RunResult r = SimulateQuery(*s, false);
  CHECK_FALSE(r.job_failure.has_value());
  CHECK(r.stages[0].failed_attempts == 0);
  CHECK(FailureOf({1, 0.2, "ExecutorLostFailure", true, false, 0, ""}) == AttemptFailure::kCounted);
  CHECK(FailureOf({1, 0.2, "Resubmitted", true, false, 0, ""}) == AttemptFailure::kNotCounted);
  CHECK(FailureOf({1, 0.2, "FetchFailed", true, false, 0, ""}) == AttemptFailure::kFetchFailed);
  CHECK(FailureOf({1, 0.2, "FetchFailed", true, true, 0, ""}) == AttemptFailure::kNotCounted);
}

}  // namespace
}  // namespace aqesim
