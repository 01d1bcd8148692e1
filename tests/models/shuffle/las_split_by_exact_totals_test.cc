// Variant las.splitByExactTotals: a skewed reducer's per-map sizes rebuilt from its exact total,
// then Spark's split by target size; ByteDance's published example.
#include "models/shuffle/las_split_by_exact_totals.h"

#include <catch2/catch.hpp>
#include <numeric>

#include "models/shuffle/map_status.h"
#include "models/shuffle/shuffle_partitions_util.h"

namespace aqesim {
namespace {

constexpr int64_t kMiB = 1LL << 20;

TEST_CASE("MapSizesFromExactTotal: accurate blocks kept, the rest spread with the remainder first",
          "[shuffle][variants]") {
  // Accurate threshold 1000: map 0 (1051) is known; 10000 - 1051 = 8949 over the 3 non-empty
  // others = 2983 each, no remainder; the empty map stays empty.
  CHECK(MapSizesFromExactTotal({1051, 40, 0, 40, 40}, 10000, 1000) ==
        std::vector<int64_t>{1051, 2983, 0, 2983, 2983});
  // 10 over 3: 3 each and the first one more.
  CHECK(MapSizesFromExactTotal({1, 1, 1}, 10, 1000) == std::vector<int64_t>{4, 3, 3});
  // A total below the accurate bytes leaves the others at 0; missing outputs stay -1.
  CHECK(MapSizesFromExactTotal({2000, 5, -1}, 1500, 1000) == std::vector<int64_t>{2000, 0, -1});
  // Every block accurate: nothing to spread.
  CHECK(MapSizesFromExactTotal({1500, 2000}, 9999, 1000) == std::vector<int64_t>{1500, 2000});
}

TEST_CASE("splitByExactTotals: ByteDance's 1 GB reducer, 2 pieces under Spark, 10 with the variant",
          "[shuffle][variants]") {
  // Reducer of 1000 MiB over 100 maps; map 0 wrote 100 MiB (>= accurateBlockThreshold, stored
  // log-encoded: decode(encode(104857600)) = decode(194) = 107196577 B); HCMS reports each
  // other map's average, 1 MiB here. Target 100 MiB (the median reducer).
  const int64_t map0 = DecompressSize(CompressSize(100 * kMiB));
  REQUIRE(map0 == 107196577);
  std::vector<int64_t> spark(100, kMiB);
  spark[0] = map0;
  // Spark: [map 0] | maps 1-99 (99 MiB <= 100 MiB): 2 pieces.
  auto spark_pieces = CreateSkewPartitionSpecs(0, spark, 100 * kMiB);
  REQUIRE(spark_pieces);
  CHECK(spark_pieces->size() == 2);
  // Variant: (1000 MiB - 107196577) = 941379423 B over 99 maps = 9508883 B, the first 6 one
  // byte more; 11 maps = 104597719 B <= 100 MiB, 12 exceed it: maps 1-11, 12-22, ..., 89-99
  // (9 pieces) after map 0 alone: 10 pieces.
  const std::vector<int64_t> sizes = MapSizesFromExactTotal(spark, 1000 * kMiB, 100 * kMiB);
  CHECK(sizes[1] == 9508884);
  CHECK(sizes[7] == 9508883);
  CHECK(std::accumulate(sizes.begin(), sizes.end(), int64_t{0}) == 1000 * kMiB);
  auto pieces = CreateSkewPartitionSpecs(0, sizes, 100 * kMiB);
  REQUIRE(pieces);
  REQUIRE(pieces->size() == 10);
  CHECK(pieces->at(0).start_map_index == 0);
  CHECK(pieces->at(1).start_map_index == 1);
  CHECK(pieces->at(1).end_map_index == 12);
  CHECK(pieces->at(1).data_size_bytes == 104597719);
  CHECK(pieces->at(9).start_map_index == 89);
  CHECK(pieces->at(9).end_map_index == 100);
}

}  // namespace
}  // namespace aqesim
