// Loader: cluster.executorTimeline, scan taskBytes and costFile (the pieces recorded runs need).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "models/scenario/scenario.h"
#include "tests/support/temp_dir.h"

namespace aqesim {
namespace {

struct ScratchDir : testing::TempDir {
  ScratchDir() : testing::TempDir("aqesim_timeline_cost_test") {}
};

struct Loaded {
  std::vector<std::string> errors;
  std::unique_ptr<Scenario> scenario;
};

// Writes `text` as DIR/s.json and loads it; messages with "DIR/" removed.
Loaded Load(const std::string& text, const ScratchDir& dir = ScratchDir()) {
  const std::string path = dir.Write("s.json", text);
  LoadResult r = LoadScenarioFile(path, {});
  Loaded out;
  for (const Diagnostic& d : r.errors) {
    std::string line = d.ToString();
    for (size_t at; (at = line.find(dir.path() + "/")) != std::string::npos;)
      line.erase(at, dir.path().size() + 1);
    out.errors.push_back(line);
  }
  out.scenario = std::move(r.scenario);
  return out;
}

const std::string kPlan = R"("plan": {"op": "scan", "bytes": 100})";

TEST_CASE("Loader: cluster.executorTimeline", "[scenario][timeline]") {
  SECTION("entries in seconds; executors defaults to the most present at once") {
    // At 0: e0, e1 present (e1 registered before the start); e2 at 5 s, e0 removed at 4 s:
    // at most 2 at once.
    Loaded l = Load(R"({"cluster": {"executorCores": 4, "executorTimeline": [
        {"add": 0, "remove": 4}, {"add": -3}, {"add": 5}]}, )" +
                    kPlan + "}");
    REQUIRE(l.errors.empty());
    const ClusterSpec& c = l.scenario->cluster;
    REQUIRE(c.executor_timeline.size() == 3);
    CHECK(c.executor_timeline[0].add_seconds == 0);
    CHECK(c.executor_timeline[0].remove_seconds == 4.0);
    CHECK(c.executor_timeline[1].add_seconds == -3);
    CHECK_FALSE(c.executor_timeline[1].remove_seconds.has_value());
    CHECK(c.executor_timeline[2].add_seconds == 5);
    CHECK(c.executors == 2);
  }
  SECTION("warm JVMs: warmExecutors (static) and a timeline entry's warm") {
    Loaded a = Load(R"({"cluster": {"executors": 3, "warmExecutors": 2}, )" + kPlan + "}");
    REQUIRE(a.errors.empty());
    CHECK(a.scenario->cluster.warm_executors == 2);
    Loaded b =
        Load(R"({"cluster": {"executorTimeline": [{"add": 0, "warm": true}, {"add": 2}]}, )" + kPlan + "}");
    REQUIRE(b.errors.empty());
    CHECK(b.scenario->cluster.executor_timeline[0].warm);
    CHECK_FALSE(b.scenario->cluster.executor_timeline[1].warm);
    CHECK(Load(R"({"cluster": {"warmExecutors": -1, "executorTimeline": [{"add": 0, "warm": 1}]}, )" + kPlan +
               "}")
              .errors == std::vector<std::string>{
                             "s.json: /cluster/warmExecutors: expected a non-negative integer, found -1",
                             "s.json: /cluster/executorTimeline/0/warm: expected true or false, found 1"});
  }
  SECTION(
      "warm code: warmCodeExecutors (static) and a timeline entry's warmCode; more than executors is a "
      "warning") {
    Loaded a = Load(R"({"cluster": {"executors": 3, "warmCodeExecutors": 2}, )" + kPlan + "}");
    REQUIRE(a.errors.empty());
    CHECK(a.scenario->cluster.warm_code_executors == 2);
    CHECK(a.scenario->warnings.empty());
    Loaded b = Load(R"({"cluster": {"executorTimeline": [{"add": 0, "warmCode": true}, {"add": 2}]}, )" +
                    kPlan + "}");
    REQUIRE(b.errors.empty());
    CHECK(b.scenario->cluster.executor_timeline[0].warm_code);
    CHECK_FALSE(b.scenario->cluster.executor_timeline[1].warm_code);
    Loaded c =
        Load(R"({"cluster": {"executors": 2, "warmExecutors": 3, "warmCodeExecutors": 5}, )" + kPlan + "}");
    REQUIRE(c.errors.empty());
    REQUIRE(c.scenario->warnings.size() == 2);
    CHECK(c.scenario->warnings[0].find("/cluster/warmExecutors: warmExecutors (3) is more than the cluster's "
                                       "2 executors: every one starts warm") != std::string::npos);
    CHECK(c.scenario->warnings[1].find("/cluster/warmCodeExecutors: warmCodeExecutors (5) is more than the "
                                       "cluster's 2 executors: every one starts warm") != std::string::npos);
  }
  SECTION("an explicit executors count is kept (defaultParallelism)") {
    Loaded l = Load(R"({"cluster": {"executors": 7, "executorTimeline": [{"add": 1}]}, )" + kPlan + "}");
    REQUIRE(l.errors.empty());
    CHECK(l.scenario->cluster.executors == 7);
    CHECK(l.scenario->cluster.executor_timeline.size() == 1);
  }
  SECTION("bad timelines, every message word for word") {
    Loaded a = Load(R"({"cluster": {"executorTimeline": 3}, )" + kPlan + "}");
    CHECK(a.errors ==
          std::vector<std::string>{
              "s.json: /cluster/executorTimeline: expected a non-empty array (at most 1000000) of executors "
              "{\"add\": seconds, \"remove\": seconds}, found 3"});
    Loaded b = Load(R"({"cluster": {"executorTimeline": [
        {"add": 1, "remove": 1}, {"remove": 2}, 5, {"add": "x"}, {"add": 0}]}, )" +
                    kPlan + "}");
    CHECK(
        b.errors ==
        std::vector<std::string>{
            "s.json: /cluster/executorTimeline/0/remove: expected a number of seconds in [-1e+09, 1e+09] "
            "later than \"add\" (1.0), found 1",
            "s.json: /cluster/executorTimeline/1: missing field \"add\" (seconds from the start at "
            "which the executor registers)",
            "s.json: /cluster/executorTimeline/2: expected an executor {\"add\": seconds, \"remove\": "
            "seconds}, found 5",
            "s.json: /cluster/executorTimeline/3/add: expected a number of seconds in [-1e+09, 1e+09], found "
            "\"x\""});
    Loaded c =
        Load(R"({"cluster": {"executorTimeline": [{"add": 0, "remove": 3}, {"add": 1, "remove": 9}]}, )" +
             kPlan + "}");
    CHECK(c.errors ==
          std::vector<std::string>{
              "s.json: /cluster/executorTimeline: expected at least one executor without \"remove\" "
              "(tasks would wait forever once all are gone), found every executor removed"});
    Loaded d = Load(R"({"cluster": {"executorTimeline": [{"add": 0, "when": 3}]}, )" + kPlan + "}");
    REQUIRE(d.errors.size() == 1);
    CHECK(d.errors[0].rfind(
              "s.json: /cluster/executorTimeline/0/when: unknown field \"when\" of an executor of the "
              "timeline",
              0) == 0);
  }
}

