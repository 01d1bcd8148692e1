// ListExecutions / DefaultImportSelection on two fixtures; every number was read by hand from
// the raw events (SQLExecutionStart/End times, JobStart's stage ids and spark.sql.execution.id,
// successful TaskEnds and their Shuffle Bytes Written).
#include "tools/eventlog/execution_listing.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "tests/tools/eventlog/test_util.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::eventlog {
namespace {

using testing::Fixture;

TEST_CASE("ListExecutions: pandas_execs, five SQL executions, the default is the most shuffle bytes",
          "[eventlog][listing]") {
  const RecordedApplication app = ReadEventLog(Fixture("pandas_execs_eventlog.zstd"), nullptr);
  const std::vector<ListedExecution> listed = ListExecutions(app);
  REQUIRE(listed.size() == 5);
  // id, duration ms, stages, tasks, shuffle bytes written.
  const std::vector<std::tuple<int64_t, int64_t, int, int64_t, int64_t>> expected = {
      {0, 4798, 1, 8, 0},
      {1, 6705, 2, 208, 52039},
      {2, 349, 1, 8, 0},
      {3, 4460, 2, 208, 54456},
      {4, 3532, 2, 208, 52039}};
  for (size_t i = 0; i < listed.size(); ++i) {
    const auto& [id, ms, stages, tasks, bytes] = expected[i];
    CHECK(listed[i].kind == ListedExecution::Kind::kSqlExecution);
    CHECK(listed[i].id == id);
    CHECK(listed[i].duration_ms == ms);
    CHECK(listed[i].jobs == 1);
    CHECK(listed[i].stages == stages);
    CHECK(listed[i].tasks == tasks);
    CHECK(listed[i].shuffle_write_bytes == bytes);
    CHECK(listed[i].description == "collect at <stdin>:1");
    CHECK_FALSE(listed[i].adaptive);  // no AdaptiveSparkPlan node in any plan
    CHECK(listed[i].importable);
    CHECK(listed[i].default_selection == (id == 3));  // 54,456 B: the most
  }
  const ImportSelection selection = DefaultImportSelection(app);
  REQUIRE(selection.execution != nullptr);
  CHECK(selection.execution->execution_id == 3);
  CHECK(selection.job == nullptr);
}

TEST_CASE("ListExecutions: Spark 1.6, an execution without a plan lists its jobs for --job",
          "[eventlog][listing]") {
  const RecordedApplication app = ReadEventLog(Fixture("application_1472176676028_407508_1.gz"), nullptr);
  const std::vector<ListedExecution> listed = ListExecutions(app);
  REQUIRE(listed.size() == 8);
  CHECK(listed[0].kind == ListedExecution::Kind::kSqlExecution);
  CHECK(listed[0].id == 0);
  CHECK_FALSE(listed[0].importable);
  CHECK_FALSE(listed[0].duration_ms.has_value());  // no SQLExecutionEnd in the log
  CHECK(listed[0].jobs == 3);
  CHECK(listed[0].tasks == 592);  // 584 + 4 + 4
  CHECK(listed[0].shuffle_write_bytes == 72112846445);
  // Jobs 0-2 (of execution 0, which has no plan) and 3-6 (no execution id).
  const std::vector<std::tuple<int64_t, int64_t, int, int64_t, int64_t>> expected = {
      {0, 2452509, 2, 584, 72112846445},
      {1, 554, 1, 4, 0},
      {2, 950, 1, 4, 0},
      {3, 270, 2, 5, 103},
      {4, 179, 2, 5, 103},
      {5, 714, 2, 5, 103},
      {6, 850, 2, 5, 103}};
  for (size_t i = 0; i < expected.size(); ++i) {
    const ListedExecution& job = listed[i + 1];
    const auto& [id, ms, stages, tasks, bytes] = expected[i];
    CHECK(job.kind == ListedExecution::Kind::kJob);
    CHECK(job.id == id);
    CHECK(job.duration_ms == ms);
    CHECK(job.jobs == 1);
    CHECK(job.stages == stages);
    CHECK(job.tasks == tasks);
    CHECK(job.shuffle_write_bytes == bytes);
    CHECK(job.default_selection == (id == 0));
  }
  CHECK(listed[4].description == "repartition at HiveUtil.scala:29");  // job 3's last stage
  const ImportSelection selection = DefaultImportSelection(app);
  CHECK(selection.execution == nullptr);
  REQUIRE(selection.job != nullptr);
  CHECK(selection.job->job_id == 0);
}

TEST_CASE("ListExecutions: a log with every line twice lists what the log once does", "[eventlog][listing]") {
  // Hostile round I7: every event logged twice listed execution 3 with 2 jobs, 8 stages, 832
  // tasks and 106.4 KiB (a repeated JobStart listed its stages again and joined its execution
  // again); the repeat is ignored with one warning.
  auto source = OpenByteSource(Fixture("pandas_execs_eventlog.zstd"));
  const std::string once = testing::DrainSource(*source, 1 << 16);
  std::string twice;
  std::istringstream lines(once);
  for (std::string line; std::getline(lines, line);) twice += line + "\n" + line + "\n";
  const testing::TempDir dir;
  const std::string path = dir.Write("twice.json", twice);
  std::vector<std::string> warnings;
  const RecordedApplication app = ReadEventLog(path, &warnings);
  const std::vector<ListedExecution> listed = ListExecutions(app);
  REQUIRE(listed.size() == 5);
  CHECK(listed[3].id == 3);
  CHECK(listed[3].jobs == 1);
  CHECK(listed[3].stages == 2);
  CHECK(listed[3].tasks == 208);
  CHECK(listed[3].shuffle_write_bytes == 54456);
  CHECK(listed[3].default_selection);
  for (const char* repeat : {"starts a second time", "ends a second time"}) {
    INFO(repeat);
    CHECK(std::count_if(warnings.begin(), warnings.end(),
                        [&](const std::string& w) { return w.find(repeat) != std::string::npos; }) == 1);
  }
  // The scenario imported from it is the one imported from the log as written (its plan's rows
  // and sizes came out doubled: the repeated TaskEnds' SQL metrics were added again).
  const std::string once_path = dir.Write("once.json", once);
  const RecordedApplication once_app = ReadEventLog(once_path, nullptr);
  std::vector<std::string> import_warnings;
  const nlohmann::json a = ImportScenario(once_app, {}, &import_warnings).scenario;
  const nlohmann::json b = ImportScenario(app, {}, &import_warnings).scenario;
  CHECK(a["plan"] == b["plan"]);
  CHECK(a["profiles"] == b["profiles"]);
}

TEST_CASE("ReadEventLog: an executor added twice while registered counts once", "[eventlog][listing]") {
  // Every line of the 10 x 3-core EMR log logged twice imported a cluster of 20 executors and
  // 2 warm ones: each repeated ExecutorAdded registered its executor again.
  auto source = OpenByteSource(Fixture("join_agg_on_yarn_eventlog.zstd"));
  const std::string once = testing::DrainSource(*source, 1 << 16);
  std::string twice;
  std::istringstream lines(once);
  for (std::string line; std::getline(lines, line);) twice += line + "\n" + line + "\n";
  const testing::TempDir dir;
  std::vector<std::string> warnings;
  const RecordedApplication app = ReadEventLog(dir.Write("twice.json", twice), &warnings);
  CHECK(app.executors.size() == 10);
  CHECK(app.max_concurrent_executors == 10);
  CHECK(std::count_if(warnings.begin(), warnings.end(), [](const std::string& w) {
          return w.find(
                     " is added a second time while registered (SparkListenerExecutorAdded logged twice?)") !=
                 std::string::npos;
        }) == 1);
  std::vector<std::string> import_warnings;
  const nlohmann::json cluster = ImportScenario(app, {}, &import_warnings).scenario["cluster"];
  CHECK(cluster["executors"] == 10);
  CHECK(cluster["executorCores"] == 3);
  CHECK(cluster["warmExecutors"] == 1);
}

TEST_CASE("ReadEventLog: an executor removed before it is added is warned", "[eventlog][listing]") {
  // The dynamic-allocation log reversed: its 14 ExecutorRemoved came before their ExecutorAdded
  // and were dropped silently, the executors read as never removed.
  auto source = OpenByteSource(Fixture("eventlog_4nodes_8cores_dynamic_alloc.zstd"));
  const std::string once = testing::DrainSource(*source, 1 << 16);
  std::vector<std::string> lines;
  std::istringstream in(once);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::string reversed;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) reversed += *it + "\n";
  const testing::TempDir dir;
  auto removals = [](const std::vector<std::string>& warnings) {
    return std::count_if(warnings.begin(), warnings.end(), [](const std::string& w) {
      return w.find(
                 " is removed but is not registered (events out of order, or its SparkListenerExecutorAdded "
                 "lost?); this and any later such removal are ignored") != std::string::npos;
    });
  };
  std::vector<std::string> warnings;
  ReadEventLog(dir.Write("reversed.json", reversed), &warnings);
  CHECK(removals(warnings) == 1);
  warnings.clear();
  const RecordedApplication app = ReadEventLog(dir.Write("once.json", once), &warnings);
  CHECK(removals(warnings) == 0);
  CHECK(std::count_if(app.executors.begin(), app.executors.end(),
                      [](const RecordedExecutor& ex) { return ex.removed_time_ms.has_value(); }) == 14);
}

