// Variant las.exactReducerTotals: the driver's exact per-reducer totals and what they cost.
#include "models/shuffle/las_exact_reducer_totals.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

TEST_CASE("AccumulateExactReducerTotals: column sums, 8 bytes a reducer, one decode a block",
          "[shuffle][variants]") {
  SizeMatrix m(2, 3);
  m.at(0, 0) = 100;
  m.at(0, 1) = 0;
  m.at(0, 2) = 7;
  m.at(1, 0) = 50;
  m.at(1, 1) = 1;
  m.at(1, 2) = 0;
  const ExactReducerTotals t = AccumulateExactReducerTotals(ShuffleSizes(m), 1.0);
  CHECK(t.bytes_by_partition_id == std::vector<int64_t>{150, 1, 7});
  CHECK(t.driver_bytes == 16 + 8 * 3);
  CHECK(t.decompressed_blocks == 6);
  // reportedSizeRatio 2.5: each block as the map reports it, max(1, llround(2.5 x bytes)).
  const ExactReducerTotals scaled = AccumulateExactReducerTotals(ShuffleSizes(m), 2.5);
  CHECK(scaled.bytes_by_partition_id == std::vector<int64_t>{250 + 125, 3, 18});
}

TEST_CASE("AccumulateExactReducerTotals: sees the block HighlyCompressedMapStatus averages away",
          "[shuffle][variants]") {
  // 3 reducers > minNumPartitionsToHighlyCompress 2: HCMS; every block below 100 MiB is the
  // map's average, so reducer 0's 90 bytes per map look like 32 (= (90 + 3 + 3) / 3).
  SizeMatrix m(2, 3);
  for (int map = 0; map < 2; ++map) {
    m.at(map, 0) = 90;
    m.at(map, 1) = 3;
    m.at(map, 2) = 3;
  }
  MapStatusConfig config;
  config.min_num_partitions_to_highly_compress = 2;
  const ReportedShuffleSizes spark = ReportedShuffleSizes::FromMatrix(m, config, MapStatusMode::kSpark);
  CHECK(spark.kind() == MapStatusKind::kHighlyCompressed);
  CHECK(spark.BytesByPartitionId() == std::vector<int64_t>{64, 64, 64});
  CHECK(AccumulateExactReducerTotals(ShuffleSizes(m), 1.0).bytes_by_partition_id ==
        std::vector<int64_t>{180, 6, 6});
}

}  // namespace
}  // namespace aqesim
