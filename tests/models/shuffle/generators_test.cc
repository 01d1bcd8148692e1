#include "models/shuffle/generators.h"

#include <catch2/catch.hpp>
#include <numeric>

#include "models/shuffle/sizes_spec.h"

namespace aqesim {
namespace {

bool SameMatrix(const SizeMatrix& a, const SizeMatrix& b) {
  if (a.num_maps() != b.num_maps() || a.num_reducers() != b.num_reducers()) return false;
  for (int m = 0; m < a.num_maps(); ++m)
    for (int r = 0; r < a.num_reducers(); ++r)
      if (a.at(m, r) != b.at(m, r)) return false;
  return true;
}

TEST_CASE("SplitByLargestRemainder: exact totals, remainders to the largest fractions", "[shuffle][sizes]") {
  const std::vector<double> w = {1, 1, 1};
  CHECK(SplitByLargestRemainder(10, w) == std::vector<int64_t>{4, 3, 3});
  CHECK(SplitByLargestRemainder(10, w, 1) == std::vector<int64_t>{3, 4, 3});  // ties rotate
  CHECK(SplitByLargestRemainder(11, w, 2) == std::vector<int64_t>{4, 3, 4});
  const std::vector<double> w2 = {0.5, 0.3, 0.2};
  CHECK(SplitByLargestRemainder(7, w2) == std::vector<int64_t>{4, 2, 1});  // 3.5, 2.1, 1.4 → +1 to the .5
  const std::vector<double> zeros = {0, 0};
  CHECK(SplitByLargestRemainder(5, zeros) == std::vector<int64_t>{3, 2});
  CHECK(SplitByLargestRemainder(0, w) == std::vector<int64_t>{0, 0, 0});
  // Near the top of the int64 range the total is still exact.
  const std::vector<double> w3 = {1, 2, 3, 4, 5, 6, 7};
  const auto big = SplitByLargestRemainder(INT64_MAX - 5, w3);
  int64_t sum = 0;
  for (int64_t v : big) sum += v;
  CHECK(sum == INT64_MAX - 5);
}

TEST_CASE("GenerateSizeMatrix: uniform is even and exact", "[shuffle][sizes]") {
  GenerateSizes g;
  const SizeMatrix m = GenerateSizeMatrix(g, 4, 5, 1003, 7);
  CHECK(m.num_maps() == 4);
  CHECK(m.num_reducers() == 5);
  CHECK(m.TotalBytes() == 1003);
  CHECK(m.MapBytes() == std::vector<int64_t>{251, 251, 251, 250});
  for (int map = 0; map < 4; ++map)
    for (int r = 0; r < 5; ++r) CHECK((m.at(map, r) == 50 || m.at(map, r) == 51));
  // The odd bytes rotate across columns instead of piling onto column 0.
  CHECK(m.PartitionBytes() == std::vector<int64_t>{201, 201, 201, 200, 200});
}

TEST_CASE("GenerateSizeMatrix: deterministic in the seed", "[shuffle][sizes]") {
  GenerateSizes g;
  g.distribution = GenerateSizes::Distribution::kZipf;
  g.exponent = 1.1;
  g.noise = 0.3;
  const SizeMatrix a = GenerateSizeMatrix(g, 20, 50, 1'000'000'007, 42);
  const SizeMatrix b = GenerateSizeMatrix(g, 20, 50, 1'000'000'007, 42);
  const SizeMatrix c = GenerateSizeMatrix(g, 20, 50, 1'000'000'007, 43);
  CHECK(SameMatrix(a, b));
  CHECK_FALSE(SameMatrix(a, c));
  CHECK(a.TotalBytes() == 1'000'000'007);
  CHECK(c.TotalBytes() == 1'000'000'007);
}

TEST_CASE("GenerateSizeMatrix: zipf gives rank k about k^-s of rank 1", "[shuffle][sizes]") {
  GenerateSizes g;
  g.distribution = GenerateSizes::Distribution::kZipf;
  g.exponent = 1.0;
  const SizeMatrix m = GenerateSizeMatrix(g, 1, 4, 2'500'000, 9);
  std::vector<int64_t> cols = m.PartitionBytes();
  std::sort(cols.rbegin(), cols.rend());
  // Weights 1, 1/2, 1/3, 1/4 (sum 25/12): 1.2M, 600k, 400k, 300k.
  CHECK(cols == std::vector<int64_t>{1'200'000, 600'000, 400'000, 300'000});
}

TEST_CASE("GenerateSizeMatrix: hotKeys puts hot_fraction on the hot partitions", "[shuffle][sizes]") {
  GenerateSizes g;
  g.distribution = GenerateSizes::Distribution::kHotKeys;
  g.hot_partitions = {2, 5};
  g.hot_fraction = 0.8;
  const SizeMatrix m = GenerateSizeMatrix(g, 2, 10, 10'000, 1);
  const auto cols = m.PartitionBytes();
  CHECK(cols[2] == 4000);
  CHECK(cols[5] == 4000);
  CHECK(cols[0] == 250);
  CHECK(m.TotalBytes() == 10'000);
  // hot_count picks the partitions by a seeded permutation: same seed, same pick.
  GenerateSizes h;
  h.distribution = GenerateSizes::Distribution::kHotKeys;
  h.hot_count = 1;
  h.hot_fraction = 0.9;
  // 4 rows of 2000 bytes: the hot partition gets 0.9 x 2000 = 1800 of each, the 7 others 200/7.
  const auto a = GenerateSizeMatrix(h, 4, 8, 8000, 5).PartitionBytes();
  const auto b = GenerateSizeMatrix(h, 4, 8, 8000, 5).PartitionBytes();
  CHECK(a == b);
  CHECK(*std::max_element(a.begin(), a.end()) == 7200);
}

TEST_CASE("GenerateSizeMatrix: mapBytes are the row sums", "[shuffle][sizes]") {
  GenerateSizes g;
  g.map_bytes = std::vector<int64_t>{100, 0, 7, 900};
  g.noise = 0.5;
  const SizeMatrix m = GenerateSizeMatrix(g, 4, 3, 0, 3);
  CHECK(m.MapBytes() == std::vector<int64_t>{100, 0, 7, 900});
}

TEST_CASE("FitMarginals: both margins hold exactly", "[shuffle][sizes]") {
  SECTION("small") {
    const std::vector<int64_t> rows = {10, 0, 7, 3}, cols = {5, 5, 5, 5};
    const SizeMatrix m = FitMarginals(rows, cols);
    CHECK(m.MapBytes() == rows);
    CHECK(m.PartitionBytes() == cols);
  }
  SECTION("outer product when it is integral") {
    const SizeMatrix m = FitMarginals({30, 10}, {20, 20});
    CHECK(m.at(0, 0) == 15);
    CHECK(m.at(0, 1) == 15);
    CHECK(m.at(1, 0) == 5);
    CHECK(m.at(1, 1) == 5);
  }
  SECTION("awkward remainders") {
    const std::vector<int64_t> rows = {1, 1, 1, 1, 1, 1, 1}, cols = {7};
    CHECK(FitMarginals(rows, cols).PartitionBytes() == cols);
    const std::vector<int64_t> r2 = {3, 3, 3}, c2 = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    const SizeMatrix m2 = FitMarginals(r2, c2);
    CHECK(m2.MapBytes() == r2);
    CHECK(m2.PartitionBytes() == c2);
  }
  SECTION("larger, skewed") {
    std::vector<int64_t> rows, cols;
    for (int i = 0; i < 37; ++i) rows.push_back((i * 7919) % 1009 + 1);
    const int64_t total = std::accumulate(rows.begin(), rows.end(), int64_t{0});
    std::vector<double> w;
    for (int j = 0; j < 53; ++j) w.push_back(1.0 / (j + 1));
    cols = SplitByLargestRemainder(total, w);
    const SizeMatrix m = FitMarginals(rows, cols);
    CHECK(m.MapBytes() == rows);
    CHECK(m.PartitionBytes() == cols);
    for (int i = 0; i < m.num_maps(); ++i)
      for (int j = 0; j < m.num_reducers(); ++j) CHECK(m.at(i, j) >= 0);
  }
}

TEST_CASE("MaterializeSizes and fixed counts per form", "[shuffle][sizes]") {
  SizeMatrix matrix(2, 3);
  matrix.at(1, 2) = 9;
  SizesSpec recorded{matrix, "matrix"};
  CHECK(FixedPartitionCount(recorded) == 3);
  CHECK(FixedMapTaskCount(recorded) == 2);
  CHECK(MaterializeSizes(recorded, {}).at(1, 2) == 9);

  SizesSpec marginals{MarginalsSizes{{4, 6}, {5, 5}}, "marginals"};
  CHECK(FixedPartitionCount(marginals) == 2);
  CHECK(FixedMapTaskCount(marginals) == 2);
  CHECK(MaterializeSizes(marginals, {}).PartitionBytes() == std::vector<int64_t>{5, 5});

  GenerateSizes g;
  SizesSpec generated{g, "generate uniform"};
  CHECK_FALSE(FixedPartitionCount(generated));
  CHECK_FALSE(FixedMapTaskCount(generated));
  SizesContext ctx;
  ctx.configured_partitions = 6;
  ctx.default_map_tasks = 4;
  ctx.default_total_bytes = 2400;
  ctx.seed = 11;
  const SizeMatrix m = MaterializeSizes(generated, ctx);
  CHECK(m.num_maps() == 4);
  CHECK(m.num_reducers() == 6);
  CHECK(m.TotalBytes() == 2400);
  CHECK(m.at(3, 5) == 100);
  CHECK(SizesSeedFor(1, "e1") == SizesSeedFor(1, "e1"));
  CHECK(SizesSeedFor(1, "e1") != SizesSeedFor(1, "e2"));
}

}  // namespace
}  // namespace aqesim
