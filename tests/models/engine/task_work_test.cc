// The task work model (models/engine/task_work.h) against hand-computed values: what one task
// of a small stage reads, sorts, builds, probes, writes, and its shares.
#include "models/engine/task_work.h"

#include <catch2/catch.hpp>

#include "tests/support/plan_builder.h"

namespace aqesim {
namespace {

using testing::Matrix;
using testing::PlanBuilder;

/// Everything of a TaskEval but the executor-state fields, as text for one comparison.
std::string Describe(const TaskEval& e) {
  const TaskWork& w = e.work;
  std::string s =
      "scan " + std::to_string(w.scan_bytes.count()) + " local " +
      std::to_string(w.local_shuffle_bytes.count()) + "/" + std::to_string(w.local_fetch_requests) +
      " remote " + std::to_string(w.remote_shuffle_bytes.count()) + "/" +
      std::to_string(w.remote_fetch_requests) + " sort " + std::to_string(w.sort_bytes.count()) + " build " +
      std::to_string(w.hash_build_bytes.count()) + " probe " + std::to_string(w.probe_bytes.count()) +
      " agg " + std::to_string(w.aggregate_bytes.count()) + " stream " +
      std::to_string(w.stream_bytes.count()) + " ws " + std::to_string(w.working_set_bytes.count()) +
      " | in " + std::to_string(e.input_bytes) + " read " + std::to_string(e.shuffle_read_bytes) + " out " +
      std::to_string(e.output_bytes) + " | shares";
  for (auto [p, b] : e.shares) {
    // Appended, not " " + std::string&&: a GCC 12 -Wrestrict false positive (GCC bug 105329).
    s += ' ';
    s += std::to_string(p);
    s += ':';
    s += std::to_string(b);
  }
  return s;
}

TEST_CASE("TaskWorkModel: a scan split and a filter", "[engine][work]") {
  PlanBuilder b;
  auto filter = b.Unary(PlanOp::kFilter, "f", b.Scan("s", 1000, 3));
  PlanBuilder::SourceOf(*filter).selectivity = 0.5;
  TaskWorkModel work(false, 2);
  // 1000 B in 3 splits: 334, 333, 333 (the first 1000 % 3 splits one byte larger).
  CHECK(
      Describe(work.Evaluate(*filter, 0, 0)) ==
      "scan 334 local 0/0 remote 0/0 sort 0 build 0 probe 0 agg 0 stream 334 ws 0 | in 334 read 0 out 167 | "
      "shares 0:334");
  CHECK(work.Evaluate(*filter, 2, 0).work.scan_bytes == Bytes(333));
  SECTION("given split sizes (taskBytes) win") {
    PlanBuilder::SourceOf(filter->child(0)).task_bytes = {100, 700, 200};
    CHECK(work.Evaluate(*filter, 1, 0).work.scan_bytes == Bytes(700));
  }
}

TEST_CASE("TaskWorkModel: a sort-merge join of two reads, local and remote blocks", "[engine][work]") {
  PlanBuilder b;
  auto join = b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", Matrix{{10, 20, 30}, {40, 0, 60}}),
                              b.Shuffle("r", Matrix{{5, 6, 7}}));
  testing::Find(*join, "l").shuffle->data->map_executor = {0, 1};
  testing::Find(*join, "r").shuffle->data->map_executor = {1};
  TaskWorkModel work(/*fetch_in_batch=*/false, 2);
  // Task 1 on executor 0 reads reducer 1: 20 B of l's map 0 (ran there: local), nothing of map
  // 1 (an empty block is no request), 6 B of r's map 0 (executor 1: remote).
  CHECK(Describe(work.Evaluate(*join, 1, 0)) ==
        "scan 0 local 20/1 remote 6/1 sort 26 build 0 probe 26 agg 0 stream 0 ws 26 | in 0 read 26 out 26 | "
        "shares 1:20 1:6");
  // Executor unknown (-1): every byte remote.
  CHECK(Describe(work.Evaluate(*join, 1, -1)).find("local 0/0 remote 26/2") != std::string::npos);
  SECTION("a shuffled hash join builds one side and probes the other") {
    join->join->strategy = JoinStrategy::kShuffledHash;
    join->join->build_side = BuildSide::kRight;
    CHECK(Describe(work.Evaluate(*join, 2, 0)).find("sort 0 build 7 probe 90 agg 0 stream 0 ws 7") !=
          std::string::npos);
  }
}

TEST_CASE("TaskWorkModel: a coalesced read, one request per map and range with fetchShuffleBlocksInBatch",
          "[engine][work]") {
  PlanBuilder b;
  auto agg = b.Unary(PlanOp::kAggregate, "a", b.Shuffle("e", Matrix{{10, 20, 30}, {40, 0, 60}}));
  PlanBuilder::SourceOf(*agg).selectivity = 0.1;
  ExecNode& read = testing::Find(*agg, "e");
  read.shuffle->read_specs = std::vector<ShufflePartitionSpec>{CoalescedPartitionSpec{0, 3, 160}};
  read.shuffle->data->map_executor = {1, 1};
  // 160 B from executor 1's two maps; executor 0 fetches them remotely: 2 blocks in batch, 5
  // non-empty blocks one by one, either way one fetch request to executor 1 (160 B is far below
  // maxSizeInFlight / 5), sent in one round. Read locally, each block is a read of its own.
  // The aggregate keeps 16 B (selectivity 0.1) in memory.
  TaskWorkModel batch(true, 2), blocks(false, 2);
  CHECK(
      Describe(batch.Evaluate(*agg, 0, 0)) ==
      "scan 0 local 0/0 remote 160/1 sort 0 build 0 probe 0 agg 160 stream 0 ws 16 | in 0 read 160 out 16 | "
      "shares 0:50 1:20 2:90");
  CHECK(blocks.Evaluate(*agg, 0, 0).work.remote_fetch_requests == 1);
  CHECK(blocks.Evaluate(*agg, 0, 0).work.remote_fetch_rounds == 1);
  CHECK(blocks.Evaluate(*agg, 0, 1).work.local_fetch_requests == 5);
  CHECK(batch.Evaluate(*agg, 0, 1).work.local_fetch_requests == 2);
  SECTION("maps on two executors: a request per executor; maxBlocksInFlightPerAddress splits them") {
    read.shuffle->data->map_executor = {1, 2};
    TaskWorkModel three(false, 3);
    CHECK(three.Evaluate(*agg, 0, 0).work.remote_fetch_requests == 2);
    FetchLimits limits;
    limits.max_blocks_per_address = 1;
    TaskWorkModel one_block(limits, 3);
    // Map 0 serves 3 blocks, map 1 two: a request each, one block a round from each executor.
    const TaskWork w = one_block.Evaluate(*agg, 0, 0).work;
    CHECK(w.remote_fetch_requests == 5);
    CHECK(w.remote_fetch_rounds == 3);
  }
  CHECK(batch.Evaluate(*agg, 0, 1).work.local_shuffle_bytes == Bytes(160));
  SECTION("the one-pass sums of a finished shuffle equal the per-map loop of an unfinished one") {
    const TaskEval summed = blocks.Evaluate(*agg, 0, 1);
    read.shuffle->data->stage = nullptr;  // the work model then walks the maps one by one
    TaskWorkModel loop(false, 2);
    CHECK(Describe(loop.Evaluate(*agg, 0, 1)) == Describe(summed));
  }
}

TEST_CASE("TaskWorkModel: a broadcast join probes its streamed side, a union shifts partitions",
          "[engine][work]") {
  PlanBuilder b;
  auto bhj = b.Join("j", JoinStrategy::kBroadcastHash, JoinType::kInner, b.Scan("big", 900, 3),
                    b.Scan("small", 50, 1), BuildSide::kRight);
  TaskWorkModel work(false, 1);
  CHECK(
      Describe(work.Evaluate(*bhj, 1, 0)) ==
      "scan 300 local 0/0 remote 0/0 sort 0 build 0 probe 300 agg 0 stream 0 ws 0 | in 300 read 0 out 300 | "
      "shares 1:300");
  std::vector<std::unique_ptr<ExecNode>> children;
  children.push_back(b.Scan("a", 100, 2));
  children.push_back(b.Scan("c", 30, 1));
  auto u = b.Union("u", std::move(children));
  // Task 2 is c's task 0: its partition 0 is the union's partition 2.
  CHECK(Describe(work.Evaluate(*u, 2, 0)) ==
        "scan 30 local 0/0 remote 0/0 sort 0 build 0 probe 0 agg 0 stream 30 ws 0 | in 30 read 0 out 30 | "
        "shares 2:30");
}

TEST_CASE("TaskWorkModel: rows follow bytes, a join's rows its row ratio", "[engine][work]") {
  PlanBuilder b;
  auto filter = b.Unary(PlanOp::kFilter, "f", b.Scan("s", 1000, 3));
  PlanBuilder::SourceOf(*filter).selectivity = 0.5;
  TaskWorkModel work(false, 2);
  // Without rows: one per 100 bytes, 334 B -> 3.34 rows.
  CHECK(work.Evaluate(*filter, 0, 0).work.rows_read == Approx(3.34));
  // 100 rows in 1000 B: split 0 (334 B) reads 33.4 of them.
  PlanBuilder::SourceOf(filter->child(0)).rows = 100;
  CHECK(work.Evaluate(*filter, 0, 0).work.rows_read == Approx(33.4));
  SECTION("a sort-merge join: its rows / both sides' rows x the task's input rows") {
    auto join = b.SortMergeJoin("j", JoinType::kInner, b.Shuffle("l", Matrix{{10, 20, 30}, {40, 0, 60}}),
                                b.Shuffle("r", Matrix{{5, 6, 7}}));
    PlanBuilder::SourceOf(testing::Find(*join, "l")).rows = 16;  // 160 B: 0.1 row/B
    PlanBuilder::SourceOf(testing::Find(*join, "r")).rows = 36;  // 18 B: 2 rows/B
    PlanBuilder::SourceOf(*join).rows = 104;                     // 104 / (16 + 36) = 2
    // Task 1 reads 20 B of l (2 rows) and 6 B of r (12 rows): 14 rows in, 28 out.
    const TaskWork w = work.Evaluate(*join, 1, 0).work;
    CHECK(w.rows_read == Approx(14));
    CHECK(w.join_output_rows == Approx(28));
    SECTION("without the join's rows: the input rows x its selectivity") {
      PlanBuilder::SourceOf(*join).rows.reset();
      PlanBuilder::SourceOf(*join).selectivity = 0.25;
      CHECK(work.Evaluate(*join, 1, 0).work.join_output_rows == Approx(3.5));
    }
  }
}

TEST_CASE("TaskWorkModel: map tasks write their share of each planned row", "[engine][work]") {
  // The stage reads e0 split on reducer 0 (30 B from map 0, 10 B from map 1) and its empty
  // reducer 1; it writes exchange `out`, whose planned rows are the stage's planned partitions.
  PlanBuilder b;
  auto out = b.PendingShuffle("out", b.Shuffle("e0", Matrix{{30, 0}, {10, 0}}), 2);
  ExecNode& read = testing::Find(*out, "e0");
  read.shuffle->read_specs = std::vector<ShufflePartitionSpec>{PartialReducerPartitionSpec{0, 0, 1, 30},
                                                               PartialReducerPartitionSpec{0, 1, 2, 10},
                                                               CoalescedPartitionSpec{1, 2, 0}};
  SizeMatrix planned(2, 2);
  planned.at(0, 0) = 60, planned.at(0, 1) = 40, planned.at(1, 0) = 7;
  out->shuffle->data->planned = ShuffleSizes(planned);
  QueryStage stage;
  stage.output = out.get();
  stage.subtree = &read;
  stage.num_tasks = 3;
  TaskWorkModel work(false, 1);
  auto write = [&](int task) {
    TaskEval e = work.Evaluate(read, task, 0);
    NormalizeShares(&e.shares);
    return work.MapTaskWriteBytes(stage, e.shares, task);
  };
  // Row 0 (100 B) in proportion 30 : 10; row 1 (7 B), of which its reader read nothing, goes
  // whole to the first task reading it.
  CHECK(write(0) == Bytes(75));
  CHECK(write(1) == Bytes(25));
  CHECK(write(2) == Bytes(7));
  SECTION("records written: the exchange's rows in proportion to its planned bytes") {
    // 107 planned bytes; without rows one record per 100 bytes.
    CHECK(work.MapTaskWriteRows(stage, Bytes(75)) == Approx(0.75));
    PlanBuilder::SourceOf(*out).rows = 214;  // 2 records a byte
    TaskWorkModel fresh(false, 1);           // rows per byte are memoised per stage
    CHECK(fresh.MapTaskWriteRows(stage, Bytes(75)) == Approx(150));
  }
}

}  // namespace
}  // namespace aqesim
