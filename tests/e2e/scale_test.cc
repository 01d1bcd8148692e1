// aqesim scale end to end: a hand-computed schedule at several executor counts, the bundled
// demo's invariants, an imported log with Sparklens' estimate, determinism across thread
// counts, and --conf spark.executor.instances against cluster.executors.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "tests/e2e/e2e_util.h"
#include "tests/support/launch_only_cost.h"
#include "tests/support/temp_dir.h"

namespace aqesim::e2e {
namespace {

using json = nlohmann::json;

/// Two map stages (tasks of 5 s and 3 s; one of 4 s) and a join task of 1 s on `executors`
/// executors of one core each, instant I/O, a task costing its launch (1 s) plus 1 s per
/// scanned byte.
json HandScenario(int executors) {
  json cluster = testing::InstantIoCluster(1);
  cluster["executors"] = executors;
  json cost = testing::LaunchOnlyCost(1.0);
  cost["scanSecondsPerByte"] = 1.0;
  json plan = {{"op", "join"},
               {"id", "j1"},
               {"strategy", "SortMergeJoin"},
               {"joinType", "Inner"},
               {"left",
                {{"op", "exchange"},
                 {"id", "e1"},
                 {"numPartitions", 1},
                 {"child", {{"op", "scan"}, {"id", "a"}, {"bytes", 6}, {"tasks", 2}, {"taskBytes", {4, 2}}}},
                 {"sizes", {{"matrix", {{1}, {1}}}}}}},
               {"right",
                {{"op", "exchange"},
                 {"id", "e2"},
                 {"numPartitions", 1},
                 {"child", {{"op", "scan"}, {"id", "b"}, {"bytes", 3}, {"tasks", 1}}},
                 {"sizes", {{"matrix", {{1}}}}}}}};
  // No broadcast: the 3-byte side stays a shuffled sort-merge join.
  return {{"name", "hand"},
          {"cluster", cluster},
          {"cost", cost},
          {"conf", {{"spark.sql.autoBroadcastJoinThreshold", -1}}},
          {"plan", plan}};
}

json ScaleJson(const std::vector<std::string>& args) {
  std::vector<std::string> a = {"scale"};
  a.insert(a.end(), args.begin(), args.end());
  a.insert(a.end(), {"--format", "json"});
  const CommandResult r = RunAqesim(a);
  INFO(r.stderr_text);
  REQUIRE(r.exit_code == 0);
  return json::parse(r.stdout_text);
}

TEST_CASE("scale: a hand-computed schedule at 1, 2, 3 and 10 executors", "[e2e][scale]") {
  testing::TempDir dir("aqesim_scale");
  const std::string path = dir.Write("hand.json", HandScenario(2).dump());
  // 50 % of 2 executors = 1 slot: every task in turn, 5 + 3 + 4 + 1 = 13 s. 100 %: e1's tasks
  // 0–5 and 0–3 s, e2's 3–7 s, the join 7–8 s. 150 % (3): the maps at once, the join 5–6 s =
  // the critical path. 500 % (10): the same 6 s on 10 cores. Core-seconds available 13, 16,
  // 18, 60; used 13 in every row; ideal at 100 % max(6, 13 / 2) = 6.5 s.
  const json j = ScaleJson({path, "--percent", "50,100,150,500"});
  const std::vector<int> executors = {1, 2, 3, 10};
  const std::vector<double> makespan = {13, 8, 6, 6}, available = {13, 16, 18, 60};
  REQUIRE(j["rows"].size() == 4);
  for (size_t i = 0; i < 4; ++i) {
    const json& row = j["rows"][i];
    INFO(row.dump());
    CHECK(row["executors"] == executors[i]);
    CHECK(row["makespanSeconds"].get<double>() == Approx(makespan[i]));
    CHECK(row["coreHours"].get<double>() == Approx(available[i] / 3600));
    CHECK(row["coreHoursUsed"].get<double>() == Approx(13.0 / 3600));
    CHECK(row["utilization"].get<double>() == Approx(13.0 / available[i]));
    CHECK(row["criticalPathSeconds"].get<double>() == Approx(6.0));
    // Modelled: the band is the run at every task × 0.79 and × 7.6.
    CHECK(row["makespanSecondsLow"].get<double>() == Approx(makespan[i] * 0.79));
    CHECK(row["makespanSecondsHigh"].get<double>() == Approx(makespan[i] * 7.6));
    CHECK(row["decisionsChanged"].empty());
    CHECK_FALSE(row.contains("sparklensSeconds"));
    // Its three stages (e1 map, e2 map, the join's result) timed by the cost model.
    CHECK(row["timeSource"] == "modelled");
    CHECK(row["stageTimes"] == json({{"profiled", 0}, {"resized", 0}, {"modelled", 3}}));
  }
  CHECK(j["baseExecutors"] == 2);
  CHECK(j["timeSource"] == "modelled");
  CHECK(j["criticalPathSeconds"].get<double>() == Approx(6.0));
  CHECK(j["idealSeconds"].get<double>() == Approx(6.5));
  // The fastest is 6 s, first reached at 3 executors: also the fewest within 5 % and 10 %.
  CHECK(j["fastest"]["executors"] == 3);
  CHECK(j["fewestExecutorsWithin5Percent"]["executors"] == 3);
  CHECK(j["fewestExecutorsWithin10Percent"]["executors"] == 3);
  // Makespan x core-seconds available: 13 x 13 = 169, 8 x 16 = 128, 6 x 18 = 108, 6 x 60 = 360.
  CHECK(j["balanced"]["executors"] == 3);

  const CommandResult table = RunAqesim({"scale", path, "--percent", "50,100,150,500"});
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.stdout_text, Catch::Contains("100 % = 2 executors × 1 core"));
  CHECK_THAT(table.stdout_text, Catch::Contains("8.000 s (6.3–61 s)  modelled      0.0044"));
  CHECK_THAT(table.stdout_text,
             Catch::Contains(
                 "critical path (infinite executors, with the task times of the 1-executor row: the least "
                 "over the rows): 6.000 s (4.7–46 s)"));
  CHECK_THAT(table.stdout_text, Catch::Contains("fewest executors within 5 %: 3 executors (150 %), 6.000 s"));
  CHECK_THAT(table.stdout_text,
             Catch::Contains("balanced (the least makespan × core-hours: time and cost weighed "
                             "alike): 3 executors (150 %), 6.000 s, 0.005 core-hours\n"));
}

TEST_CASE("scale: percentages giving the same executor count share one row naming them all", "[e2e][scale]") {
  testing::TempDir dir("aqesim_scale");
  const std::string path = dir.Write("hand.json", HandScenario(2).dump());
  // 10 %, 20 % and 50 % of 2 executors all round to 1 (max(1, round(0.2)), round(0.4), round(1.0)):
  // one row of 13 s, simulated once; 100 % is 2 executors, 8 s (the hand-computed schedule above).
  const json j = ScaleJson({path, "--percent", "10,20,50,100"});
  REQUIRE(j["rows"].size() == 2);
  CHECK(j["rows"][0]["percent"] == 10);
  CHECK(j["rows"][0]["percents"] == json::array({10, 20, 50}));
  CHECK(j["rows"][0]["executors"] == 1);
  CHECK(j["rows"][0]["makespanSeconds"].get<double>() == Approx(13));
  CHECK(j["rows"][1]["percents"] == json::array({100}));
  CHECK(j["rows"][1]["executors"] == 2);
  CHECK(j["rows"][1]["makespanSeconds"].get<double>() == Approx(8));

  const CommandResult table = RunAqesim({"scale", path, "--percent", "10,20,50,100"});
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.stdout_text, Catch::Contains("\n10, 20, 50 %          1  13.000 s (10–99 s)"));
  CHECK_THAT(table.stdout_text, Catch::Contains("\n       100 %          2  8.000 s (6.3–61 s)"));

