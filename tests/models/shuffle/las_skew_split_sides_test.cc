// SplitSkewedSides (las_skew_split_sides.h): Spark's per-join split generalised to N reads of one
// stage. Sizes by hand: four maps x five reducers of 25 B, reducer 2 "hot" (4 x 250 B = 1000 B):
// median 100 B, threshold max(300 B, 5 x 100 B) = 500 B, target max(50 B, 100 B) = 100 B.
#include "models/shuffle/las_skew_split_sides.h"

#include <catch2/catch.hpp>

#include "tests/models/shuffle/spark_vectors.h"

namespace aqesim {
namespace {

using testing::ToString;

SkewJoinParams Params() {
  SkewJoinParams p;
  p.advisory_partition_size_bytes = 50;
  p.skewed_partition_factor = 5.0;
  p.skewed_partition_threshold_bytes = 300;
  return p;
}

/// A side of five reducers of 100 B (4 maps x 25 B) except reducer 2, whose maps write `hot`.
SkewSplitSide Side(const std::string& id, int64_t hot, bool splittable) {
  SkewSplitSide s;
  s.id = id;
  s.bytes_by_partition_id = {100, 100, 4 * hot, 100, 100};
  s.map_sizes = [hot](int r) { return std::vector<int64_t>(4, r == 2 ? hot : 25); };
  s.splittable = splittable;
  return s;
}

const char* kWhole2 = "C(2,3,100)";

TEST_CASE("SplitSkewedSides: two sides give Spark's SplitSkewedJoin, spec for spec",
          "[shuffle][skew][variants]") {
  const SkewSplitSide l = Side("l", 250, true), r = Side("r", 300, true);
  const SkewSplitSidesResult n = SplitSkewedSides({l, r}, Params());
  const SkewJoinSplitResult spark = SplitSkewedJoin(
      JoinType::kInner, l.bytes_by_partition_id, r.bytes_by_partition_id, l.map_sizes, r.map_sizes, Params());
  REQUIRE(n.split());
  REQUIRE(spark.specs);
  CHECK(n.specs[0] == spark.specs->left);
  CHECK(n.specs[1] == spark.specs->right);
  // 4 left pieces x 4 right pieces at reducer 2, one task for each other reducer.
  CHECK(n.num_tasks() == 20);
}

TEST_CASE("SplitSkewedSides: one skewed read of three is split, the others read whole by each piece",
          "[shuffle][skew][variants]") {
  const SkewSplitSidesResult res =
      SplitSkewedSides({Side("a", 250, true), Side("b", 25, true), Side("c", 25, true)}, Params());
  REQUIRE(res.split());
  CHECK(res.num_tasks() == 8);  // reducers 0, 1, 3, 4 + 4 pieces of reducer 2
  CHECK(ToString(res.specs[0]) ==
        "[C(0,1,100) C(1,2,100) PR(2,0,1,250) PR(2,1,2,250) PR(2,2,3,250) PR(2,3,4,250) C(3,4,100) "
        "C(4,5,100)]");
  for (int side : {1, 2})
    CHECK(ToString(res.specs[side]) ==
          "[C(0,1,100) C(1,2,100) C(2,3,100) C(2,3,100) C(2,3,100) C(2,3,100) C(3,4,100) C(4,5,100)]");
  CHECK(res.sides[0].stats.threshold == 500);
  CHECK(res.sides[0].stats.target == 100);
  REQUIRE(res.sides[0].splits.size() == 1);
  CHECK(res.sides[0].splits[0].num_pieces == 4);
  CHECK(res.sides[1].splits.empty());
  CHECK(res.sides[2].splits.empty());
}

TEST_CASE("SplitSkewedSides: two skewed reads at one reducer run every combination, first side major",
          "[shuffle][skew][variants]") {
  // a: 4 pieces of 250 B; c: 600 B per map -> 4 pieces; b read whole: 4 x 4 = 16 tasks for reducer 2.
  const SkewSplitSidesResult res =
      SplitSkewedSides({Side("a", 250, true), Side("b", 25, true), Side("c", 600, true)}, Params());
  REQUIRE(res.split());
  CHECK(res.num_tasks() == 4 + 16);
  // Task 2..5: a's piece 0 with c's pieces 0..3; task 6: a's piece 1 with c's piece 0.
  CHECK(ToString(std::vector<ShufflePartitionSpec>{res.specs[0][2], res.specs[0][5], res.specs[0][6]}) ==
        "[PR(2,0,1,250) PR(2,0,1,250) PR(2,1,2,250)]");
  CHECK(ToString(std::vector<ShufflePartitionSpec>{res.specs[2][2], res.specs[2][5], res.specs[2][6]}) ==
        "[PR(2,0,1,600) PR(2,3,4,600) PR(2,0,1,600)]");
  CHECK(ToString(std::vector<ShufflePartitionSpec>{res.specs[1][2], res.specs[1][17]}) ==
        std::string("[") + kWhole2 + " " + kWhole2 + "]");
}

TEST_CASE("SplitSkewedSides: a side that may not be split is never split", "[shuffle][skew][variants]") {
  const SkewSplitSidesResult res = SplitSkewedSides({Side("a", 25, true), Side("agg", 250, false)}, Params());
  CHECK_FALSE(res.split());
  CHECK(res.reason == "no skewed partition could be split");
  SkewSplitSide short_side = Side("b", 25, true);
  short_side.bytes_by_partition_id.pop_back();
  CHECK(SplitSkewedSides({Side("a", 250, true), short_side}, Params()).reason ==
        "a has 5 partitions, b has 4");
}

}  // namespace
}  // namespace aqesim
