// executeTake's jobs (SparkPlan.executeTake) against a recorded show() and hand-computed cases.
#include "models/engine/execute_take.h"

#include <catch2/catch.hpp>
#include <vector>

namespace aqesim {
namespace {

TEST_CASE("ExecuteTake: the recorded show() of tasks_executors_fail runs 1, 4, 20, 100, 75 partitions",
          "[engine][take]") {
  // corpus/tasks_executors_fail_compressed_eventlog.zstd, SQL execution 1 ("show at
  // <console>:33", plan root "CollectLimit 21", line 458 of the decompressed log): jobs 1-5 (lines
  // 459, 893, 905, 949, 1153) run result stages 5, 8, 11, 14, 17 of 1, 4, 20, 100 and 75 tasks over
  // the 200 partitions of one shuffle. The tasks that read a record (Shuffle Records Read > 0):
  // line 944 stage 11 index 16 (partition 5 + 16 = 21); lines 970, 1028, 1058, 1146, 1148, 1149,
  // 1150 stage 14 indexes 23, 46, 39, 57, 4, 81, 68 (partitions 25 + index); lines 1184, 1299,
  // 1304 stage 17 indexes 53, 31 (2 records), 66 (partitions 125 + index). One output row per
  // record (the final aggregate groups by the shuffle's keys): 12 rows, fewer than 21, so every
  // partition is read. By hand: 1 partition, nothing -> 1 x 4 = 4; still nothing after 5 -> 20;
  // 1 row after 25: min(ceil(1.5 x 20 x 25 / 1) = 750, 25 x 4 = 100) = 100; 8 rows after 125:
  // min(ceil(1.5 x 13 x 125 / 8) = 305, 500) = 305, capped at the 75 left.
  std::vector<int64_t> rows(200, 0);
  rows[21] = 1;
  for (int index : {23, 46, 39, 57, 4, 81, 68}) rows[25 + index] = 1;
  rows[125 + 53] = 1;
  rows[125 + 31] = 2;
  rows[125 + 66] = 1;
  const std::vector<TakeJob> jobs = ExecuteTakeJobs(TakeSettings{21, 1, 4}, rows);
  REQUIRE(jobs == std::vector<TakeJob>{{0, 1}, {1, 4}, {5, 20}, {25, 100}, {125, 75}});
}

TEST_CASE("ExecuteTake: interpolates once rows are found and stops at the limit", "[engine][take]") {
  // 100 partitions of 3 rows, limit 10: job 1 reads partition 0 (3 rows); left 7:
  // min(ceil(1.5 x 7 x 1 / 3) = 4, 1 x 4) = 4 -> partitions 1-4 give 12 more (kept: 7) -> done.
  const std::vector<int64_t> rows(100, 3);
  REQUIRE(ExecuteTakeJobs(TakeSettings{10, 1, 4}, rows) == std::vector<TakeJob>{{0, 1}, {1, 4}});
  // The interpolation below the cap: limit 100, 1 row per partition after an initial 10
  // partitions: left 90 -> ceil(1.5 x 90 x 10 / 10) = 135 > 10 x 4 = 40 -> 40; then 50 rows,
  // left 50 -> ceil(1.5 x 50 x 50 / 50) = 75 < 200 -> 75: 100 rows after 125 of the 1000.
  const std::vector<int64_t> ones(1000, 1);
  REQUIRE(ExecuteTakeJobs(TakeSettings{100, 10, 4}, ones) ==
          std::vector<TakeJob>{{0, 10}, {10, 40}, {50, 75}});
  // A partition returns at most `limit` rows: one partition of 10^6 rows satisfies a limit of 5.
  REQUIRE(ExecuteTakeJobs(TakeSettings{5, 1, 4}, {1000000, 7, 7}) == std::vector<TakeJob>{{0, 1}});
}

TEST_CASE("ExecuteTake: scale-up factor at least 2, no job for limit 0 or no partition", "[engine][take]") {
  // Empty partitions: 1, then 1 x max(1, 2) = 2, then 3 x 2 = 6, capped at the 4 left.
  REQUIRE(ExecuteTakeJobs(TakeSettings{5, 1, 1}, std::vector<int64_t>(7, 0)) ==
          std::vector<TakeJob>{{0, 1}, {1, 2}, {3, 4}});
  REQUIRE(ExecuteTakeJobs(TakeSettings{0, 1, 4}, {5, 5}).empty());
  REQUIRE(ExecuteTakeJobs(TakeSettings{5, 1, 4}, {}).empty());
}

TEST_CASE("ExecuteTake: rows spread in proportion to bytes sum to the total", "[engine][take]") {
  // 12 rows over bytes 0, 81, 0, 164, 83 (total 328): cumulative 0, 2.96, 2.96, 8.96, 12 -> rounded
  // 0, 3, 3, 9, 12 -> 0, 3, 0, 6, 3.
  REQUIRE(RowsInProportion(12, {0, 81, 0, 164, 83}) == std::vector<int64_t>{0, 3, 0, 6, 3});
  // Nothing read anywhere: even. 5 rows over 4 partitions: 1.25, 2.5, 3.75, 5 -> 1, 3, 4, 5 -> 1, 2, 1, 1.
  REQUIRE(RowsInProportion(5, {0, 0, 0, 0}) == std::vector<int64_t>{1, 2, 1, 1});
  REQUIRE(RowsInProportion(0, {4, 4}) == std::vector<int64_t>{0, 0});
}

}  // namespace
}  // namespace aqesim