  // The report reads the rows back and names the percentages too.
  const std::string scale_json = dir.Write("scale.json", j.dump());
  const CommandResult md = RunAqesim({"report", scale_json, "--format", "md"});
  INFO(md.stderr_text);
  REQUIRE(md.exit_code == 0);
  CHECK_THAT(md.stdout_text, Catch::Contains("| 1 | 10, 20, 50 % | 13.000 s (10–99 s) |"));
}

TEST_CASE("scale: an imported dynamic-allocation log's rows run N static executors", "[e2e][scale]") {
  // The hand scenario as an imported dynamic-allocation log has it: a recorded timeline of 2
  // executors present from the start, and spark.dynamicAllocation.enabled=true in its conf.
  // Each row's spark.executor.instances must give N static executors, not the policy (which
  // starts at N and ramps up: the 50 % row took 7 s, 100 % 6 s).
  testing::TempDir dir("aqesim_scale");
  json doc = HandScenario(2);
  doc["cluster"].erase("executors");
  doc["cluster"]["executorTimeline"] = {{{"add", 0}}, {{"add", 0}}};
  doc["conf"]["spark.dynamicAllocation.enabled"] = true;
  doc["conf"]["spark.dynamicAllocation.shuffleTracking.enabled"] = true;
  doc["conf"]["spark.dynamicAllocation.schedulerBacklogTimeout"] = "1s";
  const std::string path = dir.Write("da-log.json", doc.dump());
  // As in the hand-computed schedule: 1 executor 13 s (13 core-seconds), 2 executors 8 s (16),
  // 3 executors 6 s (18).
  const json j = ScaleJson({path, "--percent", "50,100,150"});
  const std::vector<int> executors = {1, 2, 3};
  const std::vector<double> makespan = {13, 8, 6}, available = {13, 16, 18};
  REQUIRE(j["rows"].size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    const json& row = j["rows"][i];
    INFO(row.dump());
    CHECK(row["executors"] == executors[i]);
    CHECK(row["makespanSeconds"].get<double>() == Approx(makespan[i]));
    CHECK(row["coreHours"].get<double>() == Approx(available[i] / 3600));
  }
  CHECK(j["baseExecutors"] == 2);
  CHECK(j["executorTimelineReplaced"] == true);
  CHECK(j["fewestExecutorsWithin5Percent"]["executors"] == 3);
}

