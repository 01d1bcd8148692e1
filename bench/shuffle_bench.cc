// B1: MapStatus encoding and aggregation into bytesByPartitionId over a dense 10^4 x 10^4
// matrix, against a plain column sum over the same buffer, in the same run (bench/run.sh
// divides the medians). One matrix is generated once and shared by all three benchmarks.
#include <benchmark/benchmark.h>

#include "bench/b1_matrix.h"

namespace aqesim::bench {
namespace {

const SizeMatrix& Matrix() {
  static const SizeMatrix m = B1Matrix();
  return m;
}

void SetCells(benchmark::State& state) {
  const int64_t cells = int64_t{kB1Maps} * kB1Reducers;
  state.SetItemsProcessed(state.iterations() * cells);
  state.SetBytesProcessed(state.iterations() * cells * 8);
}

void BM_B1_PlainColumnSum(benchmark::State& state) {
  const SizeMatrix& m = Matrix();
  for (auto _ : state) {
    std::vector<uint64_t> acc = PlainColumnSum(m);
    benchmark::DoNotOptimize(acc.data());
  }
  SetCells(state);
}

void BM_B1_HighlyCompressedMapStatus(benchmark::State& state) {
  const SizeMatrix& m = Matrix();
  int64_t huge = 0;
  for (auto _ : state) {
    ReportedShuffleSizes r = DriverViewHighlyCompressed(m);
    huge = r.NumHugeBlocks();
    benchmark::DoNotOptimize(r.BytesByPartitionId().data());
  }
  SetCells(state);
  state.counters["huge_blocks"] = static_cast<double>(huge);
}

void BM_B1_CompressedMapStatus(benchmark::State& state) {
  const SizeMatrix& m = Matrix();
  for (auto _ : state) {
    ReportedShuffleSizes r = DriverViewCompressed(m);
    benchmark::DoNotOptimize(r.BytesByPartitionId().data());
  }
  SetCells(state);
}

// Interleaved repetitions so that the three see the same machine load.
BENCHMARK(BM_B1_PlainColumnSum)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(7);
BENCHMARK(BM_B1_HighlyCompressedMapStatus)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(7);
BENCHMARK(BM_B1_CompressedMapStatus)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(7);

}  // namespace
}  // namespace aqesim::bench

BENCHMARK_MAIN();
