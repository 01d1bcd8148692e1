#include "tools/eventlog/scenario_import.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"
#include "tests/tools/eventlog/test_util.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;
using testing::Fixture;

int64_t SumOf(const json& arr) {
  int64_t s = 0;
  for (const auto& v : arr) s += v.get<int64_t>();
  return s;
}

bool Has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST_CASE("ImportScenario: aqeshuffle SQL execution", "[eventlog][import]") {
  const RecordedApplication app = ReadEventLog(Fixture("aqeshuffle_eventlog.zstd"), nullptr);
  std::vector<std::string> warnings;
  const ImportedScenario imp = ImportScenario(app, {}, &warnings);
  const json& doc = imp.scenario;
  CHECK(imp.selection == "SQL execution 0");
  CHECK(doc["name"] == "aqeshuffle_eventlog");
  CHECK(doc["cluster"]["executors"] == 1);
  CHECK(doc["cluster"]["executorCores"] == 12);
  CHECK(doc["conf"]["spark.sql.adaptive.enabled"] == "true");
  // The master as recorded: the scenario runs in local mode as the log did (scale refuses it,
  // dynamic allocation is off); it was left out (hostile round 3).
  CHECK(doc["conf"]["spark.master"] == "local[*]");
  // aggregate <- exchange(SinglePartition) <- SortMergeJoin <- two exchanges <- scans
  const json& plan = doc["plan"];
  CHECK(plan["op"] == "aggregate");
  CHECK(plan["grouped"] == false);
  const json& top = plan["child"];
  CHECK(top["op"] == "exchange");
  CHECK(top["numPartitions"] == 1);
  const json& join = top["child"];
  CHECK(join["op"] == "join");
  CHECK(join["strategy"] == "SortMergeJoin");
  CHECK(join["joinType"] == "Inner");
  const json& left = join["left"];
  CHECK(left["op"] == "exchange");
  // Reducer sizes behind the coalesced read are rebuilt (coalesced_read_sizes.h): 6 map rows
  // with stage 0's exact Shuffle Bytes Written, 200 reducers; Spark's 13 partition data sizes
  // (DriverAccumUpdates 195: 4208129, ..., 2097577) place the groups at 16 reducers each and
  // 8 for the last; the groups hold what stage 4's tasks read of this exchange ("local bytes
  // read", accumulator 91: task 0 read 4058378, task 12 read 2031472).
  const json& matrix = left["sizes"]["matrix"];
  REQUIRE(matrix.size() == 6);
  const std::vector<int64_t> map_bytes = {8694187, 8402371, 8400968, 8401572, 8403661, 8401989};
  int64_t first_group = 0, last_group = 0;
  for (size_t m = 0; m < 6; ++m) {
    REQUIRE(matrix[m].size() == 200);
    CHECK(SumOf(matrix[m]) == map_bytes[m]);
    for (int r = 0; r < 16; ++r) first_group += matrix[m][r].get<int64_t>();
    for (int r = 192; r < 200; ++r) last_group += matrix[m][r].get<int64_t>();
  }
  CHECK(first_group == 4058378);
  CHECK(last_group == 2031472);
  CHECK(imp.exchanges[1].partition_sizes_reconstructed);
  CHECK(!imp.exchanges[1].partition_sizes_observed);
  CHECK(left["dataSizeBytes"] == 160000000);
  CHECK(left["child"]["op"] == "scan");
  CHECK(left["child"]["tasks"] == 6);
  CHECK(left["child"]["rows"] == 10000000);
  // The SinglePartition exchange: 13 coalesced map tasks spread over the 200 planned partitions.
  CHECK(top["sizes"]["marginals"]["mapBytes"].size() == 200);
  CHECK(SumOf(top["sizes"]["marginals"]["mapBytes"]) == 767);
  CHECK(top["sizes"]["marginals"]["partitionBytes"] == json({767}));

  REQUIRE(imp.exchanges.size() == 3);
  CHECK(imp.exchanges[0].id == "e1");
  CHECK(imp.exchanges[0].map_stage_id == 4);
  CHECK(imp.exchanges[1].id == "e2");
  CHECK(imp.exchanges[1].map_stage_id == 0);
  CHECK(imp.exchanges[1].read_stage_id == 4);
  CHECK(imp.exchanges[1].num_partitions == 200);
  CHECK(imp.exchanges[1].recorded_read_partitions == 13);
  CHECK(imp.exchanges[1].recorded_read_kind == "coalesced");
  CHECK(imp.exchanges[2].recorded_read_partitions == 13);
  REQUIRE(imp.joins.size() == 1);
  CHECK(imp.joins[0].recorded_strategy == "SortMergeJoin");
  CHECK(imp.stage_ids == std::vector<int>{0, 1, 4, 8});

  const auto& est = imp.estimated;
  CHECK(Has(est, "/plan/child/child/left/sizes/matrix"));
  CHECK(Has(est, "/plan/child/child/right/sizes/matrix"));
  CHECK(Has(est, "/plan/child/sizes/marginals/mapBytes"));
  CHECK(Has(est, "/plan/child/child/left/child/bytes"));  // in-memory scan: no input metrics
  CHECK(doc["estimated"].size() == est.size());
  // Every estimated pointer names a value present in the document.
  for (const auto& p : est) CHECK(doc.contains(json::json_pointer(p)));
}

