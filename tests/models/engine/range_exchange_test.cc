// Range exchanges: EnsureRequirements' exchange under a global sort, RangePartitioner's bounds
// over a scan's explicit keys, the sizes they give, the sampling job as a stage before the map
// stage, and AQE's coalescing of the range partitions (hand-computed).
#include "models/engine/range_exchange.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "models/engine/query_execution.h"
#include "models/engine/static_planner.h"
#include "models/scenario/scenario.h"

namespace aqesim {
namespace {

std::unique_ptr<Scenario> Load(const std::string& keys, const std::string& conf) {
  const nlohmann::json doc = nlohmann::json::parse(
      R"({"name": "t", "cluster": {"executors": 2, "executorCores": 4},
          "conf": {)" +
      conf + R"(},
          "plan": {"op": "sort", "id": "s", "global": true,
                   "child": {"op": "scan", "id": "t", "bytes": 700, "taskBytes": [300, 400],
                             "keyDistribution": {"keys": )" +
      keys + R"(}}}})");
  LoadResult lr = LoadScenarioJson(doc, "t.json", {});
  for (const Diagnostic& d : lr.errors) FAIL_CHECK(d.ToString());
  REQUIRE(lr.errors.empty());
  return std::move(lr.scenario);
}

const StageResult* StageNamed(const RunResult& r, const std::string& name) {
  for (const StageResult& s : r.stages)
    if (s.name == name) return &s;
  return nullptr;
}

TEST_CASE("Range exchange: a global sort gets a range exchange with bounds from its keys",
          "[engine][range]") {
  // Rows of 100 bytes: task 0 keys 5, 1, 3; task 1 keys 2, 4, 6, 8. Sampled whole: bound 4.
  // Partition 0 (keys <= 4): 1, 3 of task 0 (200 B) and 2, 4 of task 1 (200 B); partition 1:
  // 5 (100 B) and 6, 8 (200 B).
  const auto s = Load("[[5, 1, 3], [2, 4, 6, 8]]", R"("spark.sql.shuffle.partitions": 2)");
  const StaticPlan p = PlanStatically(*s, s->conf);
  REQUIRE(p.decisions.size() == 1);
  CHECK(p.decisions[0].message ==
        "s: ShuffleExchange t-exchange inserted on the child (scan t does not satisfy OrderedDistribution (a "
        "global sort)), 2 range partitions (spark.sql.shuffle.partitions)");
  const ExecNode& ex = p.root->child(0);
  REQUIRE(ex.is_exchange());
  const ShuffleData& d = *ex.shuffle->data;
  REQUIRE(d.range);
  CHECK(d.range->bounds == std::vector<int64_t>{4});
  CHECK(d.num_reducers == 2);
  CHECK(d.planned.row(0)[0] == 200);
  CHECK(d.planned.row(0)[1] == 100);
  CHECK(d.planned.row(1)[0] == 200);
  CHECK(d.planned.row(1)[1] == 200);

  SECTION("AQE off: the sampling job runs as a stage before the map stage") {
    const RunResult r = SimulateQuery(*s, false);
    REQUIRE(r.stages.size() == 3);
    const StageResult* sample = StageNamed(r, "t-exchange sample");
    const StageResult* map = StageNamed(r, "t-exchange map");
    REQUIRE(sample != nullptr);
    REQUIRE(map != nullptr);
    CHECK(sample->tasks == 2);
    CHECK(sample->input_bytes == 700);  // the sketch reads its input partitions whole
    CHECK(sample->shuffle_write_bytes == 0);
    CHECK(map->submit_seconds >= sample->complete_seconds);
    CHECK(map->shuffle_write_bytes == 700);
    CHECK(r.exchanges[0].true_bytes_by_partition_id == std::vector<int64_t>{400, 300});
  }
  SECTION("AQE on: the range partitions are coalesced") {
    const RunResult r = SimulateQuery(*s, true);
    const StageResult* sample = StageNamed(r, "t-exchange sample");
    const StageResult* map = StageNamed(r, "t-exchange map");
    REQUIRE(sample != nullptr);
    REQUIRE(map != nullptr);
    CHECK(sample->id < map->id);
    CHECK(map->submit_seconds >= sample->complete_seconds);
    bool coalesced = false;
    for (const Decision& dec : r.decisions)
      coalesced |=
          dec.rule == "CoalesceShufflePartitions" && dec.message.find("t-exchange") != std::string::npos;
    CHECK(coalesced);
    const StageResult* result = StageNamed(r, "result");
    REQUIRE(result != nullptr);
    CHECK(result->tasks == 1);  // 700 bytes, far below the advisory size
  }
}

TEST_CASE("Range exchange: a heavy key late in the order gives fewer partitions than requested",
          "[engine][range]") {
  // 7 rows, 4 requested: step 7/4 = 1.75; bound 2 at weight 2, the other 2s equal it, bound 3 at 7.
  const auto s = Load("[[2, 2, 2], [2, 2, 2, 3]]", R"("spark.sql.shuffle.partitions": 4)");
  const StaticPlan p = PlanStatically(*s, s->conf);
  const ShuffleData& d = *p.root->child(0).shuffle->data;
  REQUIRE(d.range);
  CHECK(d.range->requested_partitions == 4);
  CHECK(d.range->bounds == std::vector<int64_t>{2, 3});
  CHECK(d.num_reducers == 3);
  CHECK(p.root->planned_partitions == 3);
  const RunResult r = SimulateQuery(*s, false);
  // Task 0: 300 B of key 2; task 1: 300 B of key 2 and 100 B of key 3.
  CHECK(r.exchanges[0].true_bytes_by_partition_id == std::vector<int64_t>{600, 100, 0});
}

TEST_CASE("Range exchange: keys given for other than the map tasks are an error", "[engine][range]") {
  const nlohmann::json doc = nlohmann::json::parse(
      R"({"name": "t", "plan": {"op": "sort", "global": true,
          "child": {"op": "scan", "id": "t", "bytes": 700, "tasks": 2,
                    "keyDistribution": {"keys": [[1], [2], [3]]}}}})");
  LoadResult lr = LoadScenarioJson(doc, "t.json", {});
  REQUIRE(lr.errors.size() == 1);
  CHECK(lr.errors[0].ToString() ==
        "t.json: /plan/child/keyDistribution/keys: expected one array of keys per scan task (tasks = 2), "
        "found 3");
}

}  // namespace
}  // namespace aqesim
