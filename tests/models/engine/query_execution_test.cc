// Simulation of whole queries against hand-computed times and Spark's published answers.
#include "models/engine/query_execution.h"

#include <catch2/catch.hpp>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "models/scenario/scenario.h"

namespace aqesim {
namespace {

/// Cost parameters that make every task take exactly `launch` seconds.
nlohmann::json UnitCost(double launch) {
  return {{"taskLaunchSeconds", launch},
          {"executorStartupSeconds", 0},  // warm executors, compiled code: not the fitted defaults
          {"executorStageWarmupSeconds", 0},
          {"coldCodeSlowdown", 0},
          {"stageOverheadSeconds", 0},
          {"replanSeconds", 0},
          {"remoteFetchRequestSeconds", 0},
          {"localFetchRequestSeconds", 0},
          {"scanSecondsPerByte", 0},
          {"shuffleWriteSecondsPerByte", 0},
          {"shuffleReadSecondsPerByte", 0},
          {"sortSecondsPerByte", 0},
          {"hashBuildSecondsPerByte", 0},
          {"joinProbeSecondsPerByte", 0},
          {"aggregateSecondsPerByte", 0},
          {"streamSecondsPerByte", 0},
          {"broadcastBuildSecondsPerByte", 0},
          {"mapStatusAggregateSecondsPerBlock", 0}};
}

std::unique_ptr<Scenario> Load(const nlohmann::json& doc) {
  LoadResult r = LoadScenarioJson(doc, "test.json", {});
  INFO((r.errors.empty() ? std::string() : r.errors[0].ToString()));
  REQUIRE(r.errors.empty());
  return std::move(r.scenario);
}

nlohmann::json Cluster(int executors, int cores) {
  // Huge bandwidths: byte terms vanish, only task launch counts.
  return {{"executors", executors},     {"executorCores", cores},
          {"executorMemory", "64g"},    {"networkBytesPerSecond", "1p"},
          {"diskBytesPerSecond", "1p"}, {"driverNetworkBytesPerSecond", "1p"}};
}

TEST_CASE("QueryExecution: 10 equal tasks on 4 slots take 3 task-lengths", "[engine]") {
  auto s = Load({{"name", "t"},
                 {"cluster", Cluster(1, 4)},
                 {"cost", UnitCost(1.0)},
                 {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", 1000}, {"tasks", 10}}}});
  for (bool adaptive : {false, true}) {
    RunResult r = SimulateQuery(*s, adaptive);
    REQUIRE(r.stages.size() == 1);
    CHECK(r.stages[0].tasks == 10);
    CHECK(r.makespan_seconds == Approx(3.0).margin(1e-9));
  }
}

TEST_CASE("QueryExecution: a map stage then a result stage, tasks placed round-robin", "[engine]") {
  auto s = Load(
      {{"name", "t"},
       {"cluster", Cluster(2, 2)},
       {"cost", UnitCost(1.0)},
       {"conf", {{"spark.sql.shuffle.partitions", 5}}},
       {"plan",
        {{"op", "exchange"},
         {"id", "e1"},
         {"child", {{"op", "scan"}, {"id", "s"}, {"bytes", 1000}, {"tasks", 4}}},
         {"sizes", {{"matrix", {{1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}}}}}}}});
  RunResult off = SimulateQuery(*s, false);
  REQUIRE(off.stages.size() == 2);
  // 4 map tasks on 4 slots: 1 s; 5 reduce tasks on 4 slots: 2 s.
  CHECK(off.stages[0].complete_seconds == Approx(1.0));
  CHECK(off.stages[1].tasks == 5);
  CHECK(off.makespan_seconds == Approx(3.0));
  // Executors 0,1,0,1 for the first four tasks (slot-major round robin).
  CHECK(off.stages[0].task_results[0].executor == 0);
  CHECK(off.stages[0].task_results[1].executor == 1);
  CHECK(off.stages[0].task_results[2].executor == 0);
  CHECK(off.stages[0].task_results[3].executor == 1);
  // AQE coalesces the 20 tiny bytes into one partition: 1 + 1 s.
  RunResult on = SimulateQuery(*s, true);
  REQUIRE(on.stages.size() == 2);
  CHECK(on.stages[1].tasks == 1);
  CHECK(on.makespan_seconds == Approx(2.0));
}

TEST_CASE("QueryExecution: two map stages share the slots FIFO by stage id", "[engine]") {
  // e1 map (6 tasks) and e2 map (2 tasks) are both runnable at 0 on 4 slots: stage 0 takes the
  // 4 slots, its last 2 tasks and stage 1's 2 tasks run at 1 s; the join runs at 2 s.
  nlohmann::json side = {{"op", "scan"}, {"bytes", 100}};
  auto s =
      Load({{"name", "t"},
            {"cluster", Cluster(1, 4)},
            {"cost", UnitCost(1.0)},
            {"conf", {{"spark.sql.shuffle.partitions", 2}, {"spark.sql.autoBroadcastJoinThreshold", -1}}},
            {"plan",
             {{"op", "join"},
              {"id", "j"},
              {"strategy", "SortMergeJoin"},
              {"joinType", "Inner"},
              {"left",
               {{"op", "exchange"},
                {"id", "e1"},
                {"child", {{"op", "scan"}, {"id", "a"}, {"bytes", 100}, {"tasks", 6}}}}},
              {"right",
               {{"op", "exchange"},
                {"id", "e2"},
                {"child", {{"op", "scan"}, {"id", "b"}, {"bytes", 100}, {"tasks", 2}}}}}}}});
  RunResult r = SimulateQuery(*s, false);
  REQUIRE(r.stages.size() == 3);
  CHECK(r.stages[0].name == "e1 map");
  CHECK(r.stages[0].complete_seconds == Approx(2.0));
  CHECK(r.stages[1].task_results[0].start_seconds == Approx(1.0));
  CHECK(r.stages[1].complete_seconds == Approx(2.0));
  CHECK(r.stages[2].submit_seconds == Approx(2.0));
  CHECK(r.makespan_seconds == Approx(3.0));
}

TEST_CASE("QueryExecution: 70/30/20/10/50 MB with a 64 MB target reads as 0, 1 to 3, 4", "[engine][aqe]") {
  const int64_t mb = 1 << 20;
  auto s = Load({{"name", "blog"},
                 {"cluster", Cluster(2, 4)},
                 {"conf",
                  {{"spark.sql.adaptive.advisoryPartitionSizeInBytes", "64m"},
                   {"spark.sql.adaptive.coalescePartitions.parallelismFirst", false},
                   {"spark.sql.shuffle.partitions", 5}}},
                 {"simulation", {{"mapStatus", "exact"}}},
                 {"plan",
                  {{"op", "aggregate"},
                   {"id", "agg"},
                   {"child",
                    {{"op", "exchange"},
                     {"id", "e1"},
                     {"child", {{"op", "scan"}, {"id", "s"}, {"bytes", 180 * mb}, {"tasks", 1}}},
                     {"sizes", {{"matrix", {{70 * mb, 30 * mb, 20 * mb, 10 * mb, 50 * mb}}}}}}}}}});
  RunResult r = SimulateQuery(*s, true);
  REQUIRE(r.reads.size() == 1);
  const auto& specs = r.reads[0].specs;
  REQUIRE(specs.size() == 3);
  CHECK(std::get<CoalescedPartitionSpec>(specs[0]) == CoalescedPartitionSpec{0, 1, 70 * mb});
  CHECK(std::get<CoalescedPartitionSpec>(specs[1]) == CoalescedPartitionSpec{1, 4, 60 * mb});
  CHECK(std::get<CoalescedPartitionSpec>(specs[2]) == CoalescedPartitionSpec{4, 5, 50 * mb});
}

TEST_CASE("QueryExecution: reportedSizeRatio scales what the driver sees, not what tasks read",
          "[engine][aqe]") {
  // Ten 10 MiB reducers, 64 MiB target (parallelismFirst off), exact MapStatus. The driver
  // sees ratio x 10 MiB per reducer: 1 -> groups of 6 (60 MiB) and 4: 2 partitions; 2 -> 20
  // MiB each, groups of 3, 3, 3, 1 (the 20 MiB tail is above 0.2 x 64 MiB, kept): 4; 0.5 ->
  // 5 MiB each, all ten in one 50 MiB group: 1. The tasks read 100 MiB whatever the ratio.
  const int64_t mb = 1 << 20;
  for (const auto& [ratio, partitions] :
       std::vector<std::pair<double, size_t>>{{1.0, 2}, {2.0, 4}, {0.5, 1}}) {
    INFO("reportedSizeRatio " << ratio);
    auto s = Load({{"name", "ratio"},
                   {"cluster", Cluster(2, 4)},
                   {"conf",
                    {{"spark.sql.adaptive.advisoryPartitionSizeInBytes", "64m"},
                     {"spark.sql.adaptive.coalescePartitions.parallelismFirst", false},
                     {"spark.sql.shuffle.partitions", 10}}},
                   {"simulation", {{"mapStatus", "exact"}}},
                   {"plan",
                    {{"op", "aggregate"},
                     {"id", "agg"},
                     {"child",
                      {{"op", "exchange"},
                       {"id", "e1"},
                       {"reportedSizeRatio", ratio},
                       {"child", {{"op", "scan"}, {"id", "s"}, {"bytes", 100 * mb}, {"tasks", 1}}},
                       {"sizes", {{"matrix", {std::vector<int64_t>(10, 10 * mb)}}}}}}}}});
    RunResult r = SimulateQuery(*s, true);
    REQUIRE(r.reads.size() == 1);
    const auto& specs = r.reads[0].specs;
    CHECK(specs.size() == partitions);
    const auto& first = std::get<CoalescedPartitionSpec>(specs[0]);
    CHECK(first.data_size_bytes ==
          static_cast<int64_t>(
              ratio * static_cast<double>(first.end_reducer_index - first.start_reducer_index) * 10 * mb));
    const StageResult& result = r.stages.back();
    int64_t read = 0;
    for (const TaskResult& t : result.task_results) read += t.shuffle_read_bytes;
    CHECK(read == 100 * mb);
  }
}

TEST_CASE("QueryExecution: reduce tasks wait for the executor holding their map output",
          "[engine][locality]") {
  // 2 executors x 1 slot, 1 s per task, AQE off. Map task 0 (executor 0) writes every byte of
  // both reducers, map 1 (executor 1) nothing: both reduce tasks prefer executor 0 (100% >=
  // 20% of each reducer) and wait for it (spark.locality.wait 3s): the result stage takes 2 s.
  // With spark.shuffle.reduceLocality.enabled=false, or a wait of 0 once the preferred slot
  // is taken, they run side by side in 1 s.
  auto scenario = [](nlohmann::json conf) {
    return Load({{"name", "locality"},
                 {"cluster", Cluster(2, 1)},
                 {"cost", UnitCost(1.0)},
                 {"conf", conf},
                 {"plan",
                  {{"op", "aggregate"},
                   {"id", "agg"},
                   {"child",
                    {{"op", "exchange"},
                     {"id", "e1"},
                     {"numPartitions", 2},
                     {"child", {{"op", "scan"}, {"id", "s"}, {"bytes", 200}, {"tasks", 2}}},
                     {"sizes", {{"matrix", {{100, 100}, {0, 0}}}}}}}}}});
  };
  auto result_stage = [](const RunResult& r) -> const StageResult& { return r.stages.back(); };
  const RunResult local = SimulateQuery(*scenario(nlohmann::json::object()), false);
  const StageResult& rs = result_stage(local);
  REQUIRE(rs.task_results.size() == 2);
  for (const TaskResult& t : rs.task_results) CHECK(t.executor == 0);
  CHECK(rs.complete_seconds - rs.submit_seconds == Approx(2.0));
  for (const nlohmann::json& conf : {nlohmann::json{{"spark.shuffle.reduceLocality.enabled", false}},
                                     nlohmann::json{{"spark.locality.wait", "0"}}}) {
    INFO(conf.dump());
    const RunResult spread = SimulateQuery(*scenario(conf), false);
    const StageResult& ss = result_stage(spread);
    CHECK(ss.complete_seconds - ss.submit_seconds == Approx(1.0));
  }
}

TEST_CASE("QueryExecution: the 600 KB side becomes a broadcast at run time", "[engine][aqe]") {
  LoadResult lr =
      LoadScenarioFile(std::string(AQESIM_SOURCE_DIR) + "/scenarios/broadcast-at-runtime.json", {});
  REQUIRE(lr.errors.empty());
  RunResult off = SimulateQuery(*lr.scenario, false);
  REQUIRE(off.joins.size() == 1);
  CHECK(off.joins[0].final_strategy == "SortMergeJoin");
  RunResult on = SimulateQuery(*lr.scenario, true);
  REQUIRE(on.joins.size() == 1);
  CHECK(on.joins[0].final_strategy == "BroadcastHashJoin");
  CHECK(on.joins[0].build_side == "BuildRight");
  bool saw = false;
  for (const Decision& d : on.decisions)
    saw |= d.rule == "JoinSelection" && d.fields.value("to", "") == "BroadcastHashJoin";
  CHECK(saw);
  CHECK(on.makespan_seconds < off.makespan_seconds);
}

TEST_CASE("QueryExecution: bytes read = bytes written + what skew splitting replicates",
          "[engine][aqe][invariant]") {
  LoadResult lr = LoadScenarioFile(std::string(AQESIM_SOURCE_DIR) + "/scenarios/skew-join.json", {});
  REQUIRE(lr.errors.empty());
  RunResult on = SimulateQuery(*lr.scenario, true);
  int64_t written = 0, read = 0;
  for (const StageResult& st : on.stages) {
    written += st.shuffle_write_bytes;
    read += st.shuffle_read_bytes;
  }
  // The right side's partitions paired with a left split are read once per split.
  int64_t replicated = 0;
  for (const ReadExplain& re : on.reads) {
    std::map<int, std::pair<int, int64_t>> per_reducer;  // reducer -> (copies, bytes of one copy)
    for (size_t i = 0; i < re.specs.size(); ++i) {
      if (auto* c = std::get_if<CoalescedPartitionSpec>(&re.specs[i])) {
        if (c->end_reducer_index - c->start_reducer_index != 1) continue;
        auto& e = per_reducer[c->start_reducer_index];
        e.first++;
        e.second = re.true_bytes[i];
      }
    }
    for (auto& [r, e] : per_reducer) replicated += static_cast<int64_t>(e.first - 1) * e.second;
  }
  CHECK(replicated > 0);
  CHECK(read == written + replicated);
  // And AQE-off reads exactly what was written.
  RunResult off = SimulateQuery(*lr.scenario, false);
  int64_t w0 = 0, r0 = 0;
  for (const StageResult& st : off.stages) {
    w0 += st.shuffle_write_bytes;
    r0 += st.shuffle_read_bytes;
  }
  CHECK(w0 == r0);
}

TEST_CASE("QueryExecution: same scenario and seed give identical results", "[engine][determinism]") {
  LoadResult lr = LoadScenarioFile(std::string(AQESIM_SOURCE_DIR) + "/scenarios/demo.json", {});
  REQUIRE(lr.errors.empty());
  for (bool adaptive : {false, true}) {
    const std::string a = RunToJson(SimulateQuery(*lr.scenario, adaptive), true).dump();
    const std::string b = RunToJson(SimulateQuery(*lr.scenario, adaptive), true).dump();
    CHECK(a == b);
  }
}

}  // namespace
}  // namespace aqesim

namespace aqesim {
namespace {

TEST_CASE("QueryExecution: a broadcast nested in a build side is broadcast first", "[engine]") {
  auto scan = [](const char* id, int tasks) {
    return nlohmann::json{{"op", "scan"}, {"id", id}, {"bytes", 1000}, {"tasks", tasks}};
  };
  auto s = Load({{"name", "t"},
                 {"cluster", Cluster(1, 4)},
                 {"cost", UnitCost(1.0)},
                 {"plan",
                  {{"op", "join"},
                   {"id", "j1"},
                   {"strategy", "BroadcastHashJoin"},
                   {"joinType", "Inner"},
                   {"buildSide", "BuildRight"},
                   {"left", scan("a", 4)},
                   {"right",
                    {{"op", "join"},
                     {"id", "j2"},
                     {"strategy", "BroadcastHashJoin"},
                     {"joinType", "Inner"},
                     {"buildSide", "BuildRight"},
                     {"left", scan("b", 2)},
                     {"right", scan("c", 1)}}}}}});
  for (bool adaptive : {false, true}) {
    RunResult r = SimulateQuery(*s, adaptive);
    REQUIRE(r.stages.size() == 3);
    CHECK(r.stages[0].name == "j2 broadcast");
    CHECK(r.stages[1].name == "j1 broadcast");
    CHECK(r.stages[2].name == "result");
    // Each stage waits for the one before: 1 s of tasks each (broadcast bytes cost ~0 here).
    CHECK(r.stages[1].submit_seconds >= r.stages[0].complete_seconds);
    CHECK(r.stages[2].submit_seconds >= r.stages[1].complete_seconds);
    CHECK(r.stages[2].tasks == 4);
  }
}

TEST_CASE("QueryExecution: broadcasts start in plan order, the streamed side's first when it is left",
          "[engine]") {
  // j1 builds right; its left (streamed) child holds j2. Spark prepares (AQE off) and creates
  // query stages for (AQE on) a node's children in order, so j2's BroadcastExchange comes
  // before j1's: both are submitted at once and j2's takes the only slot first.
  auto scan = [](const char* id, int tasks) {
    return nlohmann::json{{"op", "scan"}, {"id", id}, {"bytes", 1000}, {"tasks", tasks}};
  };
  auto s = Load({{"name", "t"},
                 {"cluster", Cluster(1, 1)},
                 {"cost", UnitCost(1.0)},
                 {"plan",
                  {{"op", "join"},
                   {"id", "j1"},
                   {"strategy", "BroadcastHashJoin"},
                   {"joinType", "Inner"},
                   {"buildSide", "BuildRight"},
                   {"left",
                    {{"op", "join"},
                     {"id", "j2"},
                     {"strategy", "BroadcastHashJoin"},
                     {"joinType", "Inner"},
                     {"buildSide", "BuildRight"},
                     {"left", scan("a", 2)},
                     {"right", scan("b", 1)}}},
                   {"right", scan("c", 1)}}}});
  for (bool adaptive : {false, true}) {
    INFO("adaptive " << adaptive);
    RunResult r = SimulateQuery(*s, adaptive);
    REQUIRE(r.stages.size() == 3);
    CHECK(r.stages[0].name == "j2 broadcast");
    CHECK(r.stages[1].name == "j1 broadcast");
    CHECK(r.stages[0].task_results.at(0).start_seconds < r.stages[1].task_results.at(0).start_seconds);
  }
}

}  // namespace
}  // namespace aqesim