TEST_CASE("scale: 100 % counts the executors of the stages' resource profile only", "[e2e][scale]") {
  // rp_sql in small: two default-profile executors and three started for profile 1 (stage-level
  // scheduling), all present at once. The stages run on the two only, so 100 % is 2 executors
  // (the hand-computed 8 s of the schedule above), not 5 (6 s).
  testing::TempDir dir("aqesim_scale");
  json doc = HandScenario(2);
  doc["cluster"]["resourceProfiles"] = {
      {{"id", 1}, {"executorCores", 2}, {"taskCpus", 2}, {"executorGpus", 2}, {"taskGpus", 2}}};
  json timeline = json::array();
  for (int profile : {1, 0, 1, 0, 1}) timeline.push_back({{"add", 0}, {"resourceProfile", profile}});
  doc["cluster"]["executorTimeline"] = timeline;
  doc["cluster"].erase("executors");
  const json j = ScaleJson({dir.Write("rp.json", doc.dump()), "--percent", "100"});
  CHECK(j["baseExecutors"] == 2);
  CHECK(j["rows"][0]["executors"] == 2);
  CHECK(j["rows"][0]["makespanSeconds"].get<double>() == Approx(8.0));
}

TEST_CASE("scale: a count both faster and cheaper than the base is named", "[e2e][scale]") {
  // Three 1-second tasks on 1-core executors, base 2: 1 executor 3 s (3 core-seconds), 2
  // executors 2 s (4 core-seconds: one idles the second second), 3 executors 1 s (3
  // core-seconds). 3 executors beat the base on both; 1 executor is cheaper but slower.
  testing::TempDir dir("aqesim_scale");
  json cluster = testing::InstantIoCluster(1);
  cluster["executors"] = 2;
  const json doc = {{"name", "waves"},
                    {"cluster", cluster},
                    {"cost", testing::LaunchOnlyCost(1.0)},
                    {"plan", {{"op", "scan"}, {"id", "a"}, {"bytes", 3}, {"tasks", 3}}}};
  const std::string path = dir.Write("waves.json", doc.dump());
  const json j = ScaleJson({path, "--percent", "50,100,150"});
  REQUIRE(j["rows"].size() == 3);
  CHECK(j["rows"][1]["makespanSeconds"].get<double>() == Approx(2.0));
  CHECK(j["rows"][1]["coreHours"].get<double>() == Approx(4.0 / 3600));
  CHECK(j["rows"][2]["coreHours"].get<double>() == Approx(3.0 / 3600));
  CHECK(j["fasterAndCheaper"] == json{{"percent", 150}, {"executors", 3}, {"makespanSeconds", 1.0}});
  const CommandResult text = RunAqesim({"scale", path, "--percent", "50,100,150"});
  CHECK(Contains(
      text.stdout_text,
      "faster and cheaper than 2 executors (2.000 s, 0.0011 core-hours): 3 executors (150 %), 1.000 s, "
      "0.00083 core-hours"));
  // No row beats the base on both: no answer.
  CHECK_FALSE(ScaleJson({path, "--percent", "50,100"}).contains("fasterAndCheaper"));
}

TEST_CASE("scale: a decision lost between rows is a change, a target moved alone is not", "[e2e][scale]") {
  // One shuffle of 6 partitions, 1, 1, 1, 4, 4, 4 MiB (15.27 MiB in all with the rows' framing),
  // coalesced at a target of total ÷ defaultParallelism (max(cores, 2); 1 MiB at least):
  //   2 executors: 7.6 MiB: [1 1 1 4] [4] [4]  → 6 → 3
  //   3 executors: 5.1 MiB: [1 1 1] [4] [4] [4] → 6 → 4  (changed)
  //   4 executors: 3.8 MiB: [1 1 1] [4] [4] [4] → 6 → 4  (only the target moved: the same)
  //  12 executors: 1.3 MiB: every partition alone → no coalescing (a decision lost: changed)
  testing::TempDir dir("aqesim_scale");
  json cluster = testing::InstantIoCluster(1);
  cluster["executors"] = 2;
  const int64_t mib = int64_t{1} << 20;
  json plan = {{"op", "aggregate"},
               {"id", "agg"},
               {"child",
                {{"op", "exchange"},
                 {"id", "e1"},
                 {"numPartitions", 6},
                 {"child", {{"op", "scan"}, {"id", "a"}, {"bytes", 1000}, {"tasks", 1}}},
                 {"sizes", {{"matrix", {{mib, mib, mib, 4 * mib, 4 * mib, 4 * mib}}}}}}}};
  const json doc = {{"name", "coalescing-moves"},
                    {"cluster", cluster},
                    {"cost", testing::LaunchOnlyCost(1.0)},
                    {"plan", plan}};
  const std::string path = dir.Write("coalescing.json", doc.dump());
  const json j = ScaleJson({path, "--percent", "100,150,200,600"});
  REQUIRE(j["rows"].size() == 4);
  const json& r = j["rows"];
  CHECK(r[1]["decisionsChanged"] ==
        json::array({"CoalesceShufflePartitions: e1: 6 → 4 partitions (target 5.1 MiB)"}));
  CHECK(r[1]["decisionsReplaced"] ==
        json::array({"CoalesceShufflePartitions: e1: 6 → 3 partitions (target 7.6 MiB)"}));
  CHECK(r[2]["decisionsChanged"].empty());
  CHECK(r[2]["decisionsReplaced"].empty());
  CHECK(r[3]["decisionsChanged"].empty());
  CHECK(
      r[3]["decisionsReplaced"] ==
      json::array(
          {"CoalesceShufflePartitions: e1: 6 → 4 partitions (target 3.8 MiB) — not taken at 12 executors"}));

  const CommandResult table = RunAqesim({"scale", path, "--percent", "100,150,200,600"});
  REQUIRE(table.exit_code == 0);
  const std::string& t = table.stdout_text;
  auto line_of = [&](const std::string& start) {
    const size_t at = t.find(start);
    REQUIRE(at != std::string::npos);
    return t.substr(at, t.find('\n', at) - at);
  };
  CHECK_THAT(line_of("  150 % "), Catch::EndsWith("1 changed"));
  CHECK_THAT(line_of("  200 % "), Catch::EndsWith("same"));
  CHECK_THAT(line_of("  600 % "), Catch::EndsWith("1 changed"));
  CHECK_THAT(t,
             Catch::Contains(
                 "AQE decided differently at 12 executors than at 4:\n"
                 "  before: CoalesceShufflePartitions: e1: 6 → 4 partitions (target 3.8 MiB) — not taken at "
                 "12 executors\n"));
  CHECK_THAT(t, !Catch::Contains("AQE decided differently at 4 executors"));
}

