#include "tools/eventlog/scenario_import.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

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

bool Has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

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
  // Exact row sums of stage 0; reducer sizes are not observable (coalesced read), so uniform.
  CHECK(left["sizes"]["generate"]["distribution"] == "uniform");
  CHECK(left["sizes"]["generate"]["mapBytes"] == json({8694187, 8402371, 8400968, 8401572, 8403661, 8401989}));
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
  CHECK(Has(est, "/plan/child/child/left/sizes/generate/distribution"));
  CHECK(Has(est, "/plan/child/child/right/sizes/generate/distribution"));
  CHECK(Has(est, "/plan/child/sizes/marginals/mapBytes"));
  CHECK(Has(est, "/plan/child/child/left/child/bytes"));  // in-memory scan: no input metrics
  CHECK(doc["estimated"].size() == est.size());
  // Every estimated pointer names a value present in the document.
  for (const auto& p : est) CHECK(doc.contains(json::json_pointer(p)));
}

TEST_CASE("ImportScenario: Spark 1.6 RDD job -> scan, exchange with exact marginals, aggregate", "[eventlog][import]") {
  const RecordedApplication app = ReadEventLog(Fixture("application_1472176676028_407508_1.gz"), nullptr);
  const ImportedScenario imp = ImportScenario(app, {}, nullptr);
  CHECK(imp.selection == "job 0");
  const json& doc = imp.scenario;
  CHECK(doc["cluster"]["executors"] == 50);
  CHECK(doc["cluster"]["executorCores"] == 4);
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
