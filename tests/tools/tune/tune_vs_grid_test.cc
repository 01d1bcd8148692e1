// Issue 18's done criterion: on every bundled scenario and every imported shared log, for a
// space small enough to enumerate (216 points), the search finds a configuration within 2 % of
// the exhaustive grid's best with at most 20 % of the evaluations (43). The grid is evaluated
// point by point with the same objective; on one scenario its best is checked against `sweep`'s
// own rows too, so the two commands agree on what "best" is.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <limits>

#include "models/scenario/input_file.h"
#include "models/scenario/scenario_base.h"
#include "models/scenario/scenario_overrides.h"
#include "tools/sweep/sweep_runner.h"
#include "tools/tune/objective.h"
#include "tools/tune/search.h"

namespace aqesim::tune {
namespace {

const std::vector<std::string> kSpace = {
    "spark.sql.shuffle.partitions=20,50,100,200,400,800",
    "spark.sql.adaptive.advisoryPartitionSizeInBytes=8m,16m,32m,64m,128m,256m",
    "spark.sql.adaptive.coalescePartitions.parallelismFirst=true,false",
    "spark.sql.adaptive.coalescePartitions.minPartitionSize=1m,8m,32m"};

std::vector<SpaceAxis> Space() {
  std::vector<SpaceAxis> axes;
  for (const std::string& arg : kSpace) {
    std::string error;
    axes.push_back(*ParseSpaceArg(arg, &error));
  }
  return axes;
}

std::vector<std::string> Scenarios() {
  std::vector<std::string> paths;
  for (const char* dir : {"/scenarios", "/scenarios/recorded"}) {
    for (const auto& entry : std::filesystem::directory_iterator(std::string(AQESIM_SOURCE_DIR) + dir))
      if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::shared_ptr<const ScenarioBase> Base(const std::string& path) {
  std::vector<Diagnostic> errors;
  auto base = ReadScenarioBaseFile(path, nullptr, &errors);
  REQUIRE(errors.empty());
  return base;
}

TEST_CASE("tune comes within 2 % of the exhaustive grid's best with 20 % of its evaluations", "[longest]") {
  const std::vector<SpaceAxis> axes = Space();
  const auto grid = Enumerate(axes, 1000);
  REQUIRE(grid);
  REQUIRE(grid->size() == 216);
  const int budget = static_cast<int>(grid->size() / 5);  // 43
  int scenarios = 0;
  for (const std::string& path : Scenarios()) {
    INFO(path);
    TuneObjective objective(Base(path), ScenarioOverrides{}, ObjectiveSpec{}, NoGuardrails());
    REQUIRE(objective.Prepare().empty());
    const auto evaluate = [&](const std::vector<std::string>& values) {
      Settings settings;
      for (size_t i = 0; i < axes.size(); ++i) settings.emplace_back(axes[i].key, values[i]);
      return objective.Evaluate(settings);
    };
    double grid_best = std::numeric_limits<double>::infinity();
    for (const auto& point : *grid) grid_best = std::min(grid_best, evaluate(point).makespan_seconds);
    SearchSpec spec;
    spec.axes = axes;
    spec.budget = budget;
    spec.threads = 2;
    const SearchResult found = Search(spec, evaluate);
    REQUIRE(found.best >= 0);
    CHECK(found.evaluations.size() <= static_cast<size_t>(budget));
    const double tuned = found.evaluations[static_cast<size_t>(found.best)].makespan_seconds;
    INFO("grid best " << grid_best << " s, tune " << tuned << " s after " << found.evaluations.size());
    CHECK(tuned <= 1.02 * grid_best);
    ++scenarios;
  }
  CHECK(scenarios >= 12);  // 5 bundled scenarios and 7 imported logs at the time of writing
}

TEST_CASE("the grid's best is the best row of `sweep` over the same space") {
  const std::string path = std::string(AQESIM_SOURCE_DIR) + "/scenarios/skew-join.json";
  const std::vector<SpaceAxis> axes = Space();
  sweep::SweepSpec spec;
  spec.scenario_path = path;
  for (const SpaceAxis& a : axes) spec.axes.push_back({a.key, a.choices});
  spec.threads = 2;
  spec.journal_path = std::string(AQESIM_TEST_OUTPUT_DIR) + "/tune_vs_grid.journal";
  std::filesystem::create_directories(AQESIM_TEST_OUTPUT_DIR);
  std::filesystem::remove(spec.journal_path);
  std::vector<std::string> errors;
  const auto prepared = sweep::PrepareSweep(spec, &errors);
  REQUIRE(prepared);
  std::string error;
  const auto outcome = sweep::RunSweep(spec, *prepared, &error);
  REQUIRE(outcome);
  std::filesystem::remove(spec.journal_path);
  double sweep_best = std::numeric_limits<double>::infinity();
  for (const sweep::SweepRow& row : outcome->rows)
    if (row.metrics) sweep_best = std::min(sweep_best, row.metrics->makespan_seconds_aqe_on);

  TuneObjective objective(Base(path), ScenarioOverrides{}, ObjectiveSpec{}, NoGuardrails());
  REQUIRE(objective.Prepare().empty());
  double grid_best = std::numeric_limits<double>::infinity();
  const auto grid = Enumerate(axes, 1000);
  REQUIRE(grid);
  for (const auto& point : *grid) {
    Settings settings;
    for (size_t i = 0; i < axes.size(); ++i) settings.emplace_back(axes[i].key, point[i]);
    grid_best = std::min(grid_best, objective.Evaluate(settings).makespan_seconds);
  }
  CHECK(grid_best == sweep_best);
}

}  // namespace
}  // namespace aqesim::tune