TEST_CASE("scale: a rise with the same AQE decisions is given with its row, size and cause", "[e2e][scale]") {
  // One map task, then 2 reduce tasks, each costing its 1 s launch, on executors of one core; a
  // fresh JVM's first task costs 10 s more (executorStartupSeconds), reduce locality and
  // coalescing off. 1 executor: map 0–11 s (fresh), reducers 11–12, 12–13 = 13 s. 2 executors:
  // map 0–11 on the first, reducers 11–12 there and 11–22 on the fresh second = 22 s: +9 s,
  // +69.2 %. Without start-up costs 3 s and 2 s: start-up is the cause. 3 executors: still 22 s.
  testing::TempDir dir("aqesim_scale");
  json cost = testing::LaunchOnlyCost(1.0);
  cost["executorStartupSeconds"] = 10;
  json plan = {{"op", "aggregate"},
               {"id", "agg"},
               {"child",
                {{"op", "exchange"},
                 {"id", "e1"},
                 {"numPartitions", 2},
                 {"child", {{"op", "scan"}, {"id", "a"}, {"bytes", 1000}, {"tasks", 1}}},
                 {"sizes", {{"matrix", {{1000, 1000}}}}}}}};
  const json doc = {{"name", "start-up-rise"},
                    {"cluster", testing::InstantIoCluster(1)},
                    {"cost", cost},
                    {"conf",
                     {{"spark.shuffle.reduceLocality.enabled", false},
                      {"spark.sql.adaptive.coalescePartitions.enabled", false}}},
                    {"plan", plan}};
  const std::string path = dir.Write("rise.json", doc.dump());
  const json j = ScaleJson({path, "--percent", "100,200,300"});
  const json& r = j["rows"];
  REQUIRE(r.size() == 3);
  CHECK(r[0]["makespanSeconds"].get<double>() == Approx(13));
  CHECK(r[1]["makespanSeconds"].get<double>() == Approx(22));
  CHECK(r[2]["makespanSeconds"].get<double>() == Approx(22));
  CHECK_FALSE(r[0].contains("riseSeconds"));
  CHECK(r[1]["riseSeconds"].get<double>() == Approx(9));
  CHECK(r[1]["riseCause"] ==
        "executor start-up: the added executors' fresh JVMs, first waves and cold code (without "
        "executorStartupSeconds, executorStageWarmupSeconds and coldCodeSlowdown it does not rise)");
  CHECK_FALSE(r[2].contains("riseSeconds"));
  CHECK_FALSE(r[2].contains("riseCause"));

  const CommandResult table = RunAqesim({"scale", path, "--percent", "100,200,300"});
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(
      table.stdout_text,
      Catch::Contains("makespan rises at 200 % (2 executors): 22.000 s, +9.000 s (+69.2 %) over 13.000 s "
                      "at 1 executor, with the same AQE decisions: not AQE but executor start-up"));
  CHECK_THAT(table.stdout_text,
             Catch::Contains("more executors are not always faster here: 1 row is slower than the row before "
                             "(above)"));
}

TEST_CASE("scale: the demo at Sparklens' percentages keeps its invariants", "[e2e][scale]") {
  const json j = ScaleJson({SourcePath("scenarios/demo.json")});
  const std::vector<int> executors = {1, 2, 5, 8, 10, 15, 20, 30, 50};  // of 10
  REQUIRE(j["rows"].size() == executors.size());
  const double critical = j["criticalPathSeconds"].get<double>();
  for (size_t i = 0; i < executors.size(); ++i) {
    const json& row = j["rows"][i];
    INFO(row.dump());
    CHECK(row["executors"] == executors[i]);
    CHECK(critical <= row["makespanSeconds"].get<double>());
    CHECK(row["idealSeconds"].get<double>() <= row["makespanSeconds"].get<double>() + 1e-9);
    CHECK(row["makespanSecondsLow"].get<double>() < row["makespanSeconds"].get<double>());
    // More executors never slow the run unless AQE decided differently there.
    if (i > 0 && row["decisionsChanged"].empty() && row["decisionsReplaced"].empty())
      CHECK(row["makespanSeconds"].get<double>() <= j["rows"][i - 1]["makespanSeconds"].get<double>() + 1e-9);
  }
}

