// Variant intel.skewByRowCount: the row-skew test and Intel–Baidu's even split by map ranges.
#include "models/shuffle/intel_row_count_skew.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

constexpr int64_t kMiB = 1LL << 20;

std::vector<std::pair<int, int>> MapRanges(const std::vector<PartialReducerPartitionSpec>& pieces) {
  std::vector<std::pair<int, int>> out;
  for (const auto& p : pieces) out.emplace_back(p.start_map_index, p.end_map_index);
  return out;
}

TEST_CASE("RowCountSkew: the header's example, 48 million records split into 5 pieces of 2 maps",
          "[shuffle][variants]") {
  std::vector<int64_t> records(5, 3'000'000), bytes(5, 60 * kMiB);
  records[2] = 48'000'000;
  const RowCountSkew skew(records, bytes, RowCountSkewParams{});
  CHECK(skew.median_records() == 3'000'000);
  CHECK(skew.median_bytes() == 60 * kMiB);
  CHECK(skew.IsSkewed(2));  // 48 M > 5 x 3 M = 15 M and > 10 M
  CHECK_FALSE(skew.IsSkewed(0));
  const std::vector<int64_t> maps(10, 6 * kMiB);
  const auto pieces = skew.Split(2, maps);
  REQUIRE(pieces);
  // n = min(5, max(60/60 = 1, 48/3 = 16), 10) = 5; 10 / 5 = 2 maps each.
  CHECK(MapRanges(*pieces) == std::vector<std::pair<int, int>>{{0, 2}, {2, 4}, {4, 6}, {6, 8}, {8, 10}});
  CHECK((*pieces)[0].data_size_bytes == 12 * kMiB);
  CHECK((*pieces)[0].reducer_index == 2);
  CHECK_FALSE(skew.Split(0, maps));
}

TEST_CASE("RowCountSkew: both conditions needed; the factor and the maps bound the pieces",
          "[shuffle][variants]") {
  SECTION("above 5 x the median but not above the threshold: not skewed") {
    const RowCountSkew skew({1'000, 1'000, 9'000'000}, {1, 1, 1}, RowCountSkewParams{});
    CHECK_FALSE(skew.IsSkewed(2));  // 9 M > 5 x 1000 but not > 10 M
  }
  SECTION("above the threshold but not 5 x the median: not skewed") {
    const RowCountSkew skew({20'000'000, 20'000'000, 90'000'000}, {1, 1, 1}, RowCountSkewParams{});
    CHECK_FALSE(skew.IsSkewed(2));  // 90 M is 4.5 x the median
  }
  SECTION("records 7 x the median: 7 pieces allowed by maxSplits 10; 7 maps over 3: 2, 2, 3") {
    RowCountSkewParams p;
    p.max_splits = 10;
    p.row_count_threshold = 0;
    const RowCountSkew skew({1'000, 1'000, 7'000}, {5, 5, 5}, p);
    const std::vector<int64_t> maps{1, 1, 1, 1, 1, 1, 1};
    // n = min(10, max(1, 7), 7 maps) = 7: one map each.
    REQUIRE(skew.Split(2, maps));
    CHECK(skew.Split(2, maps)->size() == 7);
    // Over 3 maps: n = 3, one map each; over 7 maps with maxSplits 3: 2, 2, then the last 3.
    CHECK(skew.Split(2, std::vector<int64_t>{1, 1, 1})->size() == 3);
    p.max_splits = 3;
    const RowCountSkew three({1'000, 1'000, 7'000}, {5, 5, 5}, p);
    CHECK(MapRanges(*three.Split(2, maps)) == std::vector<std::pair<int, int>>{{0, 2}, {2, 4}, {4, 7}});
  }
  SECTION("one map, or a missing map output: no split") {
    RowCountSkewParams p;
    p.row_count_threshold = 0;
    const RowCountSkew skew({1, 1, 100}, {5, 5, 5}, p);
    CHECK_FALSE(skew.Split(2, std::vector<int64_t>{9}));
    CHECK_FALSE(skew.Split(2, std::vector<int64_t>{9, -1, 9}));
  }
}

}  // namespace
}  // namespace aqesim
