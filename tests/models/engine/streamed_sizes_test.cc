// The engine on streamed (generated, never materialised) shuffles gives byte for byte the
// run and explain of the same scenario with every matrix given densely.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>

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
  REQUIRE(streamed.errors.empty());  // a bundled scenario that stops loading is not skipped
  SqlConf conf = streamed.scenario->conf;
  conf.adaptive_enabled = adaptive;
  std::map<std::string, SizeMatrix> dense_by_pointer;
  try {
    StaticPlan sp = PlanStatically(*streamed.scenario, conf);
    for (ExecNode* n : PreOrder(sp.root.get()))
      if (n->is_exchange() && n->source && n->shuffle->data->planned.streamed())
        dense_by_pointer[n->source->pointer] = n->shuffle->data->planned.ToDense();
  } catch (const PlanError& e) {
    FAIL_CHECK("planning failed: " << e.pointer << ": " << e.message);
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
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(std::string(AQESIM_SOURCE_DIR) + "/scenarios")) {
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

namespace aqesim {
namespace {

TEST_CASE("Streamed shuffles: a generated shuffle written by coalesced tasks is apportioned from one pass",
          "[engine][streaming]") {
  // e2 is generated 20,000 x 20,000 (4 x 10^8 cells: streamed, more than a dense matrix may
  // hold). With AQE on its map tasks are e1's 16 coalesced reduce tasks, so its 20,000 planned
  // rows are read once, in order, into the 16 rows the tasks wrote (16 x 20,000, dense).
  const nlohmann::json doc = nlohmann::json::parse(R"({
    "name": "t", "seed": 1,
    "cluster": {"executors": 2, "executorCores": 2},
    "conf": {"spark.sql.shuffle.partitions": 20000},
    "plan": {"op": "aggregate", "id": "a2", "child": {"op": "exchange", "id": "e2",
             "child": {"op": "aggregate", "id": "a1", "child": {"op": "exchange", "id": "e1",
                       "child": {"op": "scan", "id": "s", "bytes": "1g", "tasks": 4}}}}}})");
  LoadResult lr = LoadScenarioJson(doc, "t.json", {});
  REQUIRE(lr.errors.empty());
  for (bool adaptive : {false, true}) {
    INFO((adaptive ? "AQE on" : "AQE off"));
    const RunResult r = SimulateQuery(*lr.scenario, adaptive);
    REQUIRE(r.stages.size() == 3);
    CHECK(r.stages[1].tasks == (adaptive ? 16 : 20000));  // 1 GiB / 64 MiB
    CHECK(r.stages[1].shuffle_write_bytes == int64_t{1} << 30);
    CHECK(r.stages[2].shuffle_read_bytes == int64_t{1} << 30);
    const ExchangeExplain* e2 = nullptr;
    for (const ExchangeExplain& e : r.exchanges)
      if (e.id == "e2") e2 = &e;
    REQUIRE(e2 != nullptr);
    CHECK(e2->map_tasks == (adaptive ? 16 : 20000));
    REQUIRE(e2->true_bytes_by_partition_id.size() == 20000);
    int64_t total = 0;
    for (int64_t b : e2->true_bytes_by_partition_id) total += b;
    CHECK(total == int64_t{1} << 30);
  }
}

}  // namespace
}  // namespace aqesim

namespace aqesim {
namespace {

std::string PlanErrorOf(const std::string& conf, const std::string& sizes, const std::string& simulation,
                        bool adaptive, int scan_tasks = 1) {
  const nlohmann::json doc = nlohmann::json::parse(R"({"name": "t", "seed": 1,
      "cluster": {"executors": 2, "executorCores": 2}, "conf": )" +
                                                   conf + R"(, "simulation": )" + simulation + R"(,
      "plan": {"op": "exchange", "id": "e1", "child": {"op": "scan", "id": "s", "bytes": "1t", "tasks": )" +
                                                   std::to_string(scan_tasks) + R"(},
               "sizes": {"generate": )" + sizes + "}}}");
  LoadResult lr = LoadScenarioJson(doc, "t.json", {});
  REQUIRE(lr.errors.empty());
  SqlConf c = lr.scenario->conf;
  c.adaptive_enabled = adaptive;
  try {
    PlanStatically(*lr.scenario, c);
  } catch (const PlanError& e) {
    return e.pointer + ": " + e.message;
  }
  return "";
}

TEST_CASE(
    "Streamed shuffles: the planner bounds a generated shuffle by cells, reducers and the driver's view",
    "[engine][streaming]") {
  const std::string spark = R"({"mapStatus": "spark"})", exact = R"({"mapStatus": "exact"})";
  // 10^5 x 10^5 = 10^10 cells streamed: accepted with AQE off and on (HighlyCompressedMapStatus).
  const std::string big = R"({"partitions": 100000})";
  CHECK(PlanErrorOf("{}", big, spark, false, 100000).empty());
  CHECK(PlanErrorOf("{}", big, spark, true, 100000).empty());
  // Rows from the child (200,001 scan tasks) x 10^5 reducers from the configuration: above
  // 2 x 10^10 (the loader checks only what the generator spec itself fixes).
  CHECK(PlanErrorOf(R"({"spark.sql.shuffle.partitions": 100000})", "{}", spark, false, 200001) ==
        "/plan: expected at most 20000000000 cells (map tasks x partitions) in a generated shuffle, found "
        "200001 x "
        "100000");
  // 2,000 reducers: CompressedMapStatus keeps a byte a block in the driver, so AQE on bounds the
  // cells at 1.6 x 10^9 (the bytes of a 2 x 10^8-cell dense matrix); AQE off does not build it.
  const std::string compressed = R"({"partitions": 2000})";
  CHECK(PlanErrorOf("{}", compressed, spark, false, 1000000).empty());
  CHECK(PlanErrorOf("{}", compressed, spark, true, 1000000) ==
        "/plan: expected at most 1600000000 cells (map tasks x partitions) with CompressedMapStatus (one "
        "byte a "
        "block in the driver), found 1000000 x 2000");
  // Exact statuses hold 8 bytes a block: the dense bound.
  const std::string exact_sizes = R"({"partitions": 10000})";
  CHECK(PlanErrorOf("{}", exact_sizes, exact, false, 20001).empty());
  CHECK(PlanErrorOf("{}", exact_sizes, exact, true, 20001) ==
        "/plan: expected at most 200000000 cells (map tasks x partitions) with exact map statuses, found "
        "20001 x 10000");
  // Per-reducer state: at most 10^7 reducers.
  CHECK(PlanErrorOf(R"({"spark.sql.shuffle.partitions": 10000001})", "{}", spark, false) ==
        "/plan: expected at most 10000000 partitions in a generated shuffle, found 10000001");
}

}  // namespace
}  // namespace aqesim