TEST_CASE("ImportScenario: Spark 1.6 RDD job -> scan, exchange with exact marginals, aggregate",
          "[eventlog][import]") {
  const RecordedApplication app = ReadEventLog(Fixture("application_1472176676028_407508_1.gz"), nullptr);
  const ImportedScenario imp = ImportScenario(app, {}, nullptr);
  CHECK(imp.selection == "job 0");
  const json& doc = imp.scenario;
  CHECK(doc["cluster"]["executors"] == 50);
  CHECK(doc["cluster"]["executorCores"] == 4);
  CHECK(doc["conf"]["spark.master"] == "yarn-cluster");
  CHECK(doc["cluster"]["executorMemory"] == "16g");
  const json& plan = doc["plan"];
  CHECK(plan["op"] == "aggregate");
  const json& ex = plan["child"];
  CHECK(ex["op"] == "exchange");
  CHECK(ex["numPartitions"] == 40);
  const json& m = ex["sizes"]["marginals"];
  REQUIRE(m["mapBytes"].size() == 544);
  REQUIRE(m["partitionBytes"].size() == 40);
  CHECK(m["mapBytes"][17] == 58434231);
  // Reducer 5: Remote 1761645105 + Local 41059764 (grep of stage 1's TaskEnd, Index 5).
  CHECK(m["partitionBytes"][5] == 1761645105 + 41059764);
  CHECK(SumOf(m["mapBytes"]) == 72112846445);
  CHECK(SumOf(m["partitionBytes"]) == 72112846445);
  CHECK(ex["child"]["op"] == "scan");
  CHECK(ex["child"]["tasks"] == 544);
  CHECK(ex["child"]["bytes"] == 57805483090);
  CHECK(imp.estimated == std::vector<std::string>{"/conf/spark.sql.adaptive.enabled"});
  CHECK(imp.exchanges.at(0).partition_sizes_observed);
}

TEST_CASE("ImportScenario: selection options and errors", "[eventlog][import]") {
  const RecordedApplication app = ReadEventLog(Fixture("application_1472176676028_407508_1.gz"), nullptr);
  ImportOptions job4;
  job4.job_id = 4;
  const ImportedScenario imp = ImportScenario(app, job4, nullptr);
  CHECK(imp.selection == "job 4");
  CHECK(imp.stage_ids == std::vector<int>{6, 7});
  ImportOptions missing;
  missing.job_id = 99;
  CHECK_THROWS_WITH(ImportScenario(app, missing, nullptr), Catch::Contains("no job 99"));
  ImportOptions no_exec;
  no_exec.execution_id = 0;  // 1.6 has execution ids on jobs but no SQL plans
  CHECK_THROWS_WITH(ImportScenario(app, no_exec, nullptr), Catch::Contains("no SQL execution 0 with a plan"));
  CHECK(DefaultScenarioName("/a/b/aqeshuffle_eventlog.zstd") == "aqeshuffle_eventlog");
  CHECK(JsonPointerToken("a/b~c") == "a~1b~0c");
}

}  // namespace
}  // namespace aqesim::eventlog

