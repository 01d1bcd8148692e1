// `aqesim compare` on two runs of scenarios/skew-join.json, with and without skew-join handling:
// the makespans it prints are the runs' own, the decision only the first run took is
// OptimizeSkewedJoin's, and the refusals.
#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/e2e/e2e_util.h"
#include "tests/tools/eventlog/test_util.h"

namespace aqesim::e2e {
namespace {

TEST_CASE("compare: skew join on vs off, the runs' own makespans and the split only in A", "[e2e][compare]") {
  eventlog::testing::TempDir dir;
  const std::string scenario = SourcePath("scenarios/skew-join.json");
  const std::string a = dir.File("a.json"), b = dir.File("b.json");
  REQUIRE(RunAqesim({"run", scenario, "--format", "json", "-o", a}).exit_code == 0);
  REQUIRE(RunAqesim({"run", scenario, "--conf", "spark.sql.adaptive.skewJoin.enabled=false", "--format",
                     "json", "-o", b})
              .exit_code == 0);
  const nlohmann::json run_a = nlohmann::json::parse(eventlog::testing::ReadBytes(a));
  const nlohmann::json run_b = nlohmann::json::parse(eventlog::testing::ReadBytes(b));
  const CommandResult r = RunAqesim({"compare", a, b, "--format", "json"});
  REQUIRE(r.exit_code == 0);
  const nlohmann::json c = nlohmann::json::parse(r.stdout_text);
  REQUIRE(c["runs"].size() == 2);  // AQE off with off, on with on
  for (size_t i = 0; i < 2; ++i) {
    CHECK(c["runs"][i]["adaptive"] == run_a["runs"][i]["adaptive"]);
    CHECK(c["runs"][i]["makespanSeconds"]["a"] == run_a["runs"][i]["makespanSeconds"]);
    CHECK(c["runs"][i]["makespanSeconds"]["b"] == run_b["runs"][i]["makespanSeconds"]);
    CHECK(c["runs"][i]["band"]["a"][0] == run_a["runs"][i]["makespanSecondsLow"]);
  }
  // AQE off: the key changes nothing. AQE on: only A split the skewed partition.
  CHECK(c["runs"][0]["makespanSeconds"]["difference"] == 0.0);
  CHECK(c["runs"][0]["decisionsOnlyInA"].empty());
  const nlohmann::json& only_a = c["runs"][1]["decisionsOnlyInA"];
  REQUIRE_FALSE(only_a.empty());
  CHECK(only_a[0].get<std::string>().rfind("OptimizeSkewedJoin: ", 0) == 0);
  CHECK(c["runs"][1]["makespanSeconds"]["difference"].get<double>() > 0);  // B (no split) is slower
  // Equal makespans: no verdict. AQE on: B − A at both runs' low ends (87.21 − 34.01 = 53.20 s), at
  // the value (67.34 s) and at the high ends (838.31 − 326.54 = 511.77 s), each 3 % or more of B's:
  // A stays faster, as `run` says it of AQE off and on.
  CHECK(c["runs"][0]["verdict"].is_null());
  const nlohmann::json& verdict = c["runs"][1]["verdict"];
  CHECK(verdict["basis"] == "band");
  CHECK(verdict["faster"] == "a");
  CHECK(verdict["holds"] == true);
  CHECK(verdict["differenceSecondsLow"].get<double>() ==
        Approx(run_b["runs"][1]["makespanSecondsLow"].get<double>() -
               run_a["runs"][1]["makespanSecondsLow"].get<double>()));
  CHECK(verdict["differenceSecondsHigh"].get<double>() ==
        Approx(run_b["runs"][1]["makespanSecondsHigh"].get<double>() -
               run_a["runs"][1]["makespanSecondsHigh"].get<double>()));
  CHECK(verdict["differenceSecondsLow"].get<double>() == Approx(53.197172));
  CHECK(verdict["differenceSecondsHigh"].get<double>() == Approx(511.770269));
  const std::string across =
      "across the band (every modelled task × 0.79 to × 7.6 in both runs) A stays faster, by 53 to 520 s";
  CHECK(verdict["text"] == across);

  const CommandResult table = RunAqesim({"compare", a, b});
  REQUIRE(table.exit_code == 0);
  CHECK(table.stdout_text.rfind("A: " + a + "\nB: " + b + "\n\nAQE off: makespan A ", 0) == 0);
  CHECK(table.stdout_text.find("  only in A: OptimizeSkewedJoin: ") != std::string::npos);
  CHECK(table.stdout_text.find("B − A +67.338 s +156.5 %\n  " + across + "\n  stage ") != std::string::npos);
  CHECK(table.stderr_text.empty());  // two settings of one scenario: no warning
}

TEST_CASE(
    "compare: demo at 64m and 128m advisory size, e3's 200 → 40 is the same decision with its target moved",
    "[e2e][compare]") {
  eventlog::testing::TempDir dir;
  const std::string scenario = SourcePath("scenarios/demo.json");
  const std::string a = dir.File("a.json"), b = dir.File("b.json");
  REQUIRE(RunAqesim({"run", scenario, "--format", "json", "-o", a}).exit_code == 0);
  REQUIRE(RunAqesim({"run", scenario, "--conf", "spark.sql.adaptive.advisoryPartitionSizeInBytes=128m",
                     "--format", "json", "-o", b})
              .exit_code == 0);
  const CommandResult r = RunAqesim({"compare", a, b, "--format", "json"});
  REQUIRE(r.exit_code == 0);
  const nlohmann::json on = nlohmann::json::parse(r.stdout_text)["runs"][1];
  REQUIRE(on["adaptive"] == true);
  // The skew split and e1,e2's coalescing differ (307 → 259 against 250 → 139); e3's does not.
  CHECK(on["decisionsOnlyInA"] ==
        nlohmann::json::array({on["decisionsOnlyInA"][0],
                               "CoalesceShufflePartitions: e1,e2: 307 → 259 partitions (target 64.0 MiB)"}));
  CHECK(on["decisionsOnlyInA"][0].get<std::string>().rfind("OptimizeSkewedJoin: j1: split 8 left", 0) == 0);
  CHECK(on["decisionsOnlyInB"][1] ==
        "CoalesceShufflePartitions: e1,e2: 250 → 139 partitions (target 128.0 MiB)");
  CHECK(on["decisionsOnlyInB"].size() == 2);
  CHECK(on["decisionsInputsMoved"] ==
        nlohmann::json::array(
            {{{"a", "CoalesceShufflePartitions: e3: 200 → 40 partitions (target 54.2 MiB)"},
              {"b", "CoalesceShufflePartitions: e3: 200 → 40 partitions (target 52.8 MiB)"}}}));
  const CommandResult table = RunAqesim({"compare", a, b});
  REQUIRE(table.exit_code == 0);
  CHECK(table.stdout_text.find("only in A: CoalesceShufflePartitions: e3:") == std::string::npos);
  CHECK(table.stdout_text.find("  same outcome, inputs moved: A CoalesceShufflePartitions: e3: 200 → 40") !=
        std::string::npos);
}

TEST_CASE("compare: two profiled runs are judged against the replay error, 3 % of the slower",
          "[e2e][compare][band]") {
  // The aqeshuffle log imported, AQE on: every stage timed by its recorded profile (4.908 s, e1
  // coalesced to the log's 13 partitions). A 7 MiB advisory size coalesces e1 to 15 (resized
  // under 2×: still no band), 4.875 s: 0.033 s, 0.7 % of 4.908. A 6 MiB one to 18, 4.101 s:
  // 0.807 s, 16.4 %.
  eventlog::testing::TempDir dir;
  const std::string scenario = dir.File("aqeshuffle.json");
  REQUIRE(RunAqesim({"import-eventlog", SourcePath("tests/data/eventlogs/aqeshuffle_eventlog.zstd"), "-o",
                     scenario, "-q"})
              .exit_code == 0);
  const std::string a = dir.File("a.json"), b7 = dir.File("b7.json"), b6 = dir.File("b6.json");
  REQUIRE(RunAqesim({"run", scenario, "--aqe", "on", "--format", "json", "-o", a}).exit_code == 0);
  REQUIRE(RunAqesim({"run", scenario, "--aqe", "on", "--conf",
                     "spark.sql.adaptive.advisoryPartitionSizeInBytes=7m", "--format", "json", "-o", b7})
              .exit_code == 0);
  REQUIRE(RunAqesim({"run", scenario, "--aqe", "on", "--conf",
                     "spark.sql.adaptive.advisoryPartitionSizeInBytes=6m", "--format", "json", "-o", b6})
              .exit_code == 0);

  const nlohmann::json within =
      nlohmann::json::parse(RunAqesim({"compare", a, b7, "--format", "json"}).stdout_text);
  const nlohmann::json& v7 = within["runs"][0]["verdict"];
  CHECK(within["runs"][0]["band"]["a"].is_null());
  CHECK(within["runs"][0]["band"]["b"].is_null());
  CHECK(v7["basis"] == "replay");
  CHECK(v7["faster"] == "b");
  CHECK(v7["holds"] == false);
  CHECK(v7["differenceSecondsLow"].get<double>() == Approx(4.875498 - 4.908273));
  CHECK(v7["differenceSecondsHigh"] == v7["differenceSecondsLow"]);
  const std::string within_text =
      "both profiled from a log (no band): B is faster by 0.033 s (0.7 % of the slower makespan): within "
      "replay "
      "error (3 %)";
  CHECK(v7["text"] == within_text);
  const CommandResult table = RunAqesim({"compare", a, b7});
  REQUIRE(table.exit_code == 0);
  CHECK(Contains(table.stdout_text,
                 "AQE on: makespan A 4.908 s (profiled), B 4.875 s (profiled); B − A -0.033 s -0.7 %\n  " +
                     within_text + "\n"));

  const nlohmann::json beyond =
      nlohmann::json::parse(RunAqesim({"compare", a, b6, "--format", "json"}).stdout_text);
  const nlohmann::json& v6 = beyond["runs"][0]["verdict"];
  CHECK(v6["basis"] == "replay");
  CHECK(v6["holds"] == true);
  CHECK(
      v6["text"] ==
      "both profiled from a log (no band): B is faster by 0.807 s (16.4 % of the slower makespan), more than "
      "the replay error (3 %)");
}

TEST_CASE("compare: runs of two different scenarios warn on stderr, naming both", "[e2e][compare]") {
  eventlog::testing::TempDir dir;
  const std::string a = dir.File("a.json"), b = dir.File("b.json");
  REQUIRE(RunAqesim({"run", SourcePath("scenarios/demo.json"), "--format", "json", "-o", a}).exit_code == 0);
  REQUIRE(RunAqesim({"run", SourcePath("scenarios/skew-join.json"), "--format", "json", "-o", b}).exit_code ==
          0);
  const std::string warning = "aqesim: warning: " + a + " is a run of scenario \"demo\", " + b +
                              " of scenario \"skew-join\": the comparison pairs stages of two different jobs "
                              "by name\n";
  for (const char* format : {"table", "json"}) {
    const CommandResult r = RunAqesim({"compare", a, b, "--format", format});
    INFO(format);
    CHECK(r.exit_code == 0);
    CHECK(r.stderr_text == warning);
  }
}

TEST_CASE("compare: not a run result, or no AQE mode in common, is exit 2", "[e2e][compare]") {
  eventlog::testing::TempDir dir;
  const std::string scenario = SourcePath("scenarios/skew-join.json");
  const std::string on = dir.File("on.json"), off = dir.File("off.json");
  REQUIRE(RunAqesim({"run", scenario, "--aqe", "on", "--format", "json", "-o", on}).exit_code == 0);
  REQUIRE(RunAqesim({"run", scenario, "--aqe", "off", "--format", "json", "-o", off}).exit_code == 0);
  const CommandResult modes = RunAqesim({"compare", on, off});
  CHECK(modes.exit_code == 2);
  CHECK(modes.stderr_text ==
        "aqesim: error: " + on + ", " + off +
            ": no AQE mode in common (one holds only AQE on, the other only AQE off): run "
            "both with --aqe both, or with the same --aqe\n");
  const CommandResult not_run = RunAqesim({"compare", scenario, on});
  CHECK(not_run.exit_code == 2);
  CHECK(not_run.stderr_text ==
        "aqesim: error: " + scenario +
            ": expected the JSON of `aqesim run --format json` (an object with a non-empty "
            "\"runs\" array)\n");
}

TEST_CASE("compare: 50,000 stages matched by name in any order; a file over 32 MiB is refused, not parsed",
          "[e2e][compare]") {
  eventlog::testing::TempDir dir;
  // A runs stages s0..s49999 in order taking 1 s each, B the same names in reverse taking 2 s.
  // (Matching by a linear search per stage took 74 s at 10^5 stages: hostile round 2026-12-03.)
  constexpr int kStages = 50000;
  const auto write = [&](const std::string& file, bool reversed, int seconds) {
    nlohmann::json stages = nlohmann::json::array();
    for (int i = 0; i < kStages; ++i) {
      const int n = reversed ? kStages - 1 - i : i;
      stages.push_back({{"id", i},
                        {"name", "s" + std::to_string(n)},
                        {"kind", "ShuffleMapStage"},
                        {"timeSource", "modelled"},
                        {"tasks", 1},
                        {"submitSeconds", 0},
                        {"completeSeconds", seconds}});
    }
    std::ofstream(file)
        << nlohmann::json{{"runs", {{{"adaptive", true}, {"makespanSeconds", 1.0}, {"stages", stages}}}}}
               .dump();
  };
  const std::string a = dir.File("a.json"), b = dir.File("b.json");
  write(a, false, 1);
  write(b, true, 2);
  const CommandResult r = RunAqesim({"compare", a, b, "--format", "json"});
  REQUIRE(r.exit_code == 0);
  const nlohmann::json c = nlohmann::json::parse(r.stdout_text);
  const nlohmann::json& rows = c["runs"][0]["stages"];
  REQUIRE(rows.size() == kStages);  // every stage of A found in B: none listed as B's only
  CHECK(rows[0]["name"] == "s0");
  CHECK(rows[kStages - 1]["name"] == "s49999");
  for (const int i : {0, 12345, kStages - 1}) {
    CHECK(rows[i]["a"]["seconds"] == 1.0);
    CHECK(rows[i]["b"]["seconds"] == 2.0);
  }
  // Over the limit: refused by size before any parsing.
  const std::string big = dir.File("big.json");
  {
    std::ofstream out(big);
    out << "{\"runs\": []" << std::string((size_t{32} << 20) + 16, ' ') << "}";
  }
  const CommandResult refused = RunAqesim({"compare", big, a});
  CHECK(refused.exit_code == 2);
  CHECK(refused.stderr_text ==
        "aqesim: error: " + big +
            ": cannot read the file: larger than 33554432 bytes, the limit for this input "
            "(compare reads `run --format json` without --tasks)\n");
}

TEST_CASE("compare refuses what it would pair wrongly and prints names as a terminal can take them",
          "[e2e][compare]") {
  eventlog::testing::TempDir dir;
  const std::string run = dir.File("run.json");
  REQUIRE(
      RunAqesim({"run", SourcePath("scenarios/skew-join.json"), "--format", "json", "-o", run}).exit_code ==
      0);
  const nlohmann::json good = nlohmann::json::parse(eventlog::testing::ReadBytes(run));
  const auto forged = [&](const std::string& name, const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json doc = good;
    edit(doc);
    const std::string file = dir.File(name);
    std::ofstream(file) << doc.dump();
    return file;
  };
  // Hostile round 2026-12-03, C2-C4.
  const std::string dup = forged("dup.json", [](nlohmann::json& d) {
    d["runs"][0]["stages"][1]["name"] = d["runs"][0]["stages"][0]["name"];
  });
  CommandResult r = RunAqesim({"compare", dup, run});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find(dup + ": /runs/0/stages/1/name: stage name \"" +
                           good["runs"][0]["stages"][0]["name"].get<std::string>() +
                           "\" repeats (compare matches stages by name)") != std::string::npos);
  const std::string two = forged("two.json", [](nlohmann::json& d) { d["runs"][1] = d["runs"][0]; });
  r = RunAqesim({"compare", two, run});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find(
            ": /runs/1/adaptive: a second run with AQE off (compare pairs the runs by AQE mode)") !=
        std::string::npos);
  const std::string band = forged("band.json", [](nlohmann::json& d) {
    d["runs"][1]["makespanSecondsLow"] = -5;
    d["runs"][1]["makespanSecondsHigh"] = -7;
  });
  r = RunAqesim({"compare", band, run});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find(": /runs/1/makespanSecondsLow: expected a band around the makespan") !=
        std::string::npos);
  const std::string ctrl =
      forged("ctrl.json", [](nlohmann::json& d) { d["runs"][0]["stages"][0]["name"] = "a\x1b[31m\nb"; });
  r = RunAqesim({"compare", ctrl, run});
  REQUIRE(r.exit_code == 0);
  CHECK(r.stdout_text.find("a\\x1B[31m\\nb") != std::string::npos);
  CHECK(r.stdout_text.find('\x1b') == std::string::npos);
}

}  // namespace
}  // namespace aqesim::e2e