TEST_CASE("Loader: scan taskBytes", "[scenario][scan]") {
  SECTION("one byte count per task; tasks follow its length") {
    Loaded l = Load(R"({"plan": {"op": "scan", "bytes": 600, "taskBytes": [100, 0, 500]}})");
    REQUIRE(l.errors.empty());
    CHECK(l.scenario->plan->task_bytes == std::vector<int64_t>{100, 0, 500});
    CHECK(l.scenario->plan->tasks == 3);
  }
  SECTION("errors: length against tasks, sum against bytes, bad counts") {
    CHECK(Load(R"({"plan": {"op": "scan", "bytes": 600, "tasks": 2, "taskBytes": [100, 0, 500]}})").errors ==
          std::vector<std::string>{
              "s.json: /plan/taskBytes: expected one byte count per scan task (tasks = 2), found 3"});
    CHECK(Load(R"({"plan": {"op": "scan", "bytes": 601, "taskBytes": [100, 0, 500]}})").errors ==
          std::vector<std::string>{"s.json: /plan/taskBytes: expected byte counts summing to the scan's "
                                   "bytes (601), found a sum of 600"});
    CHECK(
        Load(R"({"plan": {"op": "scan", "bytes": 600, "taskBytes": [100, -1]}})").errors ==
        std::vector<std::string>{"s.json: /plan/taskBytes/1: expected a non-negative byte count, found -1"});
    CHECK(Load(R"({"plan": {"op": "scan", "bytes": 600, "taskBytes": []}})").errors ==
          std::vector<std::string>{
              "s.json: /plan/taskBytes: expected a non-empty array of byte counts, one per scan "
              "task, found an empty array"});
  }
}

