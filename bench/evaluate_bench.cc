// B6 (issue 18 item 4): evaluations per second of a sweep point on one core — the objective a
// tuner calls. One evaluation = the scenario built with the point's overrides and simulated
// with AQE on; a sweep point = the same AQE off and on plus its row (tools/sweep's
// ComputePoint). "Reload" is what every point cost before the scenario was read once: the
// parsed document copied, the point's cluster field written into it, and the whole document
// loaded and validated again (LoadScenarioJson).
//
// Usage: aqesim_bench_evaluate SCENARIO [Google Benchmark flags]
//   e.g. build-bench/bench/aqesim_bench_evaluate q72.json --benchmark_format=json
// where q72.json comes from `aqesim import-eventlog nds_q72_dataproc_2_2.zstd -o q72.json`.
// The points cycle through advisoryPartitionSizeInBytes 16m..256m and cluster.executors 2..20.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "models/engine/query_execution.h"
#include "models/scenario/json_reader.h"
#include "models/scenario/scenario_base.h"
#include "models/scenario/scenario_overrides.h"
#include "tools/sweep/sweep_runner.h"

namespace aqesim::bench {
namespace {

std::string g_path;  // the scenario (argv[1])

const char* const kAdvisory[] = {"16m", "32m", "64m", "128m", "256m"};
constexpr int kPoints = 50;  // 5 advisory sizes x 10 executor counts

std::string Advisory(int64_t i) { return kAdvisory[i % 5]; }
int Executors(int64_t i) { return 2 * static_cast<int>(1 + (i / 5) % 10); }

const nlohmann::json& Document() {
  static const nlohmann::json doc = [] {
    std::ifstream in(g_path);
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str());
  }();
  return doc;
}

void Simulated(benchmark::State& state, const LoadResult& r, int runs) {
  if (!r.errors.empty()) {
    state.SkipWithError(r.errors.front().ToString().c_str());
    return;
  }
  if (runs > 0) benchmark::DoNotOptimize(SimulateQuery(*r.scenario, true).makespan_seconds);
  if (runs > 1) benchmark::DoNotOptimize(SimulateQuery(*r.scenario, false).makespan_seconds);
}

// The document edited and loaded again per point (the sweep before), then `runs` simulations.
void Reload(benchmark::State& state, int runs) {
  const nlohmann::json& doc = Document();
  int64_t i = 0;
  for (auto _ : state) {
    nlohmann::json edited = doc;
    edited["cluster"]["executors"] = Executors(i);
    ConfOverrides ov;
    ov.conf.emplace_back("spark.sql.adaptive.advisoryPartitionSizeInBytes", Advisory(i));
    Simulated(state, LoadScenarioJson(edited, g_path, ov), runs);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}

// The base read once; the point's overrides applied to a copy, then `runs` simulations.
void Evaluate(benchmark::State& state, int runs) {
  const auto base = ReadScenarioBase(Json(Document()), g_path, nullptr);
  const ScenarioOverrides none;
  int64_t i = 0;
  for (auto _ : state) {
    ScenarioOverrides ov = none;
    ov.conf.emplace_back("spark.sql.adaptive.advisoryPartitionSizeInBytes", Advisory(i));
    ov.fields.push_back({"cluster", "executors", Executors(i)});
    Simulated(state, BuildScenario(*base, ov), runs);
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_B6_ReloadOnly(benchmark::State& state) { Reload(state, 0); }
void BM_B6_BuildOnly(benchmark::State& state) { Evaluate(state, 0); }
void BM_B6_ReloadAndSimulate(benchmark::State& state) { Reload(state, 1); }
void BM_B6_Evaluate(benchmark::State& state) { Evaluate(state, 1); }

// What `aqesim sweep` does per point: build, AQE off and on, the row.
void BM_B6_SweepPoint(benchmark::State& state) {
  sweep::SweepSpec spec;
  spec.scenario_path = g_path;
  spec.axes = {{"spark.sql.adaptive.advisoryPartitionSizeInBytes", {"16m", "32m", "64m", "128m", "256m"}},
               {"cluster.executors", {"2", "4", "6", "8", "10", "12", "14", "16", "18", "20"}}};
  std::vector<std::string> errors;
  const std::optional<sweep::PreparedSweep> prepared = sweep::PrepareSweep(spec, &errors);
  if (!prepared) {
    state.SkipWithError(errors.empty() ? "the sweep does not prepare" : errors.front().c_str());
    return;
  }
  uint64_t i = 0;
  std::vector<std::string> warnings;
  for (auto _ : state) {
    sweep::SweepRow row = sweep::ComputePoint(spec, *prepared, i++ % kPoints, &warnings);
    if (!row.error.empty()) state.SkipWithError(row.error.c_str());
    benchmark::DoNotOptimize(row.metrics);
    warnings.clear();
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_B6_ReloadOnly)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_B6_BuildOnly)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_B6_ReloadAndSimulate)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_B6_Evaluate)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_B6_SweepPoint)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace aqesim::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s SCENARIO [--benchmark_...]\n", argv[0]);
    return 2;
  }
  aqesim::bench::g_path = argv[1];
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