TEST_CASE("scale: --conf spark.executor.instances=N runs as cluster.executors N", "[e2e][scale]") {
  testing::TempDir dir("aqesim_scale");
  json doc = json::parse(R"({"name": "demo"})");
  // The demo with 20 executors written into its cluster, beside the demo with --conf.
  const CommandResult demo = RunAqesim({"run", SourcePath("scenarios/demo.json"), "--format", "json",
                                        "--conf", "spark.executor.instances=20"});
  REQUIRE(demo.exit_code == 0);
  std::string text;
  {
    std::ifstream in(SourcePath("scenarios/demo.json"));
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  doc = json::parse(text);
  doc["cluster"]["executors"] = 20;
  const std::string path = dir.Write("demo20.json", doc.dump());
  const CommandResult written = RunAqesim({"run", path, "--format", "json"});
  REQUIRE(written.exit_code == 0);
  CHECK(demo.stdout_text == written.stdout_text);
  CHECK(json::parse(written.stdout_text)["runs"][1]["resources"]["cores"] == 80);
}

TEST_CASE("scale: an event log, with Sparklens' estimate, the same at any thread count", "[e2e][scale]") {
  const std::string log = SourcePath("tests/data/eventlogs/eventlog_4nodes_8cores_dynamic_alloc.zstd");
  const std::vector<std::string> args = {"scale", log, "--percent", "50,100,200", "--format", "json"};
  std::vector<std::string> one = args, two = args;
  one.insert(one.end(), {"--threads", "1"});
  two.insert(two.end(), {"--threads", "2"});
  const CommandResult a = RunAqesim(one), b = RunAqesim(two);
  INFO(a.stderr_text);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  CHECK(a.stdout_text == b.stdout_text);
  const json j = json::parse(a.stdout_text);
  REQUIRE(j["rows"].size() == 3);
  // 100 % = the most executors present at once, 6: rows of 3, 6 and 12 replace the timeline.
  CHECK(j["baseExecutors"] == 6);
  CHECK(j["rows"][1]["executors"] == 6);
  CHECK(j["executorTimelineReplaced"] == true);
  // The five SQL executions' recorded wall times, summed (validate's "recorded 54.727 s").
  CHECK(j["recordedSeconds"].get<double>() == Approx(54.727));
  for (const json& row : j["rows"]) {
    INFO(row.dump());
    REQUIRE(row["sparklensSeconds"].is_number());
    CHECK(j["criticalPathSeconds"].get<double>() <= row["makespanSeconds"].get<double>());
  }
  // Recorded task times on more executors never take longer (the same tasks, more slots).
  CHECK(j["rows"][2]["sparklensSeconds"].get<double>() <= j["rows"][0]["sparklensSeconds"].get<double>());
  // How far each row's seconds can be trusted: at 3 and 6 executors the 20 stages of the five
  // executions are timed by their recorded profiles (no band); at 12 AQE coalesces each
  // execution's e2,e3 to 50 partitions where the log ran 25 (2×): 5 profiles resized, which carry
  // the band. All profiled from the log.
  const std::vector<json> times = {json({{"profiled", 20}, {"resized", 0}, {"modelled", 0}}),
                                   json({{"profiled", 20}, {"resized", 0}, {"modelled", 0}}),
                                   json({{"profiled", 15}, {"resized", 5}, {"modelled", 0}})};
  for (size_t i = 0; i < 3; ++i) {
    const json& row = j["rows"][i];
    CHECK(row["timeSource"] == "profiled");
    CHECK(row["stageTimes"] == times[i]);
    CHECK(row.contains("makespanSecondsLow") == (i == 2));
  }
  CHECK(j["timeSource"] == "profiled");
  const CommandResult table = RunAqesim({"scale", log, "--percent", "50,100,200"});
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.stdout_text, Catch::Contains("   50 %          3            40.278 s  profiled      "));
  CHECK_THAT(table.stdout_text,
             Catch::Contains("  200 %         12  35.870 s (33–99 s)  profiled (5 resized)  "));
}

TEST_CASE("scale: a dynamic-allocation what-if on a log takes the policy's peak as 100 %", "[e2e][scale]") {
  // The log peaked at 6 executors (the imported cluster.executors). With maxExecutors 2 the policy
  // that replaces its timeline never holds more than 2, so 100 % is 2, not the recorded 6.
  const std::string log = SourcePath("tests/data/eventlogs/eventlog_4nodes_8cores_dynamic_alloc.zstd");
  const json j = ScaleJson({log, "--percent", "100", "--conf", "spark.dynamicAllocation.maxExecutors=2"});
  CHECK(j["baseExecutors"] == 2);
  CHECK(j["dynamicAllocationReplaced"] == true);
  CHECK(j["rows"][0]["executors"] == 2);
}

