// `aqesim report` end to end: what it recommends for a scenario, checked by simulation.
#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <string>

#include "tests/e2e/e2e_util.h"
#include "tests/support/temp_dir.h"
#include "tests/tools/eventlog/test_util.h"

namespace aqesim::e2e {
namespace {

// `stderr_text` without the progress lines a report prints once it has run 5 s of wall time
// (tools/report/simulation_progress.h): how long a report takes depends on the machine (a
// sanitizer build on a loaded machine passes 5 s), what else it prints does not.
std::string WithoutProgress(const std::string& stderr_text) {
  std::string out, line;
  for (size_t start = 0; start < stderr_text.size();) {
    const size_t end = std::min(stderr_text.find('\n', start), stderr_text.size());
    line = stderr_text.substr(start, end - start);
    if (line.find("report: simulated ") == std::string::npos || line.find(" so far)") == std::string::npos)
      out += line + "\n";
    start = end + 1;
  }
  return out;
}

TEST_CASE("report: a join side with a fixed partition count gets no spark.sql.shuffle.partitions",
          "[e2e][report]") {
  // Was: the report recommended spark.sql.shuffle.partitions for the larger, fixed side,
  // re-simulated with it, and died in std::terminate (exit 134) on the join's PlanError.
  const CommandResult r = RunAqesim(
      {"report", SourcePath("tests/data/scenarios/join-side-fixed-partitions.json"), "--format", "md"});
  REQUIRE(r.exit_code == 0);
  CHECK(WithoutProgress(r.stderr_text).empty());
  CHECK(Contains(r.stdout_text,
                 "**Partitions too large: the shuffle's partitions are far above the advisory size.**"));
  CHECK(Contains(r.stdout_text, "No configuration change."));
  CHECK_FALSE(Contains(r.stdout_text, "spark.sql.shuffle.partitions 640"));
  // 40 GiB / 64 MiB = 640 (a multiple of the 16 cores).
  CHECK(Contains(r.stdout_text,
                 "The partition count of e1 (200) is set by the job itself (repartition(n) or an RDD's "
                 "numPartitions), not by spark.sql.shuffle.partitions: raise it there to 640."));
  // 30 GiB / 64 MiB = 480.
  CHECK(Contains(
      r.stdout_text,
      "Not raising spark.sql.shuffle.partitions to 480 for e2: e2 is joined with e1, whose partition "
      "count the job fixes, and a shuffle join needs both sides' counts equal; change e1's count in "
      "the job together with the setting."));
}

TEST_CASE("report: a scenario with a named variant compares Spark's run and the variant's", "[e2e][report]") {
  const CommandResult r =
      RunAqesim({"report", SourcePath("scenarios/variants/intel-skew-by-row-count.json"), "--format", "md"});
  REQUIRE(r.exit_code == 0);
  CHECK(Contains(r.stdout_text, "## Named variants side by side"));
  // Both rows (every number as `run` prints it), Spark's 50 join tasks against the variant's 54.
  CHECK(Contains(r.stdout_text, "| Apache Spark (no variant) | 24.350 ("));
  CHECK(Contains(r.stdout_text, "| 70 | 0 | e1 map 10, e2 map 10, result 50 |"));
  CHECK(Contains(r.stdout_text, "| intel.skewByRowCount | 24.350 ("));
  CHECK(Contains(r.stdout_text, "| 74 | 1 | e1 map 10, e2 map 10, result 54 |"));
  CHECK(Contains(r.stdout_text, "What intel.skewByRowCount changed:"));
  CHECK(Contains(r.stdout_text,
                 "— variant intel.skewByRowCount changed this decision (Spark: no skewed partition "
                 "could be split)"));
  // Without a variant there is no such section.
  const CommandResult plain =
      RunAqesim({"report", SourcePath("scenarios/variants/intel-skew-by-row-count.json"), "--format", "md",
                 "--conf", "aqesim.variant.intel.skewByRowCount=false"});
  REQUIRE(plain.exit_code == 0);
  CHECK_FALSE(Contains(plain.stdout_text, "Named variants side by side"));
}

TEST_CASE("report: the same settings on the command line are a clean plan error", "[e2e][report]") {
  const std::string scenario = SourcePath("tests/data/scenarios/join-side-fixed-partitions.json");
  const CommandResult r =
      RunAqesim({"report", scenario, "--format", "md", "--conf", "spark.sql.shuffle.partitions=480"});
  CHECK(r.exit_code == 2);
  CHECK(r.stdout_text.empty());
  CHECK(r.stderr_text == "aqesim: error: " + scenario +
                             ": /plan: join sides have different partition counts: left 200, right 480\n");
}

TEST_CASE("report: a sweep whose simulation drops spark.sql.adaptive.enabled does not say to turn it on",
          "[e2e][report]") {
  // The recorded 72 GB job (Spark 1.6, AQE off) swept over executors and cores with AQE on: the pick
  // (75 x 2) adds spark.sql.adaptive.enabled true, but at 75 x 2 AQE off runs 78.69 s against 78.75 s
  // on, so the check by simulation drops it. Was: the headline still said "turn it on".
  const testing::TempDir dir("report_sweep_aqe");
  const std::string sweep = dir.File("sweep.json");
  const CommandResult s =
      RunAqesim({"sweep", SourcePath("scenarios/recorded/application_1472176676028_407508_1.json"), "--grid",
                 "cluster.executors=50,75", "--grid", "cluster.executorCores=2,4", "-o", sweep});
  REQUIRE(s.exit_code == 0);
  const CommandResult r = RunAqesim({"report", sweep, "--format", "md"});
  REQUIRE(r.exit_code == 0);
  CHECK(Contains(r.stdout_text, "**The fastest point of the sweep (makespan 97.72 s → 78.75 s).**\n"));
  CHECK(Contains(r.stdout_text,
                 "- Not recommending spark.sql.adaptive.enabled true: without it 78.69 s (62–600 s) against "
                 "78.75 s (62–600 s) with "
                 "it, less than a 3% gain."));
  // A swept point's seconds carry no band: the recommendation says so.
  CHECK(Contains(
      r.stdout_text,
      "- Seconds: the cost model's. A swept point's makespan is printed without its band (a sweep does "
      "not simulate it; aqesim run on the point prints it: every modelled task × 0.79 and × 7.6, "
      "README \"How far to trust the seconds\"); the points share one model, so its error moves them "
      "together.\n"));
  CHECK_FALSE(Contains(r.stdout_text, "turn it on"));
}

TEST_CASE("report: a sweep's CSV table is refused with what to give instead", "[e2e][report]") {
  eventlog::testing::TempDir dir;
  const std::string csv =
      dir.Write("sweep.csv",
                "point,spark.sql.adaptive.advisoryPartitionSizeInBytes,makespanSecondsAqeOn\n"
                "0,16m,43.816222\n");
  const CommandResult r = RunAqesim({"report", csv, "-o", dir.File("r.html")});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text ==
        "aqesim: error: " + csv +
            ": this is a sweep's CSV table, which report does not read: write the sweep as JSON "
            "(aqesim sweep ... -o SWEEP.json) and report on that\n");
}

TEST_CASE("report: every makespan says how far it can be trusted, as run prints it", "[e2e][report][band]") {
  // The summary, the headline and the checks by simulation carry the band `run` prints beside a
  // modelled makespan, or "(profiled)"; the recommendation ends saying what the seconds are.
  const testing::TempDir dir("report_band");
  const std::string modelled_note =
      "- Seconds: the cost model's; the AQE-on run's makespan is 43.04 s (34–330 s): every modelled task "
      "× 0.79 and × 7.6 (README \"How far to trust the seconds\"). Seconds shown here without a band (a "
      "swept point's, a stage's) are the same model's and as uncertain; the configurations compared share "
      "that model, so its error moves them together.\n";
  SECTION(
      "a scenario: bands as `run` prints them (AQE off 110.311586 s (87–840 s), on 43.035411 s (34–330 s))") {
    const CommandResult run = RunAqesim({"run", SourcePath("scenarios/skew-join.json")});
    REQUIRE(run.exit_code == 0);
    CHECK(Contains(run.stdout_text, "AQE off: makespan 110.312 s (87–840 s)\n"));
    CHECK(Contains(run.stdout_text, "AQE on: makespan 43.035 s (34–330 s)\n"));
    const CommandResult md = RunAqesim({"report", SourcePath("scenarios/skew-join.json"), "--format", "md"});
    REQUIRE(md.exit_code == 0);
    CHECK(Contains(
        md.stdout_text,
        "- makespan with AQE off: 110.31 s (87–840 s)\n- makespan with AQE on: 43.04 s (34–330 s)\n"));
    CHECK(Contains(md.stdout_text, modelled_note));
    // Each stage table says how far its seconds can be trusted.
    CHECK(Contains(
        md.stdout_text,
        "### AQE on\n\nSeconds: 3 stages modelled; as uncertain as the makespan, 43.04 s (34–330 s): "
        "its band is every modelled task × 0.79 and × 7.6 (README \"How far to trust the seconds\").\n\n"));
    CHECK(Contains(
        md.stdout_text,
        "### AQE off\n\nSeconds: 3 stages modelled; as uncertain as the makespan, 110.31 s (87–840 s): "
        "its band is every modelled task × 0.79 and × 7.6 (README \"How far to trust the seconds\").\n\n"));
    const CommandResult html =
        RunAqesim({"report", SourcePath("scenarios/skew-join.json"), "--format", "html"});
    REQUIRE(html.exit_code == 0);
    CHECK(Contains(html.stdout_text, "<b>110.31 s (87–840 s)</b>"));
    CHECK(Contains(html.stdout_text, "<b>43.04 s (34–330 s)</b>"));
  }
  SECTION("a `run --format json` result: the band from makespanSecondsLow / High") {
    const std::string result = dir.File("result.json");
    REQUIRE(RunAqesim(
                {"run", SourcePath("scenarios/skew-join.json"), "--format", "json", "--tasks", "-o", result})
                .exit_code == 0);
    const CommandResult md = RunAqesim({"report", result, "--format", "md"});
    REQUIRE(md.exit_code == 0);
    CHECK(Contains(
        md.stdout_text,
        "- makespan with AQE off: 110.31 s (87–840 s)\n- makespan with AQE on: 43.04 s (34–330 s)\n"));
    CHECK(Contains(md.stdout_text, modelled_note));
  }
  SECTION("an imported log: the AQE-on run is profiled, the AQE-off run modelled") {
    const std::string scenario = dir.File("customshuffle.json");
    REQUIRE(RunAqesim({"import-eventlog", eventlog::testing::Fixture("customshuffle_eventlog.zstd"), "-o",
                       scenario})
                .exit_code == 0);
    const CommandResult run = RunAqesim({"run", scenario});
    REQUIRE(run.exit_code == 0);
    CHECK(Contains(run.stdout_text, "AQE off: makespan 4.520 s (4.0–19 s)\n"));
    CHECK(Contains(run.stdout_text, "AQE on: makespan 5.947 s (profiled)\n"));
    const CommandResult md = RunAqesim({"report", scenario, "--format", "md"});
    REQUIRE(md.exit_code == 0);
    CHECK(
        Contains(md.stdout_text,
                 "- makespan with AQE off: 4.52 s (4.0–19 s)\n- makespan with AQE on: 5.95 s (profiled)\n"));
    CHECK(Contains(md.stdout_text, "**AQE on is slower than off (4.52 s (4.0–19 s) → 5.95 s (profiled)): "));
    CHECK(Contains(
        md.stdout_text,
        "- Seconds: the AQE-on run's makespan, 5.95 s, is profiled from the log (every stage timed by "
        "its recorded task times: no band); a makespan printed with a band is the cost model's (every "
        "modelled task × 0.79 and × 7.6, README \"How far to trust the seconds\").\n"));
    CHECK(Contains(md.stdout_text,
                   "### AQE on\n\nSeconds: profiled from the log: every stage is timed by its recorded task "
                   "times.\n\n"));
    // AQE off reads 200 partitions where the log's join read 13: that stage's profile is resized.
    CHECK(Contains(
        md.stdout_text,
        "### AQE off\n\nSeconds: 3 stages profiled from the log, 1 resized from a profile (recorded "
        "tasks extrapolated to another task count); as uncertain as the makespan, 4.52 s (4.0–19 s): "
        "its band is every modelled task × 0.79 and × 7.6 (README \"How far to trust the seconds\").\n\n"));
  }
}

TEST_CASE("report: a hand-edited run result of the wrong types is refused at its pointer, nothing written",
          "[e2e][report]") {
  testing::TempDir dir("aqesim_report_run");
  const CommandResult run = RunAqesim({"run", SourcePath("scenarios/demo.json"), "--format", "json"});
  REQUIRE(run.exit_code == 0);
  nlohmann::json good = nlohmann::json::parse(run.stdout_text);
  good["explain"] = Explain("scenarios/demo.json");
  // demo's one JoinSelection why-not: the side above the broadcast threshold.
  size_t entry = 0;
  while (entry < good["explain"]["notApplied"].size() &&
         good["explain"]["notApplied"][entry]["reason"] != "aboveBroadcastThreshold")
    ++entry;
  REQUIRE(entry < good["explain"]["notApplied"].size());
  const std::string numbers = "/explain/notApplied/" + std::to_string(entry) + "/numbers/";
  auto refused = [&](const std::function<void(nlohmann::json&)>& edit, const std::string& message) {
    nlohmann::json doc = good;
    edit(doc);
    const std::string file = dir.Write("forged.json", doc.dump());
    const std::string out = dir.File("forged.md");
    const CommandResult r = RunAqesim({"report", file, "--format", "md", "-o", out});
    INFO(r.stderr_text);
    CHECK(r.exit_code == 2);
    CHECK(Contains(r.stderr_text, "aqesim: error: " + file + ": " + message + "\n"));
    CHECK_FALSE(Contains(r.stderr_text, "internal error"));
    CHECK_FALSE(std::ifstream(out).good());
  };
  refused(
      [](nlohmann::json& d) {
        d["cluster"] = {{"executors", "ten"}};
      },
      "/cluster/executors: expected a positive integer, found \"ten\"");
  refused(
      [](nlohmann::json& d) {
        d["cluster"] = {{"executors", 1e300}};
      },
      "/cluster/executors: expected a positive integer, found 1e+300");
  refused(
      [](nlohmann::json& d) {
        d["cluster"] = {{"executorCores", nullptr}};
      },
      "/cluster/executorCores: expected a positive integer, found null");
  auto number = [&](const char* key, nlohmann::json value) {
    return
        [entry, key, value](nlohmann::json& d) { d["explain"]["notApplied"][entry]["numbers"][key] = value; };
  };
  refused(number("bytes", "x"), numbers + "bytes: expected an integer, found \"x\"");
  refused(number("bytes", 1e300), numbers + "bytes: expected an integer, found 1e+300");
  refused(number("runtime", "yes"), numbers + "runtime: expected true or false, found \"yes\"");
  refused(number("thresholdBytes", nlohmann::json::array({1})),
          numbers + "thresholdBytes: expected an integer, found [1]");
  refused(number("thresholdBytes", nullptr), numbers + "thresholdBytes: expected an integer, found null");
  // The band must hold the makespan, as compare and scale's reader require.
  refused(
      [](nlohmann::json& d) {
        d["runs"][0]["makespanSecondsLow"] = 1e300;
        d["runs"][0]["makespanSecondsHigh"] = -5;
      },
      "/runs/0/makespanSecondsLow: expected a band around the makespan (0 <= low <= makespanSeconds <= high "
      "<= 9.2e12)");
  // The unedited document reports.
  const std::string file = dir.Write("good.json", good.dump());
  const CommandResult ok = RunAqesim({"report", file, "--format", "md"});
  INFO(ok.stderr_text);
  CHECK(ok.exit_code == 0);
}

}  // namespace
}  // namespace aqesim::e2e
