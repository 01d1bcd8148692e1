// Variant intel.rowCountTargets: where Spark's coalesced partitions pass the record target, the
// run around them packed again by bytes and records.
#include "models/shuffle/intel_row_count_targets.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

constexpr int64_t kMB = 1'000'000;

std::vector<std::pair<int, int>> Ranges(const std::vector<ShufflePartitionSpec>& specs) {
  std::vector<std::pair<int, int>> out;
  for (const ShufflePartitionSpec& s : specs) {
    if (const auto* c = std::get_if<CoalescedPartitionSpec>(&s))
      out.emplace_back(c->start_reducer_index, c->end_reducer_index);
    else
      out.emplace_back(-1, -1);
  }
  return out;
}

TEST_CASE("PackByBytesAndRecords: the header's example, 4 x 8 million records packed 2 + 2",
          "[shuffle][variants]") {
  const std::vector<int64_t> bytes(4, 10 * kMB), records(4, 8'000'000);
  const std::vector<std::vector<ShufflePartitionSpec>> spark{{CoalescedPartitionSpec{0, 4, 40 * kMB}}};
  const auto packed = PackByBytesAndRecords(spark, {&records}, {&bytes}, 64 * kMB, 20'000'000);
  REQUIRE(packed.size() == 1);
  // 8 + 8 = 16 million fits; a third reducer would make 24 million > 20 million.
  CHECK(Ranges(packed[0]) == std::vector<std::pair<int, int>>{{0, 2}, {2, 4}});
  CHECK(std::get<CoalescedPartitionSpec>(packed[0][0]).data_size_bytes == 20 * kMB);
  SECTION("exactly at the target stays together: 2 x 10 million = 20 million") {
    const std::vector<int64_t> ten(4, 10'000'000);
    CHECK(Ranges(PackByBytesAndRecords(spark, {&ten}, {&bytes}, 64 * kMB, 20'000'000)[0]) ==
          std::vector<std::pair<int, int>>{{0, 2}, {2, 4}});
  }
  SECTION("no partition past the record target: Spark's specs as they are") {
    const std::vector<int64_t> few(4, 1'000);
    CHECK(PackByBytesAndRecords(spark, {&few}, {&bytes}, 64 * kMB, 20'000'000) == spark);
  }
}

TEST_CASE(
    "PackByBytesAndRecords: Spark's 5-reducer partitions of 10 million records each, packed 2 + 2 + 2 ...",
    "[shuffle][variants]") {
  // 10 reducers of 12 MB and 10 million records; Spark packed [0,5) and [5,10) (60 MB each, 64 MB
  // target). Cutting Spark's ranges alone would give 2 + 2 + 1 twice (6 partitions); packing the
  // run again gives 5 partitions of 2 reducers (24 MB, 20 million records).
  const std::vector<int64_t> bytes(10, 12 * kMB), records(10, 10'000'000);
  const std::vector<std::vector<ShufflePartitionSpec>> spark{
      {CoalescedPartitionSpec{0, 5, 60 * kMB}, CoalescedPartitionSpec{5, 10, 60 * kMB}}};
  CHECK(Ranges(PackByBytesAndRecords(spark, {&records}, {&bytes}, 64 * kMB, 20'000'000)[0]) ==
        std::vector<std::pair<int, int>>{{0, 2}, {2, 4}, {4, 6}, {6, 8}, {8, 10}});
  SECTION("the byte target still binds: 3 records-light reducers of 30 MB pack 2 a partition") {
    const std::vector<int64_t> b30{30 * kMB, 30 * kMB, 30 * kMB, 1 * kMB}, r{1, 1, 30'000'000, 1};
    const std::vector<std::vector<ShufflePartitionSpec>> s{
        {CoalescedPartitionSpec{0, 2, 60 * kMB}, CoalescedPartitionSpec{2, 4, 31 * kMB}}};
    // [2,4) holds 30 million records > 20 million: the run is packed again. 0: 30 MB; 1: 60 MB
    // fits 64 MB; 2: 90 MB > 64 MB -> new; 3: 30 M + 1 records > 20 M -> new.
    CHECK(Ranges(PackByBytesAndRecords(s, {&r}, {&b30}, 64 * kMB, 20'000'000)[0]) ==
          std::vector<std::pair<int, int>>{{0, 2}, {2, 3}, {3, 4}});
  }
}

TEST_CASE("PackByBytesAndRecords: two shuffles get the same ranges, skew splits stay, heavy reducers alone",
          "[shuffle][variants]") {
  // Records summed per reducer: 5+5, 30+0, 2+2, 2+2 million; target 12 million. Reducer 0 is a
  // skew split (kept); the run [1, 4): reducer 1 alone (30 M), then [2, 4) (8 M).
  const std::vector<int64_t> ra{5'000'000, 30'000'000, 2'000'000, 2'000'000};
  const std::vector<int64_t> rb{5'000'000, 0, 2'000'000, 2'000'000};
  const std::vector<int64_t> ba{1, 2, 3, 4}, bb{10, 20, 30, 40};
  const std::vector<std::vector<ShufflePartitionSpec>> spark{
      {PartialReducerPartitionSpec{0, 0, 1, 1}, CoalescedPartitionSpec{1, 4, 9}},
      {CoalescedPartitionSpec{0, 1, 10}, CoalescedPartitionSpec{1, 4, 90}}};
  const auto packed = PackByBytesAndRecords(spark, {&ra, &rb}, {&ba, &bb}, 1'000'000, 12'000'000);
  REQUIRE(packed.size() == 2);
  CHECK(Ranges(packed[0]) == std::vector<std::pair<int, int>>{{-1, -1}, {1, 2}, {2, 4}});
  CHECK(Ranges(packed[1]) == std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 4}});
  // Each piece's bytes are its own shuffle's.
  CHECK(std::get<CoalescedPartitionSpec>(packed[0][2]).data_size_bytes == 3 + 4);
  CHECK(std::get<CoalescedPartitionSpec>(packed[1][2]).data_size_bytes == 30 + 40);
  SECTION("a split on the second shuffle only is kept too") {
    const std::vector<std::vector<ShufflePartitionSpec>> right_split{
        {CoalescedPartitionSpec{0, 1, 1}, CoalescedPartitionSpec{0, 1, 1}, CoalescedPartitionSpec{1, 4, 9}},
        {PartialReducerPartitionSpec{0, 0, 1, 5}, PartialReducerPartitionSpec{0, 1, 2, 5},
         CoalescedPartitionSpec{1, 4, 90}}};
    const auto p = PackByBytesAndRecords(right_split, {&ra, &rb}, {&ba, &bb}, 1'000'000, 12'000'000);
    CHECK(Ranges(p[0]) == std::vector<std::pair<int, int>>{{0, 1}, {0, 1}, {1, 2}, {2, 4}});
    CHECK(Ranges(p[1]) == std::vector<std::pair<int, int>>{{-1, -1}, {-1, -1}, {1, 2}, {2, 4}});
  }
}

}  // namespace
}  // namespace aqesim