TEST_CASE("scale: a job that failed as recorded is named, not hidden in the rows", "[e2e][scale]") {
  // tasks_executors_fail's SQL execution 27: stage 42's task hit a FetchFailed and its job failed
  // (validate: "replayed: stopped (FetchFailed), its job failed").
  const std::string log = SourcePath("tests/data/eventlogs/tasks_executors_fail_execution27.zstd");
  const CommandResult r = RunAqesim({"scale", log, "--percent", "100"});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.stderr_text,
             Catch::Contains("aqesim: warning: the replayed job failed (FetchFailed in e1 map) as "
                             "recorded: every row replays it up to the failure, not a completed "
                             "run\n"));
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// The Vega-Lite specs of an HTML report (the page's chart-specs block).
json ChartSpecs(const std::string& html) {
  const size_t open = html.find("<script type=\"application/json\" id=\"chart-specs\">");
  REQUIRE(open != std::string::npos);
  const size_t body = html.find('>', open) + 1;
  return json::parse(html.substr(body, html.find("</script>", body) - body));
}

/// The chart of makespan against core-hours: its rows' (executors, answer).
std::vector<std::pair<int, std::string>> ChartAnswers(const json& specs) {
  std::vector<std::pair<int, std::string>> out;
  for (const auto& [id, spec] : specs.items())
    if (spec.value("title", json()) == "Makespan against core-hours, one point per executor count")
      for (const json& v : spec["data"]["values"]) out.emplace_back(v["executors"], v["answer"]);
  return out;
}

TEST_CASE("scale: report SCALE.json draws makespan against core-hours with the answers marked",
          "[e2e][scale][report]") {
  testing::TempDir dir("aqesim_scale");
  const std::string path = dir.Write("hand.json", HandScenario(2).dump());
  // Rows as the hand-computed test above: 13, 8, 6, 6 s at 1, 2, 3, 10 executors; 3 is the
  // fastest (first reached) and the fewest within 5 % and 10 %.
  const std::string scale = dir.File("scale.json");
  const CommandResult s =
      RunAqesim({"scale", path, "--percent", "50,100,150,500", "--format", "json", "-o", scale});
  INFO(s.stderr_text);
  REQUIRE(s.exit_code == 0);
  const CommandResult html = RunAqesim({"report", scale, "-o", dir.File("scale.html")});
  INFO(html.stderr_text);
  REQUIRE(html.exit_code == 0);
  const std::string page = Slurp(dir.File("scale.html"));
  CHECK_THAT(page, Catch::Contains("aqesim scale report"));
  const std::vector<std::pair<int, std::string>> answers = ChartAnswers(ChartSpecs(page));
  const std::vector<std::pair<int, std::string>> expected = {
      {1, "other executor counts"},
      {2, "other executor counts"},
      {3, "fastest · fewest within 5 % · fewest within 10 %"},
      {10, "other executor counts"}};
  CHECK(answers == expected);

  const CommandResult md = RunAqesim({"report", scale, "--format", "md"});
  REQUIRE(md.exit_code == 0);
  CHECK_THAT(md.stdout_text,
             Catch::Contains("- Fastest: 3 executors (150 %), 6.000 s (4.7–46 s). Fewest executors "
                             "within 5 % of it: 3 executors (150 %), 6.000 s (4.7–46 s); within 10 %: "
                             "3 executors (150 %), 6.000 s (4.7–46 s).\n"));
  // Rows: executors, percent, makespan with its band, core-hours (13 s of 1 core = 0.0036 h), ...
  CHECK_THAT(md.stdout_text, Catch::Contains("| 1 | 50 % | 13.000 s (10–99 s) | 0.0036 | 100.0 % |"));
  CHECK_THAT(md.stdout_text, Catch::Contains("| 10 | 500 % | 6.000 s (4.7–46 s) | 0.0167 | 21.7 % |"));

  // The answers where the 5 % and 10 % rows differ: 2 executors at 8 s are within 10 % of a
  // fastest of 7.5 s, not within 5 %.
  json doc = json::parse(Slurp(scale));
  doc["rows"][2]["makespanSeconds"] = 7.5;
  doc["rows"][2]["makespanSecondsLow"] = 7.5;
  doc["rows"][3]["makespanSeconds"] = 7.5;
  doc["rows"][3]["makespanSecondsLow"] = 7.5;
  doc["rows"][1]["makespanSeconds"] = 8.2;
  doc["fastest"]["makespanSeconds"] = 7.5;
  doc["fewestExecutorsWithin5Percent"]["makespanSeconds"] = 7.5;
  doc["fewestExecutorsWithin10Percent"] = {{"percent", 100}, {"executors", 2}, {"makespanSeconds", 8.2}};
  // Makespan x core-seconds: 13 x 13, 8.2 x 16 = 131.2, 7.5 x 18 = 135, 7.5 x 60: 2 executors.
  doc["balanced"] = {{"percent", 100}, {"executors", 2}, {"makespanSeconds", 8.2}};
  const std::string edited = dir.Write("edited.json", doc.dump());
  const CommandResult e = RunAqesim({"report", edited, "-o", dir.File("edited.html")});
  INFO(e.stderr_text);
  REQUIRE(e.exit_code == 0);
  const std::vector<std::pair<int, std::string>> edited_expected = {{1, "other executor counts"},
                                                                    {2, "fewest within 10 %"},
                                                                    {3, "fastest · fewest within 5 %"},
                                                                    {10, "other executor counts"}};
  CHECK(ChartAnswers(ChartSpecs(Slurp(dir.File("edited.html")))) == edited_expected);
}

