#include "models/shuffle/generated_rows.h"

#include <catch2/catch.hpp>

#include "models/shuffle/generators.h"

namespace aqesim {
namespace {

std::vector<int64_t> Split(int64_t total, std::vector<double> w, size_t tie_start) {
  std::vector<int64_t> out(w.size(), -1);
  SplitScratch scratch;
  SplitByLargestRemainderInto(total, w, tie_start, out, &scratch);
  return out;
}

TEST_CASE("SplitByLargestRemainderInto: odd bytes to the largest remainders, ties cyclic from tie_start",
          "[shuffle][sizes]") {
  // 1.5 each: floors 1, two odd bytes, all tied: cells 3 and 0 (cyclic from 3).
  CHECK(Split(6, {1, 1, 1, 1}, 3) == std::vector<int64_t>{2, 1, 1, 2});
  // Quotas 2.5, 0.83, 0.83, 0.83: three odd bytes go to the three 0.83 remainders, not to 0.5.
  CHECK(Split(5, {3, 1, 1, 1}, 2) == std::vector<int64_t>{2, 1, 1, 1});
  // Quotas 2, 0.67 x 3: two odd bytes among three tied cells: 2 and 3 (from tie_start 2).
  CHECK(Split(4, {3, 1, 1, 1}, 2) == std::vector<int64_t>{2, 0, 1, 1});
  CHECK(Split(4, {3, 1, 1, 1}, 0) == std::vector<int64_t>{2, 1, 1, 0});
  // Quotas 1.5, 0.75, 0.75: the .75s win over the .5.
  CHECK(Split(3, {0.5, 0.25, 0.25}, 2) == std::vector<int64_t>{1, 1, 1});
  CHECK(Split(0, {1, 2}, 0) == std::vector<int64_t>{0, 0});
  CHECK(Split(5, {0, 0}, 1) == std::vector<int64_t>{2, 3});  // all-zero weights: even, tie from 1
  // The wrapper is the same function.
  const std::vector<double> w = {0.3, 0.2, 0.2, 0.2, 0.1};
  CHECK(SplitByLargestRemainder(1'000'003, w, 4) == Split(1'000'003, w, 4));
}

TEST_CASE("GeneratedRowStream: rows are the row totals split by the column weights", "[shuffle][sizes]") {
  // Without noise every row uses the same weights: the cached split plan must agree with the
  // general split of each row's total (tie start = map index mod partitions).
  for (auto dist : {GenerateSizes::Distribution::kUniform, GenerateSizes::Distribution::kZipf,
                    GenerateSizes::Distribution::kHotKeys}) {
    GenerateSizes g;
    g.distribution = dist;
    g.hot_count = 3;
    g.hot_fraction = 0.7;
    for (bool recorded_rows : {false, true}) {
      if (recorded_rows) g.map_bytes = std::vector<int64_t>{5, 1000, 1001, 999'999, 0, 37, 1000, 5};
      GeneratedRowStream rows(g, 8, 37, 123'457, 5);
      Rng rng(5);
      const std::vector<double> weights = GeneratedColumnWeights(g, 37, rng);
      int64_t total = 0;
      std::vector<int64_t> row(37);
      while (!rows.done()) {
        const int map = rows.next_map();
        rows.NextRow(row);
        CHECK(row == SplitByLargestRemainder(rows.RowTotal(map), weights, static_cast<size_t>(map) % 37));
        for (int64_t v : row) total += v;
      }
      CHECK(total == (recorded_rows ? 1'003'047 : 123'457));
    }
  }
}

TEST_CASE("StreamShuffleStatistics: streamed and dense paths give identical statistics", "[shuffle][sizes]") {
  struct Case {
    GenerateSizes::Distribution dist;
    double noise;
    int maps, reducers;
    MapStatusMode mode;
  };
  const Case cases[] = {
      {GenerateSizes::Distribution::kZipf, 0.0, 40, 2500, MapStatusMode::kSpark},     // HCMS
      {GenerateSizes::Distribution::kZipf, 0.4, 40, 2500, MapStatusMode::kSpark},     // HCMS, noise
      {GenerateSizes::Distribution::kHotKeys, 0.2, 30, 300, MapStatusMode::kSpark},   // Compressed
      {GenerateSizes::Distribution::kUniform, 0.0, 25, 3000, MapStatusMode::kExact},  // exact
  };
  MapStatusConfig config;
  config.accurate_block_threshold_bytes = 4 << 20;  // so that some blocks are huge
  for (const Case& c : cases) {
    GenerateSizes g;
    g.distribution = c.dist;
    g.noise = c.noise;
    g.exponent = 1.2;
    g.hot_count = 2;
    g.hot_fraction = 0.6;
    const int64_t total = 20'000'000'000;
    const SizeMatrix dense = GenerateSizeMatrix(g, c.maps, c.reducers, total, 99);
    const ReportedShuffleSizes dense_view = ReportedShuffleSizes::FromMatrix(dense, config, c.mode);
    GeneratedRowStream rows(g, c.maps, c.reducers, total, 99);
    const StreamedShuffleStatistics s = StreamShuffleStatistics(&rows, config, c.mode);
    CHECK(rows.done());
    CHECK(s.true_partition_bytes == dense.PartitionBytes());
    CHECK(s.map_bytes == dense.MapBytes());
    CHECK(s.reported.kind() == dense_view.kind());
    CHECK(s.reported.BytesByPartitionId() == dense_view.BytesByPartitionId());
    CHECK(s.reported.DriverMemoryBytes() == dense_view.DriverMemoryBytes());
    CHECK(s.reported.NumHugeBlocks() == dense_view.NumHugeBlocks());
    bool same_blocks = true;
    for (int m = 0; m < c.maps; ++m)
      for (int r = 0; r < c.reducers; ++r)
        same_blocks &= s.reported.SizeForBlock(m, r) == dense_view.SizeForBlock(m, r);
    CHECK(same_blocks);
  }
  // The HCMS case really has huge blocks and the totals are exact.
  GenerateSizes g;
  g.distribution = GenerateSizes::Distribution::kZipf;
  g.exponent = 1.2;
  GeneratedRowStream rows(g, 40, 2500, 20'000'000'000, 99);
  const StreamedShuffleStatistics s = StreamShuffleStatistics(&rows, config, MapStatusMode::kSpark);
  CHECK(s.reported.kind() == MapStatusKind::kHighlyCompressed);
  CHECK(s.reported.NumHugeBlocks() > 0);
  int64_t sum = 0;
  for (int64_t b : s.true_partition_bytes) sum += b;
  CHECK(sum == 20'000'000'000);
}

}  // namespace
}  // namespace aqesim
