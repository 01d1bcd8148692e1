// Reconstruction of the blocks behind an AQE coalesced read. Encoded sizes computed by hand:
// decode(code) = floor(1.1^code): 189 (55), 207 (56), 276 (59), 304 (60), 334 (61);
// a block of 290 or 300 bytes encodes to 60 (ln 300 / ln 1.1 = 59.8), 305 to 61.
#include "tools/eventlog/coalesced_read_sizes.h"

#include <catch2/catch.hpp>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "models/shuffle/map_status.h"

namespace aqesim::eventlog {
namespace {

using Blocks = std::vector<std::vector<int64_t>>;

int64_t RowSum(const std::vector<int64_t>& row, int from, int to) {
  return std::accumulate(row.begin() + from, row.begin() + to, int64_t{0});
}

TEST_CASE("EstimateGroupStarts: lengths in proportion to the driver sizes", "[eventlog][coalesced]") {
  // 32 reducers over sizes 100, 100, 90, 30 (of 320): 10, 10, 9, 3 reducers.
  CHECK(EstimateGroupStarts({100, 100, 90, 30}, 32) == std::vector<int>{0, 10, 20, 29});
  // dynamic_alloc SQL execution 2, both sides summed: groups of 10 (5198530 B), 9 (4688192 B)
  // and the last 3 (1556964 B) of 200 reducers.
  std::vector<int64_t> exec2 = {2599265, 2599265, 2599265, 2599265, 2594940, 2599265, 2599265,
                                2599265, 2594940, 2599265, 2344096, 2594940, 2599265, 2599265,
                                2344096, 2348421, 2594940, 2599265, 2599265, 2599265, 778482};
  for (auto& v : exec2) v *= 2;
  const std::vector<int> starts = EstimateGroupStarts(exec2, 200);
  REQUIRE(starts.size() == 21);
  std::vector<int> lengths;
  for (size_t g = 0; g < starts.size(); ++g)
    lengths.push_back((g + 1 < starts.size() ? starts[g + 1] : 200) - starts[g]);
  CHECK(lengths ==
        std::vector<int>{10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 9, 10, 10, 10, 9, 9, 10, 10, 10, 10, 3});
}

TEST_CASE("EstimateGroupStarts: every spec covers a reducer; ties to the lower index",
          "[eventlog][coalesced]") {
  // Exact lengths 0, 2, 2: the empty spec takes one reducer from the first longest.
  CHECK(EstimateGroupStarts({0, 50, 50}, 4) == std::vector<int>{0, 1, 2});
  // All zero: equal shares 2.5 each, the odd reducer to the first.
  CHECK(EstimateGroupStarts({0, 0}, 5) == std::vector<int>{0, 3});
  CHECK(EstimateGroupStarts({1, 1, 1}, 2).empty());  // more specs than reducers
  CHECK(EstimateGroupStarts({}, 10).empty());
}

TEST_CASE("ReconstructCoalescedBlocks: a raise at the group's first reducer", "[eventlog][coalesced]") {
  // Maps 1000 + 1000 B over 4 reducers in groups [0,2) and [2,4) that read 1200 and 800 B:
  // 300 B and 200 B blocks, encoded 304 and 207, so the groups encode to 1216 and 828.
  const std::vector<int64_t> maps = {1000, 1000};
  const Blocks plain = ReconstructCoalescedBlocks(maps, {0, 2}, 4, {1200, 800}, {1216, 828});
  CHECK(plain == Blocks{{300, 300, 200, 200}, {300, 300, 200, 200}});
  CHECK(EncodedGroupBytes(plain, {0, 2}) == std::vector<int64_t>{1216, 828});
  // Spark's driver saw 1246 = 1216 + (334 - 304): one block one step up. Map 0's first block
  // goes to 305 B (code 61), its second gives the 5 bytes and keeps code 60.
  const Blocks raised = ReconstructCoalescedBlocks(maps, {0, 2}, 4, {1200, 800}, {1246, 828});
  CHECK(raised == Blocks{{305, 295, 200, 200}, {300, 300, 200, 200}});
  CHECK(EncodedGroupBytes(raised, {0, 2}) == std::vector<int64_t>{1246, 828});
  // A step that does not fit under the recorded size is not taken (1245 < 1246).
  const Blocks under = ReconstructCoalescedBlocks(maps, {0, 2}, 4, {1200, 800}, {1245, 828});
  CHECK(under == plain);
  // Without driver sizes (HighlyCompressedMapStatus): the even split only.
  CHECK(ReconstructCoalescedBlocks(maps, {0, 2}, 4, {1200, 800}, {}) == plain);
}

TEST_CASE("ReconstructCoalescedBlocks: a lowering at the group's last reducer", "[eventlog][coalesced]") {
  // One map, 870 B, one group of 3 reducers: 290 B blocks encoded 304 each (912). Spark saw
  // 884 = 912 - (304 - 276): the last block drops to 276 B (code 59), its 14 bytes go to the
  // first block (304 B: still code 60).
  const Blocks b = ReconstructCoalescedBlocks({870}, {0}, 3, {870}, {884});
  CHECK(b == Blocks{{304, 290, 276}});
  CHECK(EncodedGroupBytes(b, {0}) == std::vector<int64_t>{884});
}

TEST_CASE("ReconstructCoalescedBlocks: margins stay exact", "[eventlog][coalesced]") {
  const std::vector<int64_t> maps = {8490586, 8362147, 8363594};
  const std::vector<int> starts = {0, 10, 19};
  const std::vector<int64_t> groups = {10600000, 9400000, 25216327 - 10600000 - 9400000};
  const Blocks b = ReconstructCoalescedBlocks(maps, starts, 25, groups, {11300000, 9900000, 5600000});
  REQUIRE(b.size() == 3);
  for (size_t m = 0; m < maps.size(); ++m) CHECK(RowSum(b[m], 0, 25) == maps[m]);
  int64_t g0 = 0, g1 = 0, g2 = 0;
  for (const auto& row : b) {
    g0 += RowSum(row, 0, 10);
    g1 += RowSum(row, 10, 19);
    g2 += RowSum(row, 19, 25);
    for (int64_t v : row) CHECK(v > 0);
  }
  CHECK(g0 == groups[0]);
  CHECK(g1 == groups[1]);
  CHECK(g2 == groups[2]);
  // Encoded sums never exceed what Spark recorded once reachable.
  const std::vector<int64_t> enc = EncodedGroupBytes(b, starts);
  CHECK(enc[0] <= 11300000);
  CHECK(enc[1] <= 9900000);
  CHECK(enc[2] <= 5600000);
}

TEST_CASE(
    "EstimateReportedSizeRatio: 1 when the bytes read explain the driver sizes, else the largest ratio that "
    "fits",
    "[eventlog][coalesced]") {
  // The 300 / 200 B blocks of the first case: Spark's MapStatus of them totals 2044 (within
  // [2000, 2200]): ratio 1.
  const std::vector<int64_t> maps = {1000, 1000};
  CHECK(EstimateReportedSizeRatio(maps, {0, 2}, 4, {1200, 800}, {1216, 828}) == 1.0);
  // A build reporting twice the bytes: 600 B encodes to 652 (code 68), 400 B to 405 (code
  // 63), so the driver saw 4 x 652 + 4 x 405 = 4228. Every ratio keeping round(r x 300) <= 652
  // and round(r x 200) <= 405 gives the same total; the largest is just under 405.5 / 200 =
  // 2.0275, i.e. 2.027 to 4 digits, rounded down.
  const double r = EstimateReportedSizeRatio(maps, {0, 2}, 4, {1200, 800}, {2608, 1620});
  CHECK(r == 2.027);
  const Blocks b = ReconstructCoalescedBlocks(maps, {0, 2}, 4, {1200, 800}, {2608, 1620}, r);
  CHECK(b == Blocks{{300, 300, 200, 200}, {300, 300, 200, 200}});
  CHECK(EncodedGroupBytes(b, {0, 2}, r) == std::vector<int64_t>{2608, 1620});
  // A corrupt log's driver sizes near 2^63 (their sum beyond it): no wrap, the largest ratio.
  const double huge =
      EstimateReportedSizeRatio(maps, {0, 2}, 4, {1200, 800}, {INT64_MAX / 2, INT64_MAX / 2 + 5});
  CHECK(huge >= 9.999e5);
  CHECK(huge <= 1e6);
  // Below the bytes read (impossible for Spark's encoding, which never rounds down): < 1.
  const double low = EstimateReportedSizeRatio(maps, {0, 2}, 4, {1200, 800}, {900, 600});
  CHECK(low < 1.0);
  CHECK(low > 1500.0 / 2000 / 1.1);
}

TEST_CASE(
    "ReconstructCoalescedBlocks: with a reported size ratio, margins stay exact and groups approach Spark's",
    "[eventlog][coalesced]") {
  // join_agg-like: 3 maps, 60 reducers in 3 groups; the driver saw 2.6 x 1.05 the bytes read.
  const std::vector<int64_t> maps = {2230000, 2229000, 2230106};
  const std::vector<int> starts = {0, 22, 41};
  const std::vector<int64_t> groups = {2500000, 2300000, 6689106 - 2500000 - 2300000};
  std::vector<int64_t> driver;
  for (int64_t g : groups) driver.push_back(static_cast<int64_t>(static_cast<double>(g) * 2.6 * 1.05));
  const double r = EstimateReportedSizeRatio(maps, starts, 60, groups, driver);
  CHECK(r > 2.6 * 1.05 / 1.1);
  CHECK(r < 2.6 * 1.05);
  const Blocks b = ReconstructCoalescedBlocks(maps, starts, 60, groups, driver, r);
  for (size_t m = 0; m < maps.size(); ++m) CHECK(RowSum(b[m], 0, 60) == maps[m]);
  const std::vector<int> ends = {22, 41, 60};
  for (size_t g = 0; g < groups.size(); ++g) {
    int64_t sum = 0;
    for (const auto& row : b) sum += RowSum(row, starts[g], ends[g]);
    CHECK(sum == groups[g]);
  }
  const std::vector<int64_t> enc = EncodedGroupBytes(b, starts, r);
  for (size_t g = 0; g < groups.size(); ++g) {
    INFO("group " << g << ": encoded " << enc[g] << ", Spark " << driver[g]);
    CHECK(enc[g] <= driver[g]);
    CHECK(enc[g] * 100 >= driver[g] * 99);
  }
}

TEST_CASE("ReconstructCoalescedBlocks: inconsistent input is an error", "[eventlog][coalesced]") {
  CHECK_THROWS_AS(ReconstructCoalescedBlocks({100}, {0, 2}, 4, {50, 40}, {}),
                  std::invalid_argument);  // 90 != 100
  CHECK_THROWS_AS(ReconstructCoalescedBlocks({100}, {0, 2}, 4, {100}, {}),
                  std::invalid_argument);  // 2 starts, 1 size
  CHECK_THROWS_AS(ReconstructCoalescedBlocks({100}, {1, 2}, 4, {50, 50}, {}),
                  std::invalid_argument);  // not from 0
  CHECK_THROWS_AS(ReconstructCoalescedBlocks({100}, {0, 4}, 4, {50, 50}, {}),
                  std::invalid_argument);  // start == R
}

}  // namespace
}  // namespace aqesim::eventlog