TEST_CASE("ReadEventLog: a removal timed before its executor's addition is warned and ignored",
          "[eventlog][listing]") {
  // Executor 2 of the dynamic-allocation log is added at 1727966013471 (line 7) and removed at
  // 1727966037269 (line 12); its removal moved to 100 s before its addition made a lifetime that
  // ends before it begins (every removal so moved imported a 1-executor cluster, silently).
  auto source = OpenByteSource(Fixture("eventlog_4nodes_8cores_dynamic_alloc.zstd"));
  const std::string once = testing::DrainSource(*source, 1 << 16);
  std::string moved;
  std::istringstream in(once);
  for (std::string line; std::getline(in, line);) {
    if (line.find("\"SparkListenerExecutorRemoved\"") != std::string::npos &&
        line.find("\"Executor ID\":\"2\"") != std::string::npos) {
      nlohmann::json e = nlohmann::json::parse(line);
      REQUIRE(e["Timestamp"] == 1727966037269);
      e["Timestamp"] = 1727966013471 - 100000;
      line = e.dump();
    }
    moved += line + "\n";
  }
  const testing::TempDir dir;
  const std::string path = dir.Write("moved.json", moved);
  std::vector<std::string> warnings;
  const RecordedApplication app = ReadEventLog(path, &warnings);
  CHECK(std::count(
            warnings.begin(), warnings.end(),
            path + ":12: executor 2's SparkListenerExecutorRemoved (Timestamp 1727965913471) is before its "
                   "SparkListenerExecutorAdded (Timestamp 1727966013471); this and any later removal timed "
                   "before its executor's addition are ignored (the executor is kept until a later removal "
                   "or the end)") == 1);
  // Executor 2 lives to the end; the other 13 removals are as logged.
  const auto two = std::find_if(app.executors.begin(), app.executors.end(),
                                [](const RecordedExecutor& ex) { return ex.executor_id == "2"; });
  REQUIRE(two != app.executors.end());
  CHECK(two->added_time_ms == 1727966013471);
  CHECK_FALSE(two->removed_time_ms.has_value());
  CHECK(std::count_if(app.executors.begin(), app.executors.end(),
                      [](const RecordedExecutor& ex) { return ex.removed_time_ms.has_value(); }) == 13);
}

}  // namespace
}  // namespace aqesim::eventlog
