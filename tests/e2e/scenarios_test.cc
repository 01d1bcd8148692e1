// Every bundled scenario runs end to end, in table and JSON form; bad input exits 2 and
// writes nothing.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> BundledScenarios() {
  std::vector<std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(SourcePath("scenarios"))) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    const std::string rel = fs::relative(entry.path(), SourcePath("")).string();
    if (rel.find("/data/") != std::string::npos) continue;
    // Sweep definitions and the held-out / large recorded jobs run in their own tests.
    if (rel.rfind("scenarios/sweeps/", 0) == 0) continue;
    out.push_back(rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST_CASE("e2e: every scenario in scenarios/ runs, as a table and as JSON", "[e2e][scenarios]") {
  const std::vector<std::string> scenarios = BundledScenarios();
  REQUIRE(scenarios.size() >= 5);
  for (const std::string& s : scenarios) {
    DYNAMIC_SECTION(s) {
      const CommandResult table = RunAqesim({"run", SourcePath(s)});
      INFO(table.stderr_text);
      REQUIRE(table.exit_code == 0);
      CHECK(table.stdout_text.find("AQE off: makespan") != std::string::npos);
      CHECK(table.stdout_text.find("AQE on: makespan") != std::string::npos);

      const CommandResult js = RunAqesim({"run", SourcePath(s), "--format", "json"});
      REQUIRE(js.exit_code == 0);
      const nlohmann::json j = nlohmann::json::parse(js.stdout_text);
      REQUIRE(j["runs"].size() == 2);
      for (const auto& run : j["runs"]) {
        CHECK(run["makespanSeconds"].get<double>() > 0);
        REQUIRE(!run["stages"].empty());
        double last_complete = 0;
        for (const auto& st : run["stages"]) {
          CHECK(st["completeSeconds"].get<double>() >= st["submitSeconds"].get<double>());
          last_complete = std::max(last_complete, st["completeSeconds"].get<double>());
        }
        CHECK(run["makespanSeconds"].get<double>() == Approx(last_complete));
      }
      CHECK(j["runs"][0]["adaptive"] == false);
      CHECK(j["runs"][1]["adaptive"] == true);
    }
  }
}

TEST_CASE("e2e: a warning about the input is printed once, though --aqe both simulates twice", "[e2e]") {
  // skew-join's left matrix has 100 reducers; asking for 400 resamples it, with a warning.
  const CommandResult r = RunAqesim({"run", SourcePath("scenarios/skew-join.json"), "--aqe", "both", "--conf",
                                     "spark.sql.shuffle.partitions=400"});
  REQUIRE(r.exit_code == 0);
  size_t count = 0;
  for (size_t at = r.stderr_text.find("resampled assuming keys spread evenly"); at != std::string::npos;
       at = r.stderr_text.find("resampled assuming keys spread evenly", at + 1))
    ++count;
  CHECK(count == 1);  // the one recorded matrix (the right side is generated), not once per run
}

TEST_CASE("e2e: warnings are printed also when the input has errors", "[e2e]") {
  // A misspelled key beside a bad value: the user fixes both in one round.
  const CommandResult r =
      RunAqesim({"run", SourcePath("scenarios/demo.json"), "--conf", "spark.sql.shuffle.partition=300",
                 "--conf", "spark.sql.shuffle.partitions=-1"});
  CHECK(r.exit_code == 2);
  CHECK(r.stdout_text.empty());
  CHECK(
      r.stderr_text ==
      "aqesim: warning: --conf spark.sql.shuffle.partition=300: unused configuration key "
      "'spark.sql.shuffle.partition'; did you mean 'spark.sql.shuffle.partitions'?\n"
      "aqesim: error: --conf spark.sql.shuffle.partitions=-1: expected an integer > 0 (the number of shuffle "
      "partitions must be positive), found \"-1\"\n");
}

TEST_CASE("e2e: --version names the program's version and the Spark version it models", "[e2e]") {
  const CommandResult r = RunAqesim({"--version"});
  CHECK(r.exit_code == 0);
  CHECK(r.stdout_text.rfind("aqesim 0.1.0\nmodels Apache Spark 4.0's Adaptive Query Execution", 0) == 0);
}

TEST_CASE("e2e: -o writes the output file and a failing command leaves no file", "[e2e]") {
  const fs::path dir = fs::temp_directory_path() / "aqesim-e2e-output";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string out = (dir / "run.json").string();

  SECTION("success writes exactly the JSON") {
    const CommandResult r =
        RunAqesim({"run", SourcePath("scenarios/coalesce-aqe-blog.json"), "--format", "json", "-o", out});
    REQUIRE(r.exit_code == 0);
    CHECK(r.stdout_text.empty());
    std::ifstream in(out);
    const nlohmann::json j = nlohmann::json::parse(in);
    CHECK(j["scenario"] == "coalesce-aqe-blog");
  }
  SECTION("bad input: exit 2, error names the file, no output, no temporary left behind") {
    const std::string bad = (dir / "bad.json").string();
    std::ofstream(bad) << R"({"name": "x", "cluster": {"executors": 0, "executorCores": 4},
                              "plan": {"op": "scan", "bytes": 10}})";
    const CommandResult r = RunAqesim({"run", bad, "-o", out});
    CHECK(r.exit_code == 2);
    CHECK(r.stderr_text.find("aqesim: error: " + bad + ": /cluster/executors: ") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
    int files = 0;
    for (const auto& e : fs::directory_iterator(dir)) files += e.path().filename() != "bad.json";
    CHECK(files == 0);
  }
  SECTION("a missing scenario file: exit 2") {
    const CommandResult r = RunAqesim({"run", (dir / "nope.json").string(), "-o", out});
    CHECK(r.exit_code == 2);
    CHECK_FALSE(fs::exists(out));
  }
  SECTION("a failing run keeps the previous output intact") {
    std::ofstream(out) << "previous";
    const CommandResult r = RunAqesim({"run", (dir / "nope.json").string(), "-o", out});
    CHECK(r.exit_code == 2);
    std::ifstream in(out);
    std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(content == "previous");
  }
  SECTION("usage errors exit 2") {
    CHECK(RunAqesim({"run"}).exit_code == 2);
    CHECK(RunAqesim({"frobnicate"}).exit_code == 2);
    CHECK(RunAqesim({"run", SourcePath("scenarios/demo.json"), "--aqe", "maybe"}).exit_code == 2);
    CHECK(RunAqesim({"run", SourcePath("scenarios/demo.json"), "--conf", "novalue"}).exit_code == 2);
  }
  fs::remove_all(dir);
}