TEST_CASE("scale: report refuses a scale result whose values or answers are not scale's",
          "[e2e][scale][report]") {
  testing::TempDir dir("aqesim_scale");
  const std::string path = dir.Write("hand.json", HandScenario(2).dump());
  const json good = ScaleJson({path, "--percent", "50,100,150,500"});
  auto refused = [&](json doc, const std::string& message) {
    const std::string file = dir.Write("forged.json", doc.dump());
    const CommandResult r = RunAqesim({"report", file, "-o", dir.File("forged.html")});
    INFO(r.stderr_text);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.stderr_text, Catch::Contains(file + ": " + message));
    CHECK_FALSE(std::ifstream(dir.File("forged.html")).good());
  };
  json doc = good;
  doc["rows"][1]["makespanSeconds"] = -8;
  refused(doc, "/rows/1/makespanSeconds: expected a number from 0 to 9.2e12");
  doc = good;
  doc["rows"][1]["makespanSeconds"] = 100;  // outside its own band
  refused(doc,
          "/rows/1/makespanSeconds: expected makespanSecondsLow <= makespanSeconds <= makespanSecondsHigh");
  doc = good;
  doc["rows"][0]["executors"] = 0;
  refused(doc, "/rows/0/executors: expected an integer from 1 to 2147483647");
  doc = good;
  doc["fastest"] = doc["rows"][0];  // names the 13 s row
  refused(doc, "/fastest: expected the row the rows give (3 executors, row 2)");
  doc = good;
  doc["rows"] = json::array();
  refused(doc, "/rows: expected an array of 1 to 10000 rows");
  // Rows of 1, 2, 3 and 10 executors: "what changed" compares neighbours, fewest executors first.
  doc = good;
  std::reverse(doc["rows"].begin(), doc["rows"].end());
  refused(doc,
          "/rows/1/executors: expected more executors than row 0's 10 (rows in increasing executor order), "
          "found 3");
  doc = good;
  doc["rows"][3]["executors"] = 9;  // 500 % of 2
  refused(doc, "/rows/3/executors: expected 10 (500 % of baseExecutors 2), found 9");
}

TEST_CASE("scale: rows come fewest executors first whatever the order of --percent", "[e2e][scale]") {
  testing::TempDir dir("aqesim_scale");
  const std::string path = dir.Write("hand.json", HandScenario(2).dump());
  const json j = ScaleJson({path, "--percent", "500,50,150"});
  REQUIRE(j["rows"].size() == 3);
  CHECK(j["rows"][0]["executors"] == 1);
  CHECK(j["rows"][0]["percent"] == 50.0);
  CHECK(j["rows"][1]["executors"] == 3);
  CHECK(j["rows"][1]["percent"] == 150.0);
  CHECK(j["rows"][2]["executors"] == 10);
  CHECK(j["rows"][2]["percent"] == 500.0);
  // The same rows as the sorted list gives.
  CHECK(j["rows"] == ScaleJson({path, "--percent", "50,150,500"})["rows"]);
}

TEST_CASE("scale: a scenario's report has scale's rows as its executor-count section",
          "[e2e][scale][report]") {
  testing::TempDir dir("aqesim_scale");
  const std::string path = dir.Write("hand.json", HandScenario(2).dump());
  const json j = ScaleJson({path});
  const CommandResult md = RunAqesim({"report", path, "--format", "md"});
  INFO(md.stderr_text);
  REQUIRE(md.exit_code == 0);
  CHECK_THAT(md.stdout_text, Catch::Contains("## How many executors?\n"));
  // One table row per scale row: Sparklens' percentages of 2 executors give 1, 1, 1, 2, 2, 3, 4,
  // 6 and 10 executors, six rows, each naming its percentages.
  REQUIRE(j["rows"].size() == 6);
  for (const std::string cells : {"| 1 | 10, 20, 50 % | ", "| 2 | 80, 100 % | ", "| 3 | 150 % | ",
                                  "| 4 | 200 % | ", "| 6 | 300 % | ", "| 10 | 500 % | "}) {
    INFO(cells);
    CHECK_THAT(md.stdout_text, Catch::Contains(cells));
  }
  CHECK_THAT(md.stdout_text, Catch::Contains("- Fastest: 3 executors (150 %), 6.000 s (4.7–46 s)."));
  const CommandResult html = RunAqesim({"report", path, "-o", dir.File("r.html")});
  REQUIRE(html.exit_code == 0);
  CHECK(ChartAnswers(ChartSpecs(Slurp(dir.File("r.html")))).size() == j["rows"].size());
}