namespace aqesim::eventlog {
namespace {

// Values read from the logs by hand (`zstd -dc LOG | grep -E 'ExecutorAdded|ExecutorRemoved|
// SQLExecutionStart|TaskEnd'`): timestamps in ms, relative to the execution's start.
TEST_CASE("ImportScenario: executor timeline of a dynamic-allocation execution",
          "[eventlog][import][timeline]") {
  const RecordedApplication app = ReadEventLog(Fixture("eventlog_4nodes_8cores_dynamic_alloc.zstd"), nullptr);
  auto import = [&](int64_t execution) {
    ImportOptions o;
    o.execution_id = execution;
    return ImportScenario(app, o, nullptr);
  };
  SECTION("execution 0: no executor at the start; 4, 3, 5 register at +10.572, +12.550, +13.633 s") {
    // SQL execution 0 starts at 1727966085193; ExecutorAdded 4 / 3 / 5 at 1727966095765 /
    // 097743 / 098826; executors 1 and 2 were removed before; 6 registers after the end.
    const ImportedScenario imp = import(0);
    const json& t = imp.scenario["cluster"]["executorTimeline"];
    REQUIRE(t.size() == 3);
    CHECK(t[0]["add"].get<double>() == Approx(10.572));
    CHECK(t[1]["add"].get<double>() == Approx(12.550));
    CHECK(t[2]["add"].get<double>() == Approx(13.633));
    for (const json& e : t) CHECK_FALSE(e.contains("remove"));
    for (const json& e : t) CHECK_FALSE(e.contains("warm"));  // fresh JVMs
  }
  SECTION("execution 1: 4, 3, 5 stop taking tasks 10 s (executorIdleTimeout) after their last task") {
    // Execution 1 starts at 1727966106076. Last tasks of executors 4 / 3 / 5 end at
    // 1727966107076 / 106748 / 106946, so the driver decides to remove them at +11.000,
    // +10.672, +10.870 s (ExecutorRemoved only arrives at 1727966129950 and later); executor 6
    // (added 1727966105352) stays.
    const ImportedScenario imp = import(1);
    const json& t = imp.scenario["cluster"]["executorTimeline"];
    REQUIRE(t.size() == 4);
    CHECK(t[0]["remove"].get<double>() == Approx(11.000));
    CHECK(t[1]["remove"].get<double>() == Approx(10.672));
    CHECK(t[2]["remove"].get<double>() == Approx(10.870));
    CHECK_FALSE(t[3].contains("remove"));
    for (const json& e : t) CHECK(e["add"].get<double>() == 0.0);
    // 4, 3, 5 ran execution 0's tasks (warm JVMs), and execution 0 is the same query (the
    // same operators: only RDD ids differ in its plan), so its code too; 6 had run none.
    for (int i : {0, 1, 2}) {
      CHECK(t[i]["warm"] == true);
      CHECK(t[i]["warmCode"] == true);
    }
    CHECK_FALSE(t[3].contains("warm"));
    CHECK_FALSE(t[3].contains("warmCode"));
    CHECK(Has(imp.estimated, "/cluster/executorTimeline/0/remove"));
    CHECK(Has(imp.estimated, "/cluster/executorTimeline/2/remove"));
    CHECK_FALSE(Has(imp.estimated, "/cluster/executorTimeline/3/remove"));
    CHECK(imp.scenario["cluster"]["executors"] == 4);  // peak during the execution (decisions)
  }
  SECTION("execution 3: executors pending removal stay registered but take no task") {
    // Execution 3 starts at 1727966146900 and ran every task on executors 7 and 8 (first
    // tasks at 1727966146932). Executor 6's last task ended at 1727966131455, 10's at
    // 131673, and 9 (added 131356) ran none: with executorIdleTimeout 10s the driver decided
    // to remove them at 141455 / 141673 / 141356, before the start, but ExecutorRemoved
    // came at 154614 / 165439 / 154525, so they still counted in the registered cores
    // (AQE's coalescing target: 22 partitions with 5 x 4 cores).
    const ImportedScenario imp = import(3);
    CHECK(imp.scenario["cluster"]["executors"] == 5);
    const json& t = imp.scenario["cluster"]["executorTimeline"];
    REQUIRE(t.size() == 2);  // 7 and 8, fresh JVMs present from the start
    for (const json& e : t) {
      CHECK(e["add"].get<double>() == 0.0);
      CHECK_FALSE(e.contains("remove"));
      CHECK_FALSE(e.contains("warm"));
    }
  }
  SECTION("execution 4: 7 and 8 ran execution 3, the same query: warm code; 11, 12, 13 are new") {
    const ImportedScenario imp = import(4);
    const json& t = imp.scenario["cluster"]["executorTimeline"];
    REQUIRE(t.size() == 5);
    for (int i : {0, 1}) CHECK(t[i]["warmCode"] == true);
    for (int i : {2, 3, 4}) CHECK_FALSE(t[i].contains("warmCode"));
  }
}

TEST_CASE("ImportScenario: a static cluster has no timeline", "[eventlog][import][timeline]") {
  const RecordedApplication app = ReadEventLog(Fixture("aqeshuffle_eventlog.zstd"), nullptr);
  CHECK_FALSE(ImportScenario(app, {}, nullptr).scenario["cluster"].contains("executorTimeline"));
}

TEST_CASE("ImportScenario: skewed scan stages get per-task taskBytes", "[eventlog][import][scan]") {
  SECTION("SQL scan (join_agg_on_yarn stage 3: Input Metrics Bytes Read per task index)") {
    // Tasks 3, 10, 17, 24 read 59905559, 59906712, 59905539, 59906674 bytes; 28, 29 read
    // 11682770, 11682767; the other 24 read 5562 each.
    const RecordedApplication app = ReadEventLog(Fixture("join_agg_on_yarn_eventlog.zstd"), nullptr);
    const ImportedScenario imp = ImportScenario(app, {}, nullptr);
    const json* scan = nullptr;
    std::function<void(const json&)> find = [&](const json& n) {
      if (n.value("op", "") == "scan" && n.contains("taskBytes")) scan = &n;
      for (const char* k : {"child", "left", "right"})
        if (n.contains(k)) find(n[k]);
    };
    find(imp.scenario["plan"]);
    REQUIRE(scan != nullptr);
    // Of the 10 executors, only executor 2 ran a task (stage 0) before SQL execution 0.
    CHECK(imp.scenario["cluster"]["warmExecutors"] == 1);
    const json& tb = (*scan)["taskBytes"];
    REQUIRE(tb.size() == 30);
    CHECK(tb[3] == 59905559);
    CHECK(tb[10] == 59906712);
    CHECK(tb[17] == 59905539);
    CHECK(tb[24] == 59906674);
    CHECK(tb[28] == 11682770);
    CHECK(tb[29] == 11682767);
    CHECK(tb[0] == 5562);
    CHECK((*scan)["bytes"] == SumOf(tb));
    CHECK(SumOf(tb) == 4 * 59906121 + 11682770 + 11682767 + 24 * 5562);
  }
  SECTION("RDD scan (Spark 1.6 job 0, stage 0)") {
    // Task 164 read 22036917 bytes, task 51 14067149 (Input Metrics of their TaskEnd).
    const RecordedApplication app = ReadEventLog(Fixture("application_1472176676028_407508_1.gz"), nullptr);
    const ImportedScenario imp = ImportScenario(app, {}, nullptr);
    const json& scan = imp.scenario["plan"]["child"]["child"];
    REQUIRE(scan["op"] == "scan");
    REQUIRE(scan["taskBytes"].size() == 544);
    CHECK(scan["taskBytes"][164] == 22036917);
    CHECK(scan["taskBytes"][51] == 14067149);
    CHECK(scan["bytes"] == SumOf(scan["taskBytes"]));
  }
}

}  // namespace
}  // namespace aqesim::eventlog

