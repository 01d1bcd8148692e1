// ShuffleReadSums (models/engine/shuffle_read_sums.h) against hand-computed sums: every spec's
// totals, and the per-executor sums held one block of specs at a time.
#include "models/engine/shuffle_read_sums.h"

#include <catch2/catch.hpp>
#include <vector>

#include "tests/support/plan_builder.h"

namespace aqesim {
namespace {

using testing::Matrix;
using testing::PlanBuilder;

/// (bytes, requests) of spec `j` on `executor`, from sums holding it.
std::vector<int64_t> OnExecutor(const ShuffleReadSums& s, size_t executor, size_t j) {
  REQUIRE(s.HoldsSpec(j));
  return {s.exec_bytes[s.ExecIndex(executor, j)], s.exec_requests[s.ExecIndex(executor, j)]};
}

TEST_CASE("ShuffleReadSums: per-executor sums one block of specs at a time", "[engine][work]") {
  PlanBuilder b;
  // Map 0 ran on executor 0, map 1 on executor 1; the default read: one spec per reducer.
  auto e = b.Shuffle("e", Matrix{{10, 20, 30}, {40, 0, 60}});
  e->shuffle->data->map_executor = {0, 1};
  const ShuffleState& read = *e->shuffle;
  // Executor 0: 10, 20, 30 B in one block each; executor 1: 40, 0 (no block), 60.
  const std::vector<std::vector<int64_t>> expected_e0 = {{10, 1}, {20, 1}, {30, 1}};
  const std::vector<std::vector<int64_t>> expected_e1 = {{40, 1}, {0, 0}, {60, 1}};
  // 12 cells: the whole read in one block, its (executor, reducer) prefix sums in one pass
  // (3 groups × 4); 4 cells: blocks of 2 specs, summed row by row.
  for (size_t max_cells : {size_t{12}, size_t{4}}) {
    CAPTURE(max_cells);
    ShuffleReadSums s;
    SumShuffleRead(read, 2, /*fetch_in_batch=*/false, 0, &s, max_cells);
    CHECK(s.bytes == std::vector<int64_t>{50, 20, 90});
    CHECK(s.requests == std::vector<int64_t>{2, 1, 2});
    CHECK(s.column == std::vector<int64_t>{50, 20, 90});
    CHECK(s.Matches(read));
    const size_t block = ShuffleReadSumsBlockSpecs(2, max_cells);
    CHECK(block == (max_cells == 12 ? 6 : 2));
    CHECK(s.block_begin == 0);
    CHECK(s.block_end == std::min<size_t>(3, block));
    for (size_t j = 0; j < 3; ++j) {
      CAPTURE(j);
      if (!s.HoldsSpec(j)) SumShuffleRead(read, 2, false, j, &s, max_cells);
      CHECK(s.block_begin == j / block * block);
      CHECK(OnExecutor(s, 0, j) == expected_e0[j]);
      CHECK(OnExecutor(s, 1, j) == expected_e1[j]);
      CHECK(s.bytes == std::vector<int64_t>{50, 20, 90});  // every block's pass sums every spec
    }
  }
}

TEST_CASE("ShuffleReadSums: per-executor sums only for the executors that ran maps", "[engine][work]") {
  // 10^6 executors, maps on executors 7 and 999999 (and one on none): two ranks, not 10^6 (every
  // task of a read walked every executor: dynamic allocation with 10^6 executors ran > 120 s).
  PlanBuilder b;
  auto e = b.Shuffle("e", Matrix{{10, 20}, {40, 0}, {1, 2}, {5, 5}});
  e->shuffle->data->map_executor = {999999, 7, 7, -1};
  ShuffleReadSums s;
  SumShuffleRead(*e->shuffle, 1000000, /*fetch_in_batch=*/false, 0, &s);
  CHECK(s.executors == 2);
  CHECK(s.executor_ids == std::vector<int>{7, 999999});
  CHECK(s.RankOf(7) == 0);
  CHECK(s.RankOf(999999) == 1);
  CHECK(s.RankOf(8) == 2);  // ran no map
  CHECK(s.block_end == 2);  // both specs held at once
  CHECK(s.bytes == std::vector<int64_t>{56, 27});
  CHECK(s.requests == std::vector<int64_t>{4, 3});
  CHECK(OnExecutor(s, 0, 0) == std::vector<int64_t>{41, 2});  // executor 7: maps 1 and 2
  CHECK(OnExecutor(s, 0, 1) == std::vector<int64_t>{2, 1});
  CHECK(OnExecutor(s, 1, 0) == std::vector<int64_t>{10, 1});  // executor 999999: map 0
  CHECK(OnExecutor(s, 1, 1) == std::vector<int64_t>{20, 1});
}

}  // namespace
}  // namespace aqesim

namespace aqesim {
namespace {

TEST_CASE("MapperRangeReads: a local read's sums, kept once its shuffle has finished", "[engine][work]") {
  testing::PlanBuilder b;
  auto e = b.Shuffle("e", testing::Matrix{{10, 0, 30}, {40, 5, 0}, {1, 2, 3}});
  MapperRangeReads reads;
  const CoalescedMapperPartitionSpec maps_0_1{0, 2, 3};
  const MapperRangeRead& read = reads.Of(*e->shuffle->data, maps_0_1);
  // Map 0: 40 B in 2 blocks, map 1: 45 B in 2; per reducer 50, 5, 30.
  CHECK(read.maps == std::vector<std::pair<int64_t, int64_t>>{{40, 2}, {45, 2}});
  CHECK(read.column == std::vector<int64_t>{50, 5, 30});
  CHECK(&reads.Of(*e->shuffle->data, maps_0_1) == &read);  // kept: not summed again
  const MapperRangeRead& last = reads.Of(*e->shuffle->data, CoalescedMapperPartitionSpec{2, 3, 3});
  CHECK(last.maps == std::vector<std::pair<int64_t, int64_t>>{{6, 3}});
  CHECK(last.column == std::vector<int64_t>{1, 2, 3});
  SECTION("a shuffle still being written is summed afresh") {
    e->shuffle->data->stage->done = false;
    const MapperRangeRead& now = reads.Of(*e->shuffle->data, maps_0_1);
    CHECK(&now != &read);
    CHECK(now.column == std::vector<int64_t>{50, 5, 30});
  }
}

}  // namespace
}  // namespace aqesim
