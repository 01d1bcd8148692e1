// End to end: `--cost COST.json` on run / explain / sweep / report / import-eventlog, and
// calibrate's warnings when its fit replays worse than the cost it started from.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/e2e/e2e_util.h"
#include "tests/support/temp_dir.h"

namespace aqesim::e2e {
namespace {

nlohmann::json ReadJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

TEST_CASE(
    "run and explain with a cost file are the scenario with those cost parameters, winning over its own",
    "[e2e][cost]") {
  const testing::TempDir dir("aqesim_cost_option");
  nlohmann::json demo = ReadJson(SourcePath("scenarios/demo.json"));
  demo["cost"]["taskLaunchSeconds"] = 0.5;  // the scenario's own value, which --cost must beat
  const std::string scenario = dir.Write("demo.json", demo.dump());
  const std::string cost = dir.Write("cost.json", R"({"taskLaunchSeconds": 2.0, "replanSeconds": 0.3})");
  nlohmann::json expected_doc = demo;
  expected_doc["cost"]["taskLaunchSeconds"] = 2.0;
  expected_doc["cost"]["replanSeconds"] = 0.3;
  const std::string expected = dir.Write("expected.json", expected_doc.dump());

  const CommandResult with = RunAqesim({"run", scenario, "--cost", cost, "--format", "json"});
  const CommandResult same = RunAqesim({"run", expected, "--format", "json"});
  const CommandResult without = RunAqesim({"run", scenario, "--format", "json"});
  REQUIRE(with.exit_code == 0);
  REQUIRE(same.exit_code == 0);
  REQUIRE(without.exit_code == 0);
  nlohmann::json a = nlohmann::json::parse(with.stdout_text);
  nlohmann::json b = nlohmann::json::parse(same.stdout_text);
  a.erase("scenario");  // the file names differ; everything simulated must not
  b.erase("scenario");
  CHECK(a == b);
  CHECK(with.stdout_text != without.stdout_text);  // 2 s per task launch is not 0.5 s

  const CommandResult explain = RunAqesim({"explain", scenario, "--cost", cost});
  const CommandResult explain_same = RunAqesim({"explain", expected});
  REQUIRE(explain.exit_code == 0);
  nlohmann::json ea = nlohmann::json::parse(explain.stdout_text),
                 eb = nlohmann::json::parse(explain_same.stdout_text);
  ea.erase("scenario");
  eb.erase("scenario");
  CHECK(ea == eb);

  // sweep: the same makespans as the scenario with those parameters, point by point.
  const std::string sweep_with = dir.File("with.csv"), sweep_same = dir.File("same.csv");
  REQUIRE(RunAqesim({"sweep", scenario, "--cost", cost, "--grid", "spark.sql.shuffle.partitions=100,200",
                     "-o", sweep_with})
              .exit_code == 0);
  REQUIRE(RunAqesim({"sweep", expected, "--grid", "spark.sql.shuffle.partitions=100,200", "-o", sweep_same})
              .exit_code == 0);
  std::ifstream a_csv(sweep_with), b_csv(sweep_same);
  CHECK(std::string(std::istreambuf_iterator<char>(a_csv), {}) ==
        std::string(std::istreambuf_iterator<char>(b_csv), {}));

  const std::string report = dir.File("report.md");
  CHECK(RunAqesim({"report", scenario, "--cost", cost, "-o", report}).exit_code == 0);
}

TEST_CASE("a bad cost file on the command line is exit 2 naming the file and the parameter", "[e2e][cost]") {
  const testing::TempDir dir("aqesim_cost_option_bad");
  const std::string bad = dir.Write("bad.json", R"({"taskLaunchSeconds": -1})");
  const CommandResult r = RunAqesim({"run", SourcePath("scenarios/demo.json"), "--cost", bad});
  CHECK(r.exit_code == 2);
  CHECK(r.stderr_text.find(bad + ": /taskLaunchSeconds: ") != std::string::npos);
  const CommandResult missing =
      RunAqesim({"explain", SourcePath("scenarios/demo.json"), "--cost", dir.File("no.json")});
  CHECK(missing.exit_code == 2);
  CHECK(missing.stderr_text.find(dir.File("no.json") + ": cannot read the cost file") != std::string::npos);
  // Writing the output onto the cost file is refused, and the file is left as it was.
  const CommandResult onto = RunAqesim({"run", SourcePath("scenarios/demo.json"), "--cost", bad, "-o", bad});
  CHECK(onto.exit_code == 2);
  std::ifstream in(bad);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == R"({"taskLaunchSeconds": -1})");
  // A run result is not a scenario: --cost has nothing to apply to.
  const std::string result = dir.File("result.json");
  REQUIRE(RunAqesim({"run", SourcePath("scenarios/demo.json"), "--format", "json", "--tasks", "-o", result})
              .exit_code == 0);
  const std::string good = dir.Write("good.json", R"({"taskLaunchSeconds": 1})");
  const CommandResult report = RunAqesim({"report", result, "--cost", good});
  CHECK(report.exit_code == 2);
  CHECK(report.stderr_text.find("apply to a scenario input") != std::string::npos);
}

TEST_CASE("import-eventlog --cost writes the cost file's parameters into the scenario", "[e2e][cost]") {
  const testing::TempDir dir("aqesim_cost_import");
  const std::string cost = dir.Write("cost.json", R"({"cost": {"taskLaunchSeconds": 0.25}})");
  const std::string out = dir.File("imported.json");
  const CommandResult r =
      RunAqesim({"import-eventlog", SourcePath("tests/data/eventlogs/aqeshuffle_eventlog.zstd"), "-o", out,
                 "--cost", cost, "-q"});
  REQUIRE(r.exit_code == 0);
  CHECK(ReadJson(out)["cost"]["taskLaunchSeconds"] == 0.25);
}

TEST_CASE("calibrate warns for every log its fit replays worse, and only for those", "[e2e][calibrate]") {
  // Fitted on all five fixtures, one parameter set cannot serve them all: some logs' replays
  // get worse than with the defaults. Each such log must be named in a warning on stderr.
  const testing::TempDir dir("aqesim_calibrate_worse");
  std::vector<std::string> args = {"calibrate"};
  for (const char* log : {"aqeshuffle_eventlog.zstd", "customshuffle_eventlog.zstd",
                          "eventlog_4nodes_8cores_dynamic_alloc.zstd", "join_agg_on_yarn_eventlog.zstd",
                          "application_1472176676028_407508_1.gz"})
    args.push_back(SourcePath(std::string("tests/data/eventlogs/") + log));
  args.insert(args.end(), {"-o", dir.File("cost.json"), "-q"});
  const CommandResult r = RunAqesim(args);
  REQUIRE(r.exit_code == 0);
  // "  LOG: 63.3%, -74.8% → 79.9%, +9.4%, 3/3"
  const std::regex line(R"(  (\S+): ([0-9.]+)%, ([-+][0-9.]+)% → ([0-9.]+)%, ([-+][0-9.]+)%, )");
  std::istringstream out(r.stdout_text);
  int logs = 0, worse = 0;
  for (std::string l; std::getline(out, l);) {
    std::smatch m;
    if (!std::regex_search(l, m, line)) continue;
    ++logs;
    const double stage_before = std::stod(m[2]), stage_after = std::stod(m[4]);
    const double span_before = std::abs(std::stod(m[3])), span_after = std::abs(std::stod(m[5]));
    const bool got_worse = stage_after > stage_before || span_after > span_before;
    worse += got_worse;
    if (!got_worse && (stage_after == stage_before || span_after == span_before)) continue;  // equal at 0.1 %
    const bool warned =
        r.stderr_text.find("calibrate: " + m[1].str() + " replays worse") != std::string::npos;
    CHECK(warned == got_worse);
  }
  CHECK(logs == 5);
  CHECK(worse >= 1);
}

TEST_CASE("validate with a cost file says how many stages its profiles time instead", "[e2e][cost]") {
  const testing::TempDir dir("aqesim_cost_validate");
  const std::string cost = dir.Write("cost.json", R"({"taskLaunchSeconds": 0.5})");
  const std::string log = SourcePath("tests/data/eventlogs/aqeshuffle_eventlog.zstd");
  const CommandResult profiled = RunAqesim({"validate", log, "--cost", cost, "-q"});
  REQUIRE(profiled.exit_code == 0);
  // aqeshuffle's four stages all carry recorded profiles (results/validation.md: 4/4 profiled).
  CHECK(profiled.stderr_text.find("--cost times only the stages without a recorded profile: 4 of 4 stages") !=
        std::string::npos);
  const CommandResult alone = RunAqesim({"validate", log, "--cost", cost, "--no-profile", "-q"});
  REQUIRE(alone.exit_code == 0);
  CHECK(alone.stderr_text.find("--cost times only") == std::string::npos);
}

}  // namespace
}  // namespace aqesim::e2e
