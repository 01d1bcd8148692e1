// End to end: `aqesim validate` / `aqesim calibrate` on the small fixtures.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/e2e/e2e_util.h"
#include "tests/support/temp_dir.h"

namespace aqesim::e2e {
namespace {

TEST_CASE("aqesim validate --format json (the user contract's shape)", "[e2e][validate]") {
  const CommandResult r = RunAqesim(
      {"validate", SourcePath("tests/data/eventlogs/aqeshuffle_eventlog.zstd"), "--format", "json", "-q"});
  REQUIRE(r.exit_code == 0);
  const nlohmann::json v = nlohmann::json::parse(r.stdout_text);
  CHECK(v["log"] == "aqeshuffle_eventlog.zstd");
  CHECK(v["sparkVersion"] == "3.2.1");
  CHECK(v["makespan"]["recordedSeconds"].get<double>() == Approx(4.885));
  CHECK(v["makespan"].contains("simulatedSeconds"));
  CHECK(v["makespan"].contains("relativeError"));
  REQUIRE(v["stages"].size() == 4);
  CHECK(v["stages"][0]["stageId"] == 0);
  CHECK(v["stages"][0]["recordedSeconds"].get<double>() == Approx(1.638));
  int coalesced = 0;
  for (const auto& d : v["decisions"]) {
    if (d["kind"] == "AQEShuffleRead") {
      CHECK(d["recordedPartitions"] == 13);
      CHECK(d["simulatedPartitions"] == 13);
      CHECK(d["match"] == true);
      ++coalesced;
    } else {
      CHECK(d["kind"] == "JoinStrategy");
      CHECK(d["recorded"] == "SortMergeJoin");
      CHECK(d["simulated"] == "SortMergeJoin");
    }
  }
  CHECK(coalesced == 2);
}

TEST_CASE("aqesim validate --profile-from: another run's profiles, stages matched by plan shape",
          "[e2e][validate]") {
  // customshuffle and aqeshuffle ran the same query (count of a sort-merge join, AQE on, 13
  // coalesced reducers); their stage ids are alike, so every stage finds its partner.
  const CommandResult r =
      RunAqesim({"validate", SourcePath("tests/data/eventlogs/customshuffle_eventlog.zstd"), "--profile-from",
                 SourcePath("tests/data/eventlogs/aqeshuffle_eventlog.zstd"), "--format", "json", "-q"});
  REQUIRE(r.exit_code == 0);
  const nlohmann::json v = nlohmann::json::parse(r.stdout_text);
  CHECK(v["profileFrom"] == "aqeshuffle_eventlog.zstd");
  CHECK(v["makespan"]["recordedSeconds"].get<double>() == Approx(5.908));
  REQUIRE(v["stages"].size() == 4);
  for (const auto& s : v["stages"]) {
    CHECK(s["timeSource"] == "profiled");
    CHECK(s["profileFrom"].get<std::string>().rfind(
              "SQL execution 0: " + s["simulatedStage"].get<std::string>(), 0) == 0);
  }
  CHECK(v["stages"][2]["profileFrom"] == "SQL execution 0: e1 map (stage 4)");
  const CommandResult table =
      RunAqesim({"validate", SourcePath("tests/data/eventlogs/customshuffle_eventlog.zstd"), "--profile-from",
                 SourcePath("tests/data/eventlogs/aqeshuffle_eventlog.zstd"), "-q"});
  REQUIRE(table.exit_code == 0);
  CHECK(table.stdout_text.find("stages timed with the profiles of aqeshuffle_eventlog.zstd") !=
        std::string::npos);
  CHECK(table.stdout_text.find("profile from") != std::string::npos);
  const CommandResult missing =
      RunAqesim({"validate", SourcePath("tests/data/eventlogs/customshuffle_eventlog.zstd"), "--profile-from",
                 "/nonexistent.log"});
  CHECK(missing.exit_code == 2);
}

TEST_CASE("aqesim calibrate writes a cost file validate accepts", "[e2e][validate][calibrate]") {
  const std::string cost =
      (std::filesystem::temp_directory_path() / "aqesim_e2e_validate_cost.json").string();
  const std::string log = SourcePath("tests/data/eventlogs/customshuffle_eventlog.zstd");
  const CommandResult c = RunAqesim({"calibrate", log, "-o", cost, "-q"});
  REQUIRE(c.exit_code == 0);
  CHECK(c.stdout_text.find("R²") != std::string::npos);
  const CommandResult v = RunAqesim({"validate", log, "--format", "json", "--cost", cost, "-q"});
  REQUIRE(v.exit_code == 0);
  const nlohmann::json doc = nlohmann::json::parse(v.stdout_text);
  CHECK(doc["summary"]["medianAbsStageError"].get<double>() <= 0.15);
  CHECK(std::abs(doc["makespan"]["relativeError"].get<double>()) <= 0.10);
  std::filesystem::remove(cost);
}

TEST_CASE("aqesim validate / calibrate: bad input exits 2", "[e2e][validate]") {
  const CommandResult missing = RunAqesim({"validate", "/nonexistent/log.zstd"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.stderr_text.rfind("aqesim: error: ", 0) == 0);
  const testing::TempDir dir("aqesim_validate_e2e");
  const std::string out = dir.File("cost.json");
  const CommandResult held_out = RunAqesim({"calibrate", "/somewhere/nds_q72_dataproc_2_2.zstd", "-o", out});
  CHECK(held_out.exit_code == 2);
  CHECK(held_out.stderr_text ==
        "aqesim: error: /somewhere/nds_q72_dataproc_2_2.zstd: held out for validation (never fitted); use "
        "--allow-held-out to override\n");
  CHECK(!std::filesystem::exists(out));
}

}  // namespace
}  // namespace aqesim::e2e

namespace aqesim::e2e {
namespace {

TEST_CASE("an imported final stage rooted at a sort over a shuffle is coalesced, not read locally",
          "[e2e][import]") {
  // pandas_execs execution 3 ran with AQE off (Spark 3.1.1's default); with AQE on, Spark hands
  // the final stage's plan (FlatMapGroupsInPandas > Sort > shuffle read) to
  // OptimizeShuffleWithLocalRead, which leaves it alone: the plan is not the shuffle itself.
  const testing::TempDir dir("aqesim_import_root_sort");
  const std::string scenario = dir.File("exec3.json");
  REQUIRE(RunAqesim({"import-eventlog", SourcePath("tests/data/eventlogs/pandas_execs_eventlog.zstd"),
                     "--execution", "3", "-o", scenario, "-q"})
              .exit_code == 0);
  const CommandResult r = RunAqesim({"explain", scenario, "--conf", "spark.sql.adaptive.enabled=true"});
  REQUIRE(r.exit_code == 0);
  const nlohmann::json explain = nlohmann::json::parse(r.stdout_text);
  CHECK(DecisionsOf(explain, "OptimizeShuffleWithLocalRead").empty());
  CHECK(DecisionsOf(explain, "CoalesceShufflePartitions").size() == 1);
}

TEST_CASE("an imported scenario's exchanges follow --conf spark.sql.shuffle.partitions", "[e2e][import]") {
  // join_agg_on_yarn's exchange ran "hashpartitioning(col1#1, 1000), ENSURE_REQUIREMENTS" while
  // its Spark Properties set no spark.sql.shuffle.partitions (default 200): the session set 1000.
  // The scenario's conf carries 1000 and the exchange is not pinned, so another count is a
  // what-if; its 30 x 1000 recorded sizes fold onto 200 reducers (r mod 200, as hash
  // partitioning does) with a warning.
  const testing::TempDir dir("aqesim_import_partitions");
  const std::string scenario = dir.File("join_agg.json");
  REQUIRE(RunAqesim({"import-eventlog", SourcePath("tests/data/eventlogs/join_agg_on_yarn_eventlog.zstd"),
                     "-o", scenario, "-q"})
              .exit_code == 0);
  std::ifstream in(scenario);
  const nlohmann::json doc = nlohmann::json::parse(in);
  CHECK(doc["conf"]["spark.sql.shuffle.partitions"] == "1000");
  const nlohmann::json& exchange = doc["plan"]["left"]["child"];
  REQUIRE(exchange["id"] == "e1");
  CHECK_FALSE(exchange.contains("numPartitions"));
  auto result_tasks = [](const CommandResult& r) {
    REQUIRE(r.exit_code == 0);
    const nlohmann::json j = nlohmann::json::parse(r.stdout_text);
    for (const auto& st : j["runs"][0]["stages"])
      if (st["name"] == "result") return st["tasks"].get<int>();
    return -1;
  };
  const CommandResult recorded = RunAqesim({"run", scenario, "--aqe", "off", "--format", "json"});
  CHECK(result_tasks(recorded) == 1000);
  CHECK(recorded.stderr_text.find("redistributed") == std::string::npos);
  const CommandResult fewer = RunAqesim(
      {"run", scenario, "--aqe", "off", "--format", "json", "--conf", "spark.sql.shuffle.partitions=200"});
  CHECK(result_tasks(fewer) == 200);
  CHECK(fewer.stderr_text.find(
            "/plan/left/child/sizes: the matrix has 1000 reducers but the configuration asks "
            "for 200; sizes redistributed as hash partitioning folds them (recorded reducer "
            "r goes to r mod 200)") != std::string::npos);
}

}  // namespace
}  // namespace aqesim::e2e