TEST_CASE("Loader: costFile, relative to the scenario's folder; the scenario's cost wins",
          "[scenario][cost]") {
  ScratchDir dir;
  dir.Write("cost/fit.json", R"({"taskLaunchSeconds": 0.25, "scanSecondsPerByte": 1e-8})");
  dir.Write("cost/wrapped.json", R"({"cost": {"sortSecondsPerByte": 2e-9}})");
  dir.Write("cost/bad.json", R"({"taskLaunchSecondz": 1, "scanSecondsPerByte": -2})");
  dir.Write("cost/broken.json", R"({"taskLaunchSeconds": )");
  SECTION("parameters from the file, inline cost overrides them") {
    Loaded l =
        Load(R"({"costFile": "cost/fit.json", "cost": {"taskLaunchSeconds": 0.5}, )" + kPlan + "}", dir);
    REQUIRE(l.errors.empty());
    CHECK(l.scenario->cost.task_launch_seconds == 0.5);
    CHECK(l.scenario->cost.scan_seconds_per_byte == 1e-8);
    CHECK(l.scenario->cost.sort_seconds_per_byte == CostParams{}.sort_seconds_per_byte);
  }
  SECTION("a {cost: ...} document") {
    Loaded l = Load(R"({"costFile": "cost/wrapped.json", )" + kPlan + "}", dir);
    REQUIRE(l.errors.empty());
    CHECK(l.scenario->cost.sort_seconds_per_byte == 2e-9);
  }
  SECTION("errors name /costFile or the file and the parameter") {
    CHECK(Load(R"({"costFile": 3, )" + kPlan + "}", dir).errors ==
          std::vector<std::string>{
              "s.json: /costFile: expected the name of a cost file (written by aqesim calibrate), found 3"});
    CHECK(Load(R"({"costFile": "cost/none.json", )" + kPlan + "}", dir).errors ==
          std::vector<std::string>{
              "s.json: /costFile: cannot read cost file \"cost/none.json\" (cost/none.json): "
              "No such file or directory"});
    const Loaded broken = Load(R"({"costFile": "cost/broken.json", )" + kPlan + "}", dir);
    REQUIRE(broken.errors.size() == 1);
    CHECK(broken.errors[0].rfind("s.json: /costFile: cost file cost/broken.json is not valid JSON: ", 0) ==
          0);
    const Loaded bad = Load(R"({"costFile": "cost/bad.json", )" + kPlan + "}", dir);
    REQUIRE(bad.errors.size() == 2);
    CHECK(bad.errors[0].rfind(
              "cost/bad.json: /taskLaunchSecondz: unknown field \"taskLaunchSecondz\" of cost", 0) == 0);
    CHECK(bad.errors[1] == "cost/bad.json: /scanSecondsPerByte: expected a number in [0, 1] (s/B), found -2");
  }
}

}  // namespace
}  // namespace aqesim