TEST_CASE("scale: bad percentages are refused", "[e2e][scale]") {
  // Decimal percentages from 0.0001 (1 executor of the largest cluster) to 100000, nothing else:
  // "0x10" was read as 16, "" ran the defaults, "1e-320" was said to be not above 0.
  const std::string range =
      ": expected decimal percentages from 0.0001 to 100000 (such as 50 or 12.5; 0.0001 % of the largest "
      "cluster, 1000000 executors, is 1 executor), found ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"10,0", "--percent 10,0" + range + "\"0\""},
      {"0x10", "--percent 0x10" + range + "\"0x10\""},
      {"10,1e-320", "--percent 10,1e-320" + range + "\"1e-320\""},
      {"0.00009", "--percent 0.00009" + range + "\"0.00009\""},
      {"1e400", "--percent 1e400" + range + "\"1e400\""},
      {"-5", "--percent -5" + range + "\"-5\""},
      {"inf", "--percent inf" + range + "\"inf\""},
      {"10,", "--percent 10," + range + "\"\""},
      {"", "--percent \"\": expected at least one percentage, such as 50,100,200"},
      {"100, 100", "--percent 100, 100: the percentage 100 is given twice (each row once)"}};
  for (const auto& [percent, error] : cases) {
    INFO(percent);
    const CommandResult r = RunAqesim({"scale", SourcePath("scenarios/demo.json"), "--percent", percent});
    CHECK(r.exit_code == 2);
    CHECK(r.stderr_text == "aqesim: error: " + error + "\n");
    CHECK(r.stdout_text.empty());
  }
}

TEST_CASE("scale: a row above the most executors a cluster may have is --percent's error", "[e2e][scale]") {
  testing::TempDir dir("aqesim_scale");
  const std::string path = dir.Write("big.json", HandScenario(2000).dump());
  const CommandResult r = RunAqesim({"scale", path, "--percent", "1000,100000"});
  CHECK(r.exit_code == 2);
  CHECK(r.stdout_text.empty());
  CHECK(r.stderr_text ==
        "aqesim: error: --percent 1000,100000: 100000 % of 2000 executors is 2000000 executors, more than a "
        "cluster may have (1000000): give percentages up to 50000 % of 2000 executors\n");
  // The defaults' 500 % of 300,000 executors: the message says how to choose others.
  const std::string many = dir.Write("many.json", HandScenario(300000).dump());
  const CommandResult d = RunAqesim({"scale", many});
  CHECK(d.exit_code == 2);
  CHECK(d.stderr_text ==
        "aqesim: error: the default percentages: 500 % of 300000 executors is 1500000 executors, more than a "
        "cluster may have (1000000): give percentages up to 333.333 % of 300000 executors with --percent\n");
}

TEST_CASE("scale: a percentage is a decimal number, spaces around it allowed", "[e2e][scale]") {
  testing::TempDir dir("aqesim_scale");
  const std::string path = dir.Write("hand.json", HandScenario(2).dump());
  const json j = ScaleJson({path, "--percent", " 50, 1.5e2 ,0.0001"});
  REQUIRE(j["rows"].size() == 2);
  CHECK(j["rows"][0]["percents"] == json::array({50.0, 0.0001}));  // 1 executor each
  CHECK(j["rows"][1]["percents"] == json::array({150.0}));
  CHECK(j["rows"][1]["executors"] == 3);
}

TEST_CASE("scale: an aggregate storage throughput flattens the curve where it binds",
          "[e2e][scale][limits]") {
  testing::TempDir dir("aqesim_scale");
  // 100 scans of 1 GB on one-core executors reading 1 GB/s each, nothing else costing time:
  // 10 executors take 10 s. With 10 GB/s shared (cluster.storageBytesPerSecond) 20 and 40
  // executors still take 10 s (20 readers at 0.5 GB/s: 5 waves of 2 s; 40 at 0.25 GB/s: waves
  // of 4, 4 and 2 s); without it 5 s and 3 s (waves of 1 s: 40, 40, 20).
  json cluster = testing::InstantIoCluster(1);
  cluster["executors"] = 10;
  cluster["diskBytesPerSecond"] = 1'000'000'000;
  json doc = {{"name", "scans"},
              {"cluster", cluster},
              {"cost", testing::LaunchOnlyCost(0)},
              {"plan", {{"op", "scan"}, {"id", "s"}, {"bytes", 100'000'000'000LL}, {"tasks", 100}}}};
  const std::string open = dir.Write("open.json", doc.dump());
  doc["cluster"]["storageBytesPerSecond"] = "10000000000";
  const std::string limited = dir.Write("limited.json", doc.dump());
  const json a = ScaleJson({open, "--percent", "100,200,400"});
  const json b = ScaleJson({limited, "--percent", "100,200,400"});
  const std::vector<double> unlimited = {10, 5, 3}, shared = {10, 10, 10};
  for (size_t i = 0; i < 3; ++i) {
    CHECK(a["rows"][i]["makespanSeconds"].get<double>() == Approx(unlimited[i]));
    CHECK(b["rows"][i]["makespanSeconds"].get<double>() == Approx(shared[i]));
  }
  // run says which stage the limit bound and how long.
  const CommandResult r =
      RunAqesim({"run", limited, "--aqe", "off", "--conf", "spark.executor.instances=20"});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(
      r.stdout_text,
      Catch::Contains("  stage 0 (result): storage throughput (cluster.storageBytesPerSecond) bound 100 of "
                      "100 tasks from 0.000 s to 10.000 s, +100.000 task-seconds"));
}

}  // namespace
}  // namespace aqesim::e2e
