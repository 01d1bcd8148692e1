#include "models/shuffle/shuffle_sizes.h"

#include <catch2/catch.hpp>

#include "models/shuffle/generators.h"

namespace aqesim {
namespace {

GenerateSizes Zipf(double noise) {
  GenerateSizes g;
  g.distribution = GenerateSizes::Distribution::kZipf;
  g.exponent = 0.9;
  g.noise = noise;
  return g;
}

std::vector<int64_t> RowOf(const ShuffleSizes& s, int m) {
  auto r = s.row(m);
  return {r.begin(), r.end()};
}

std::vector<int64_t> RowOf(const SizeMatrix& s, int m) {
  auto r = s.row(m);
  return {r.begin(), r.end()};
}

TEST_CASE("ShuffleSizes: a streamed generated shuffle has the dense matrix's rows, sums and columns",
          "[shuffle][sizes][streaming]") {
  for (double noise : {0.0, 0.3}) {
    INFO("noise " << noise);
    const GenerateSizes g = Zipf(noise);
    // 300 maps: more than four noise checkpoints (one every 64 rows).
    const SizeMatrix dense = GenerateSizeMatrix(g, 300, 37, 1'000'000'007, 42);
    const ShuffleSizes streamed = ShuffleSizes::Generated(g, 300, 37, 1'000'000'007, 42);
    REQUIRE(streamed.streamed());
    CHECK(streamed.num_maps() == 300);
    CHECK(streamed.num_reducers() == 37);
    // Row totals are known before any row is generated.
    CHECK(streamed.MapBytes() == dense.MapBytes());
    CHECK(streamed.TotalBytes() == 1'000'000'007);
    CHECK(streamed.PartitionBytes() == dense.PartitionBytes());
    // Random order, backwards and across checkpoints (noise: the Rng state is restored).
    for (int m : {299, 0, 64, 63, 65, 200, 1, 128, 127, 299}) {
      INFO("row " << m);
      CHECK(RowOf(streamed, m) == RowOf(dense, m));
    }
    // A pass after random reads is the same again.
    int rows = 0;
    streamed.ForEachRow([&](int m, std::span<const int64_t> row) {
      CHECK(std::vector<int64_t>(row.begin(), row.end()) == RowOf(dense, m));
      ++rows;
    });
    CHECK(rows == 300);
    const int wanted[] = {5, 36, 5, 0};
    streamed.PrefetchColumns(wanted);
    CHECK(streamed.HasColumn(36));
    CHECK_FALSE(streamed.HasColumn(1));
    for (int r : {0, 5, 36, 1}) {
      const std::vector<int64_t>& col = streamed.Column(r);
      REQUIRE(col.size() == 300);
      for (int m = 0; m < 300; ++m) CHECK(col[m] == dense.at(m, r));
    }
    CHECK(streamed.at(17, 3) == dense.at(17, 3));
    // The materialised copy, and a copy of the streamed shuffle, are the same matrix.
    const SizeMatrix copy = streamed.ToDense();
    for (int m = 0; m < 300; ++m) CHECK(RowOf(copy, m) == RowOf(dense, m));
    const ShuffleSizes second = streamed;
    CHECK(second.streamed());
    CHECK(RowOf(second, 250) == RowOf(dense, 250));
  }
}

TEST_CASE("ShuffleSizes: the driver view of a streamed shuffle is FromMatrix of the dense one",
          "[shuffle][sizes][streaming]") {
  // 2,100 reducers: HighlyCompressedMapStatus; 150: CompressedMapStatus; and exact.
  for (int reducers : {2100, 150}) {
    for (MapStatusMode mode : {MapStatusMode::kSpark, MapStatusMode::kExact}) {
      INFO(reducers << " reducers, mode " << static_cast<int>(mode));
      const GenerateSizes g = Zipf(0.2);
      const SizeMatrix dense = GenerateSizeMatrix(g, 40, reducers, int64_t{5} << 30, 7);
      const ShuffleSizes streamed = ShuffleSizes::Generated(g, 40, reducers, int64_t{5} << 30, 7);
      const MapStatusConfig config;
      const ReportedShuffleSizes a = ReportedShuffleSizes::FromMatrix(dense, config, mode);
      const ReportedShuffleSizes b = ReportShuffleSizes(streamed, config, mode);
      CHECK(a.StatusKind() == b.StatusKind());
      CHECK(a.BytesByPartitionId() == b.BytesByPartitionId());
      CHECK(a.DriverMemoryBytes() == b.DriverMemoryBytes());
      CHECK(a.MapSizesForReducer(11) == b.MapSizesForReducer(11));
      // The same pass gave the true column sums.
      CHECK(streamed.PartitionBytes() == dense.PartitionBytes());
    }
  }
}

TEST_CASE("ShuffleSizes: a reported size ratio is the driver view of the scaled matrix",
          "[shuffle][sizes][streaming]") {
  // Dense and streamed, CompressedMapStatus (150 reducers) and HCMS (2,100): reporting with
  // ratio 2.5 equals FromMatrix of every block scaled by ReportedBlockBytes.
  for (int reducers : {2100, 150}) {
    INFO(reducers << " reducers");
    const GenerateSizes g = Zipf(0.2);
    const SizeMatrix dense = GenerateSizeMatrix(g, 40, reducers, int64_t{5} << 30, 7);
    SizeMatrix scaled = dense;
    for (int m = 0; m < scaled.num_maps(); ++m) {
      for (int r = 0; r < reducers; ++r) scaled.at(m, r) = ReportedBlockBytes(dense.at(m, r), 2.5);
    }
    const MapStatusConfig config;
    const ReportedShuffleSizes want = ReportedShuffleSizes::FromMatrix(scaled, config, MapStatusMode::kSpark);
    for (const ShuffleSizes& sizes :
         {ShuffleSizes(dense), ShuffleSizes::Generated(g, 40, reducers, int64_t{5} << 30, 7)}) {
      const ReportedShuffleSizes got = ReportShuffleSizes(sizes, config, MapStatusMode::kSpark, 2.5);
      CHECK(got.BytesByPartitionId() == want.BytesByPartitionId());
      CHECK(got.MapSizesForReducer(11) == want.MapSizesForReducer(11));
      CHECK(got.TotalReportedBytes() > 2 * sizes.TotalBytes());
    }
  }
}

TEST_CASE("ShuffleSizes: writing a row materialises a streamed shuffle and drops the caches",
          "[shuffle][sizes][streaming]") {
  ShuffleSizes s = ShuffleSizes::Generated(GenerateSizes{}, 3, 4, 120, 1);  // uniform: 10 a cell
  CHECK(s.PartitionBytes() == std::vector<int64_t>{30, 30, 30, 30});
  s.mutable_row(1)[2] += 5;
  CHECK_FALSE(s.streamed());
  CHECK(s.PartitionBytes() == std::vector<int64_t>{30, 30, 35, 30});
  CHECK(s.MapBytes() == std::vector<int64_t>{40, 45, 40});
  CHECK(s.TotalBytes() == 125);
  // A dense shuffle is a SizeMatrix.
  SizeMatrix m(2, 2);
  m.at(1, 0) = 9;
  const ShuffleSizes d = m;
  CHECK_FALSE(d.streamed());
  CHECK(d.Column(0) == std::vector<int64_t>{0, 9});
  CHECK(d.RowTotal(1) == 9);
}

TEST_CASE("PlanShuffleSizes: generate is streamed with MaterializeSizes' arguments, other forms dense",
          "[shuffle][sizes][streaming]") {
  SizesSpec spec;
  GenerateSizes g = Zipf(0.1);
  g.map_bytes = std::vector<int64_t>{100, 0, 250, 7};
  spec.form = g;
  SizesContext ctx;
  ctx.configured_partitions = 9;
  ctx.default_map_tasks = 99;  // map_bytes fixes 4 rows
  ctx.seed = 5;
  const SizesShape shape = ShapeOfSizes(spec, ctx);
  CHECK(shape.generated);
  CHECK(shape.map_tasks == 4);
  CHECK(shape.partitions == 9);
  const ShuffleSizes s = PlanShuffleSizes(spec, ctx);
  const SizeMatrix d = MaterializeSizes(spec, ctx);
  REQUIRE(s.streamed());
  CHECK(s.MapBytes() == std::vector<int64_t>{100, 0, 250, 7});
  for (int m = 0; m < 4; ++m) CHECK(RowOf(s, m) == RowOf(d, m));
  SizesSpec given;
  given.form = d;
  CHECK_FALSE(PlanShuffleSizes(given, ctx).streamed());
  CHECK(ShapeOfSizes(given, ctx).partitions == 9);
}

}  // namespace
}  // namespace aqesim