TEST_CASE("e2e: --conf wins over --properties-file, which wins over the scenario", "[e2e]") {
  const fs::path props = fs::temp_directory_path() / "aqesim-e2e.properties";
  std::ofstream(props)
      << "# spark-defaults.conf style\nspark.sql.adaptive.advisoryPartitionSizeInBytes  32m\n";
  const std::string s = SourcePath("scenarios/coalesce-aqe-blog.json");
  auto target = [](const nlohmann::json& explain) {
    return DecisionsOf(explain, "CoalesceShufflePartitions").at(0)["targetSizeBytes"].get<int64_t>();
  };
  CHECK(target(Explain("scenarios/coalesce-aqe-blog.json")) == 64LL << 20);
  const CommandResult r = RunAqesim({"explain", s, "--properties-file", props.string()});
  REQUIRE(r.exit_code == 0);
  CHECK(target(nlohmann::json::parse(r.stdout_text)) == 32LL << 20);
  const CommandResult r2 = RunAqesim({"explain", s, "--properties-file", props.string(), "--conf",
                                      "spark.sql.adaptive.advisoryPartitionSizeInBytes=128m"});
  REQUIRE(r2.exit_code == 0);
  CHECK(target(nlohmann::json::parse(r2.stdout_text)) == 128LL << 20);
  fs::remove(props);
}

}  // namespace
}  // namespace aqesim::e2e
