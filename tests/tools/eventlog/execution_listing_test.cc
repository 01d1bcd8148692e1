// ListExecutions / DefaultImportSelection on two fixtures; every number was read by hand from
// the raw events (SQLExecutionStart/End times, JobStart's stage ids and spark.sql.execution.id,
// successful TaskEnds and their Shuffle Bytes Written).
#include "tools/eventlog/execution_listing.h"

#include <catch2/catch.hpp>
#include <tuple>
#include <vector>

#include "tests/tools/eventlog/test_util.h"

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

}  // namespace
}  // namespace aqesim::eventlog
