#include "tools/sweep/sweep_runner.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tools/sweep/sweep_output.h"

namespace aqesim::sweep {
namespace {

namespace fs = std::filesystem;

std::string Source(const std::string& rel) { return std::string(AQESIM_SOURCE_DIR) + "/" + rel; }

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("aqesim_sweep_runner_test_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

SweepSpec Spec(const std::string& journal) {
  SweepSpec spec;
  spec.scenario_path = Source("scenarios/coalesce-aqe-blog.json");
  spec.axes = {{"spark.sql.adaptive.advisoryPartitionSizeInBytes", {"16m", "32m", "64m", "128m"}},
               {"cluster.executors", {"1", "2", "4"}}};
  spec.journal_path = journal;
  return spec;
}

std::string Render(const SweepSpec& spec, const PreparedSweep& p, const SweepOutcome& o) {
  std::vector<std::string> keys;
  for (const auto& a : spec.axes) keys.push_back(a.key);
  return RenderSweep(OutputFormat::kCsv, SweepInfoToJson(p.info), keys, o.rows);
}

TEST_CASE("RunSweep: rows in grid order, the same with 1 and 2 threads", "[sweep][runner]") {
  TempDir dir;
  SweepSpec spec = Spec((dir.path / "a.journal").string());
  std::vector<std::string> errors;
  auto prepared = PrepareSweep(spec, &errors);
  REQUIRE(errors.empty());
  REQUIRE(prepared);
  CHECK(prepared->num_points == 12);
  spec.threads = 1;
  std::string error;
  auto one = RunSweep(spec, *prepared, &error);
  REQUIRE(one);
  spec.threads = 2;
  spec.journal_path = (dir.path / "b.journal").string();
  auto two = RunSweep(spec, *prepared, &error);
  REQUIRE(two);
  CHECK(Render(spec, *prepared, *one) == Render(spec, *prepared, *two));
  REQUIRE(one->rows.size() == 12);
  for (size_t i = 0; i < 12; ++i) CHECK(one->rows[i].point == i);
  CHECK(one->rows[4].values == std::vector<std::string>{"32m", "2"});
  // The blog example: 5 reducers of 70, 30, 20, 10, 50 MB at a 64 MB target → 3 tasks (one coalescing).
  REQUIRE(one->rows[7].metrics);
  CHECK(one->rows[7].metrics->coalescings == 1);
}

TEST_CASE("RunSweep: resumes from the journal without recomputing finished points", "[sweep][runner]") {
  TempDir dir;
  SweepSpec spec = Spec((dir.path / "out.csv.journal").string());
  spec.threads = 2;
  std::vector<std::string> errors;
  auto prepared = PrepareSweep(spec, &errors);
  REQUIRE(prepared);
  std::string error;
  auto first = RunSweep(spec, *prepared, &error);
  REQUIRE(first);
  CHECK(first->computed == 12);
  CHECK(first->resumed == 0);
  auto again = RunSweep(spec, *prepared, &error);
  REQUIRE(again);
  CHECK(again->computed == 0);
  CHECK(again->resumed == 12);
  CHECK(Render(spec, *prepared, *again) == Render(spec, *prepared, *first));

  // Kill mid-row: cut the journal inside its last line.
  std::ifstream in(spec.journal_path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  text.resize(text.size() - 30);
  std::ofstream(spec.journal_path, std::ios::binary | std::ios::trunc) << text;
  auto resumed = RunSweep(spec, *prepared, &error);
  REQUIRE(resumed);
  CHECK(resumed->dropped_journal_lines == 1);
  CHECK(resumed->resumed == 11);
  CHECK(resumed->computed == 1);
  CHECK(Render(spec, *prepared, *resumed) == Render(spec, *prepared, *first));
}

TEST_CASE("PrepareSweep: unknown keys and bad values are diagnostics", "[sweep][runner]") {
  SweepSpec spec = Spec("/nonexistent/j");
  spec.axes = {{"spark.sql.shufle.partitions", {"10"}},
               {"cluster.executors", {"0"}},
               {"spark.sql.adaptive.coalescePartitions.minPartitionSize", {"0"}},
               {"cluster.executors", {"1"}}};
  std::vector<std::string> errors;
  CHECK_FALSE(PrepareSweep(spec, &errors));
  REQUIRE(errors.size() == 4);
  CHECK(errors[0].rfind("--grid spark.sql.shufle.partitions: unknown key", 0) == 0);
  CHECK(errors[0].find("did you mean \"spark.sql.shuffle.partitions\"?") != std::string::npos);
  CHECK(errors[1].rfind("--grid cluster.executors=0: ", 0) == 0);
  CHECK(errors[1].find("/cluster/executors") != std::string::npos);
  CHECK(errors[2].rfind("--grid spark.sql.adaptive.coalescePartitions.minPartitionSize=0: ", 0) == 0);
  // The grid value is named once, not again as a --conf.
  CHECK(errors[2].find("--conf") == std::string::npos);
  CHECK(errors[3] == "--grid cluster.executors: the key is swept twice; give all its values in one --grid");
}

TEST_CASE("PrepareSweep: values are checked alone, how they combine is each point's", "[sweep][runner]") {
  // dynamic-allocation.json sets maxExecutors 40: minExecutors 50 is refused with it (and with a
  // grid's max 40) but runs with max 100, so the grid is not refused; its point min 50 / max 40
  // is a row with its error.
  TempDir dir;
  SweepSpec spec;
  spec.scenario_path = Source("scenarios/dynamic-allocation.json");
  spec.axes = {{"spark.dynamicAllocation.minExecutors", {"0", "50"}},
               {"spark.dynamicAllocation.maxExecutors", {"40", "100"}}};
  spec.journal_path = (dir.path / "da.journal").string();
  spec.threads = 1;
  std::vector<std::string> errors;
  auto prepared = PrepareSweep(spec, &errors);
  CHECK(errors.empty());
  REQUIRE(prepared);
  std::string error;
  auto outcome = RunSweep(spec, *prepared, &error);
  REQUIRE(outcome);
  REQUIRE(outcome->rows.size() == 4);
  CHECK(outcome->rows[2].values == std::vector<std::string>{"50", "40"});
  CHECK_FALSE(outcome->rows[2].metrics);
  CHECK(outcome->rows[2].error ==
        "--conf spark.dynamicAllocation.maxExecutors=40: expected spark.dynamicAllocation.maxExecutors >= "
        "spark.dynamicAllocation.minExecutors (50, from --conf spark.dynamicAllocation.minExecutors=50), "
        "found 40 "
        "(Spark refuses to start)");
  CHECK(outcome->rows[3].values == std::vector<std::string>{"50", "100"});
  CHECK(outcome->rows[3].error.empty());
  REQUIRE(outcome->rows[3].metrics);
  for (int i : {0, 1}) CHECK(outcome->rows[i].metrics);

  // What a value alone can be wrong about is still refused before any point runs.
  spec.axes[1].values = {"0", "100"};
  errors.clear();
  CHECK_FALSE(PrepareSweep(spec, &errors));
  CHECK(errors ==
        std::vector<std::string>{
            "--grid spark.dynamicAllocation.maxExecutors=0: expected an integer >= 1, found \"0\""});
}

TEST_CASE("ApplyGridValue: cluster and cost keys are field overrides, others are conf", "[sweep][runner]") {
  const auto base = ReadScenarioBase(Json{{"cluster", {{"executors", 2}}}}, "s.json", nullptr);
  ScenarioOverrides ov;
  ApplyGridValue("cluster.executors", "8", *base, &ov);
  ApplyGridValue("cluster.executorMemory", "4g", *base, &ov);
  ApplyGridValue("cost.taskLaunchSeconds", "0.5", *base, &ov);
  ApplyGridValue("simulation.mapStatus", "exact", *base, &ov);
  ApplyGridValue("simulation.dataScale", "2", *base, &ov);
  ApplyGridValue("spark.sql.shuffle.partitions", "300", *base, &ov);
  REQUIRE(ov.fields.size() == 5);
  CHECK((ov.fields[0].section == "cluster" && ov.fields[0].field == "executors" && ov.fields[0].value == 8));
  CHECK((ov.fields[1].field == "executorMemory" && ov.fields[1].value == "4g"));
  CHECK((ov.fields[2].section == "cost" && ov.fields[2].value == 0.5));
  CHECK((ov.fields[3].section == "simulation" && ov.fields[3].value == "exact"));
  CHECK((ov.fields[4].field == "dataScale" && ov.fields[4].value == 2));
  REQUIRE(ov.conf.size() == 1);
  CHECK(ov.conf[0] == std::pair<std::string, std::string>{"spark.sql.shuffle.partitions", "300"});
}

TEST_CASE("ApplyGridValue: cluster.executors on a recorded executor timeline is spark.executor.instances",
          "[sweep][runner]") {
  const auto base = ReadScenarioBase(
      Json{{"cluster", {{"executorTimeline", Json::array({Json{{"add", 0}}})}}}}, "s.json", nullptr);
  ScenarioOverrides ov;
  ApplyGridValue("cluster.executors", "8", *base, &ov);
  CHECK(ov.fields.empty());
  REQUIRE(ov.conf.size() == 1);
  CHECK(ov.conf[0] == std::pair<std::string, std::string>{"spark.executor.instances", "8"});
}

TEST_CASE(
    "ApplyGridValue: cluster.executors on a timeline recorded under dynamic allocation turns the policy off",
    "[sweep][runner]") {
  // An import of a dynamic-allocation log keeps the policy's keys (conf_import.h): N executors
  // from the start needs the policy off, or spark.executor.instances is only its initial target.
  const auto base =
      ReadScenarioBase(Json{{"cluster", {{"executorTimeline", Json::array({Json{{"add", 0}}})}}},
                            {"conf",
                             {{"spark.dynamicAllocation.enabled", "true"},
                              {"spark.shuffle.service.enabled", "true"},
                              {"spark.executor.instances", "2"}}}},
                       "s.json", nullptr);
  ScenarioOverrides ov;
  ApplyGridValue("cluster.executors", "8", *base, &ov);
  CHECK(ov.fields.empty());
  CHECK(ov.conf == std::vector<std::pair<std::string, std::string>>{
                       {"spark.dynamicAllocation.enabled", "false"}, {"spark.executor.instances", "8"}});
}

}  // namespace
}  // namespace aqesim::sweep
