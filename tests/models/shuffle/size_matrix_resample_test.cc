// Redistributing a size matrix over another reducer or map-task count (a recorded matrix under a
// what-if's spark.sql.shuffle.partitions), against hand-computed cells.
#include "models/shuffle/size_matrix_resample.h"

#include <catch2/catch.hpp>
#include <vector>

namespace aqesim {
namespace {

SizeMatrix Matrix(const std::vector<std::vector<int64_t>>& rows) {
  SizeMatrix m(static_cast<int>(rows.size()), static_cast<int>(rows.front().size()));
  for (int a = 0; a < m.num_maps(); ++a)
    for (int r = 0; r < m.num_reducers(); ++r) m.at(a, r) = rows[a][r];
  return m;
}

std::vector<int64_t> Row(const SizeMatrix& m, int map) { return {m.row(map).begin(), m.row(map).end()}; }

TEST_CASE("ResampleReducers: a divisor folds reducers as hash partitioning does", "[shuffle][resample]") {
  // pmod(h, 4) mod 2 = pmod(h, 2): reducers 0 and 2 -> 0, 1 and 3 -> 1.
  const SizeMatrix m = Matrix({{10, 20, 30, 40}, {1, 2, 3, 4}});
  const SizeMatrix two = ResampleReducers(m, 2);
  CHECK(Row(two, 0) == std::vector<int64_t>{40, 60});
  CHECK(Row(two, 1) == std::vector<int64_t>{4, 6});
  CHECK(Row(ResampleReducers(m, 1), 0) == std::vector<int64_t>{100});
}

TEST_CASE("ResampleReducers: another count spreads each reducer over the range it overlaps",
          "[shuffle][resample]") {
  // 4 -> 3: old reducer r covers [r/4, (r+1)/4), new q [q/3, (q+1)/3).
  //   r0 [0, .25)    -> q0: 10
  //   r1 [.25, .5)   -> q0 1/3, q1 2/3 of 20: 6.67 / 13.33 -> 7 / 13 (largest remainder)
  //   r2 [.5, .75)   -> q1 2/3, q2 1/3 of 30: 20 / 10
  //   r3 [.75, 1)    -> q2: 40
  const SizeMatrix three = ResampleReducers(Matrix({{10, 20, 30, 40}}), 3);
  CHECK(Row(three, 0) == std::vector<int64_t>{17, 33, 50});
  // 2 -> 4: each reducer halves over the two new ones its range covers.
  CHECK(Row(ResampleReducers(Matrix({{10, 21}}), 4), 0) == std::vector<int64_t>{5, 5, 11, 10});
}

TEST_CASE("ResampleMaps: rows spread or sum like reducers", "[shuffle][resample]") {
  const SizeMatrix m = ResampleMaps(Matrix({{10, 1}, {20, 2}, {30, 3}, {40, 4}}), 2);
  REQUIRE(m.num_maps() == 2);
  CHECK(Row(m, 0) == std::vector<int64_t>{40, 4});  // rows 0 and 2 (4 mod 2 folds like reducers)
  CHECK(Row(m, 1) == std::vector<int64_t>{60, 6});
}

}  // namespace
}  // namespace aqesim