namespace aqesim::eventlog {
namespace {

TEST_CASE("ImportScenario: operators between the root and an exchange stay as one node",
          "[eventlog][import]") {
  // pandas_execs execution 3 (read by hand from its SQLExecutionStart): AdaptiveSparkPlan >
  // FlatMapGroupsInPandas > WholeStageCodegen (2) > Sort > InputAdapter > Exchange
  // hashpartitioning(id#29L, 200), ENSURE_REQUIREMENTS. The final stage runs the sort and the UDF
  // over the shuffle read; imported without them, its root would be the exchange itself, which
  // OptimizeShuffleWithLocalRead reads locally (docs/aqe-behaviour.md §9) where Spark does not.
  const RecordedApplication app = ReadEventLog(Fixture("pandas_execs_eventlog.zstd"), nullptr);
  ImportOptions exec3;
  exec3.execution_id = 3;
  const json plan = ImportScenario(app, exec3, nullptr).scenario["plan"];
  CHECK(plan["op"] == "sort");
  REQUIRE(plan.contains("child"));
  CHECK(plan["child"]["op"] == "exchange");
  // An aggregate over its exchange is kept as before (aqeshuffle: aggregate <- exchange).
  const json agg = ImportScenario(ReadEventLog(Fixture("aqeshuffle_eventlog.zstd"), nullptr), {}, nullptr)
                       .scenario["plan"];
  CHECK(agg["op"] == "aggregate");
  CHECK(agg["child"]["op"] == "exchange");
}

// Spark Properties read by hand from the logs' SparkListenerEnvironmentUpdate.
TEST_CASE("ImportScenario: a timeline recorded under dynamic allocation keeps the policy's keys",
          "[eventlog][import][conf]") {
  SECTION("dynamic_alloc (YARN): enabled, executorIdleTimeout 10s, 2 instances, the shuffle service") {
    const RecordedApplication app =
        ReadEventLog(Fixture("eventlog_4nodes_8cores_dynamic_alloc.zstd"), nullptr);
    ImportOptions o;
    o.execution_id = 0;
    const ImportedScenario imp = ImportScenario(app, o, nullptr);
    REQUIRE(imp.scenario["cluster"].contains("executorTimeline"));
    const json& conf = imp.scenario["conf"];
    CHECK(conf["spark.dynamicAllocation.enabled"] == "true");
    CHECK(conf["spark.dynamicAllocation.executorIdleTimeout"] == "10s");
    CHECK(conf["spark.executor.instances"] == "2");
    CHECK(conf["spark.shuffle.service.enabled"] == "true");
  }
  SECTION("minExecutors above maxExecutors (the loader would refuse it): left out with a warning") {
    std::string text =
        testing::DrainSource(*OpenByteSource(Fixture("eventlog_4nodes_8cores_dynamic_alloc.zstd")));
    const std::string from = "\"spark.dynamicAllocation.executorIdleTimeout\":\"10s\"";
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(
        at, from.size(),
        "\"spark.dynamicAllocation.minExecutors\":\"5\",\"spark.dynamicAllocation.maxExecutors\":\"2\"");
    testing::TempDir dir;
    const std::string log = dir.Write("da.json", text);
    std::vector<std::string> warnings;
    const RecordedApplication app = ReadEventLog(log, &warnings);
    ImportOptions o;
    o.execution_id = 0;
    const ImportedScenario imp = ImportScenario(app, o, &warnings);
    CHECK_FALSE(imp.scenario["conf"].contains("spark.dynamicAllocation.enabled"));
    CHECK_FALSE(imp.scenario["conf"].contains("spark.dynamicAllocation.minExecutors"));
    CHECK(std::find(warnings.begin(), warnings.end(),
                    log +
                        ": the log's dynamic allocation settings are not kept in the scenario's conf "
                        "(spark.dynamicAllocation.minExecutors is above maxExecutors): a dynamic-allocation "
                        "what-if starts from Spark's defaults") != warnings.end());
  }
  SECTION(
      "spark.executor.instances 2 above maxExecutors 1 (the loader would refuse it): left out with a "
      "warning") {
    std::string text =
        testing::DrainSource(*OpenByteSource(Fixture("eventlog_4nodes_8cores_dynamic_alloc.zstd")));
    const std::string from = "\"spark.dynamicAllocation.executorIdleTimeout\":\"10s\"";
    const size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), "\"spark.dynamicAllocation.maxExecutors\":\"1\"");
    testing::TempDir dir;
    const std::string log = dir.Write("da.json", text);
    std::vector<std::string> warnings;
    const RecordedApplication app = ReadEventLog(log, &warnings);
    ImportOptions o;
    o.execution_id = 0;
    const ImportedScenario imp = ImportScenario(app, o, &warnings);
    CHECK_FALSE(imp.scenario["conf"].contains("spark.dynamicAllocation.enabled"));
    CHECK_FALSE(imp.scenario["conf"].contains("spark.dynamicAllocation.maxExecutors"));
    CHECK(std::find(
              warnings.begin(), warnings.end(),
              log +
                  ": the log's dynamic allocation settings are not kept in the scenario's conf (the initial "
                  "executors (the most of minExecutors, initialExecutors and spark.executor.instances) are "
                  "above maxExecutors): a dynamic-allocation what-if starts from Spark's defaults") !=
          warnings.end());
    // The scenario loads: its recorded timeline replays.
    CHECK(LoadScenarioJson(imp.scenario, "da.scenario.json", {}).errors.empty());
  }
  SECTION("join_agg (YARN, dynamic allocation on, no executor change in the query): no timeline, no keys") {
    const RecordedApplication app = ReadEventLog(Fixture("join_agg_on_yarn_eventlog.zstd"), nullptr);
    const ImportedScenario imp = ImportScenario(app, ImportOptions{}, nullptr);
    REQUIRE_FALSE(imp.scenario["cluster"].contains("executorTimeline"));
    CHECK_FALSE(imp.scenario["conf"].contains("spark.dynamicAllocation.enabled"));
    CHECK_FALSE(imp.scenario["conf"].contains("spark.shuffle.service.enabled"));
  }
}

}  // namespace
}  // namespace aqesim::eventlog
