// The engine on streamed (generated, never materialised) shuffles gives byte for byte the
// run and explain of the same scenario with every matrix given densely.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

#include "models/engine/exec_plan.h"
#include "models/engine/query_execution.h"
#include "models/engine/run_result.h"
#include "models/engine/static_planner.h"
#include "models/scenario/scenario.h"

namespace aqesim {
namespace {

void Walk(PlanNode* n, const std::function<void(PlanNode*)>& f) {
  f(n);
  for (auto& c : n->children) Walk(c.get(), f);
}

struct Outputs {
  std::string run, explain;
};
Outputs RunBoth(const Scenario& s, bool adaptive) {
  const RunResult r = SimulateQuery(s, adaptive);
  return {RunToJson(r, true).dump(), ExplainToJson(s.name, r).dump()};
}

/// Runs `path` streamed and with each streamed exchange replaced by its matrix (as planned in
/// that mode); returns the number of exchanges compared.
int CompareDenseAndStreamed(const std::string& path, bool adaptive) {
  LoadResult streamed = LoadScenarioFile(path, {});
  if (!streamed.errors.empty()) return 0;
  SqlConf conf = streamed.scenario->conf;
  conf.adaptive_enabled = adaptive;
  std::map<std::string, SizeMatrix> dense_by_pointer;
  try {
    StaticPlan sp = PlanStatically(*streamed.scenario, conf);
    for (ExecNode* n : PreOrder(sp.root.get()))
      if (n->is_exchange() && n->source && n->shuffle->data->planned.streamed())
        dense_by_pointer[n->source->pointer] = n->shuffle->data->planned.ToDense();
  } catch (const PlanError&) {
    return 0;
  }
  if (dense_by_pointer.empty()) return 0;
  LoadResult dense = LoadScenarioFile(path, {});
  REQUIRE(dense.errors.empty());
  int replaced = 0;
  Walk(dense.scenario->plan.get(), [&](PlanNode* n) {
    auto it = dense_by_pointer.find(n->pointer);
    if (it == dense_by_pointer.end()) return;
    SizesSpec given;
    given.form = it->second;
    given.source = "matrix";
    n->sizes = std::move(given);
    ++replaced;
  });
  REQUIRE(replaced == static_cast<int>(dense_by_pointer.size()));
  const Outputs a = RunBoth(*streamed.scenario, adaptive);
  const Outputs b = RunBoth(*dense.scenario, adaptive);
  CHECK(a.run == b.run);
  CHECK(a.explain == b.explain);
  return replaced;
}

TEST_CASE("Streamed shuffles: every bundled scenario runs identically with its matrices given densely",
          "[engine][streaming]") {
  int scenarios = 0, exchanges = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(AQESIM_SOURCE_DIR) + "/scenarios")) {
    if (e.path().extension() != ".json" || e.path().string().find("/sweeps/") != std::string::npos) continue;
    for (bool adaptive : {false, true}) {
      INFO(e.path().string() << (adaptive ? " (AQE on)" : " (AQE off)"));
      const int n = CompareDenseAndStreamed(e.path().string(), adaptive);
      scenarios += n > 0;
      exchanges += n;
    }
  }
  // The bundled scenarios generate sizes (or give none) in most exchanges: coalescing, skew
  // splits (columns of a streamed shuffle), local reads (rows read out of order), broadcasts.
  CHECK(scenarios >= 20);
  CHECK(exchanges >= 40);
}

TEST_CASE("Streamed shuffles: a noisy skewed join split by AQE runs identically to its dense matrices",
          "[engine][streaming]") {
  // Noise makes rows depend on one Rng stream: skew-split columns, local reads and apportioned
  // rows must still see the bits of a single pass.
  const std::string path = std::string(AQESIM_SOURCE_DIR) + "/tests/data/streamed-noisy-skew-join.json";
  CHECK(CompareDenseAndStreamed(path, true) == 3);
  CHECK(CompareDenseAndStreamed(path, false) == 3);
}

}  // namespace
}  // namespace aqesim
