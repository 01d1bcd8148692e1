// The B1 input: a dense 10^4 x 10^4 true size matrix (zipf over reducers, 20 TB in total, so
// that the largest blocks exceed spark.shuffle.accurateBlockThreshold's 100 MiB), and the
// measured operations, kept out of line so callgrind can count each one alone.
#ifndef AQESIM_BENCH_B1_MATRIX_H_
#define AQESIM_BENCH_B1_MATRIX_H_

#include <cstdint>
#include <vector>

#include "models/shuffle/generators.h"
#include "models/shuffle/map_output_statistics.h"

namespace aqesim::bench {

inline constexpr int kB1Maps = 10'000;
inline constexpr int kB1Reducers = 10'000;

inline SizeMatrix B1Matrix() {
  GenerateSizes g;
  g.distribution = GenerateSizes::Distribution::kZipf;
  g.exponent = 1.0;
  return GenerateSizeMatrix(g, kB1Maps, kB1Reducers, int64_t{20} << 40, 61);
}

/// The baseline: per-reducer sums over the same buffer (uint64, wrapping like Java longs).
[[gnu::noinline]] inline std::vector<uint64_t> PlainColumnSum(const SizeMatrix& m) {
  std::vector<uint64_t> acc(static_cast<size_t>(m.num_reducers()), 0);
  uint64_t* a = acc.data();
  const size_t n = acc.size();
  for (int map = 0; map < m.num_maps(); ++map) {
    const int64_t* row = m.row(map).data();
    for (size_t r = 0; r < n; ++r) a[r] += static_cast<uint64_t>(row[r]);
  }
  return acc;
}

/// MapStatus per map + bytesByPartitionId: Spark's choice for 10^4 reducers (HCMS).
[[gnu::noinline]] inline ReportedShuffleSizes DriverViewHighlyCompressed(const SizeMatrix& m) {
  return ReportedShuffleSizes::FromMatrix(m, MapStatusConfig{}, MapStatusMode::kSpark);
}

/// The same with CompressedMapStatus forced (minNumPartitionsToHighlyCompress above 10^4).
[[gnu::noinline]] inline ReportedShuffleSizes DriverViewCompressed(const SizeMatrix& m) {
  MapStatusConfig c;
  c.min_num_partitions_to_highly_compress = 1'000'000;
  return ReportedShuffleSizes::FromMatrix(m, c, MapStatusMode::kSpark);
}

}  // namespace aqesim::bench

#endif  // AQESIM_BENCH_B1_MATRIX_H_
