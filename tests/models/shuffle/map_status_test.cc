#include "models/shuffle/map_status.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "models/shuffle/map_output_statistics.h"
#include "tests/models/shuffle/spark_vectors.h"

namespace aqesim {
namespace {

TEST_CASE("MapStatus: log-1.1 encoding, hand-computed values", "[shuffle][mapstatus]") {
  CHECK(CompressSize(0) == 0);
  CHECK(CompressSize(1) == 1);
  CHECK(CompressSize(-5) == 1);
  CHECK(CompressSize(2) == 8);  // ceil(ln 2 / ln 1.1) = ceil(7.27)
  CHECK(DecompressSize(0) == 0);
  CHECK(DecompressSize(1) == 1);
  CHECK(DecompressSize(CompressSize(100)) == 106);
  CHECK(DecompressSize(CompressSize(50000)) == 52331);
  CHECK(DecompressSize(CompressSize(1000000000)) == 1055857634);
  CHECK(CompressSize(1000000000) == 218);
  // Saturation above 1.1^255 ~ 35.9 GB: the only underestimate.
  CHECK(DecompressSize(255) == 35903328718LL);
  CHECK(CompressSize(1000000000000LL) == 255);
  CHECK(DecompressSize(CompressSize(std::numeric_limits<int64_t>::max())) == 35903328718LL);
  // The values the cases rely on.
  CHECK(DecompressSize(CompressSize(52428800)) == 55008794);  // C01: 50 MiB
  CHECK(DecompressSize(CompressSize(67108864)) == 73216704);  // C10: 64 MiB
  CHECK(DecompressSize(CompressSize(524288)) == 567000);      // C10: 512 KiB
  CHECK(DecompressSize(CompressSize(83886080)) == 88592213);  // C24: 80 MiB
  CHECK(DecompressSize(CompressSize(15728)) == 16674);        // C24
}

TEST_CASE("MapStatus: ReportedBlockBytes scales a block, rounds, keeps empty blocks empty",
          "[shuffle][mapstatus]") {
  CHECK(ReportedBlockBytes(0, 2.5) == 0);
  CHECK(ReportedBlockBytes(12345, 1.0) == 12345);
  CHECK(ReportedBlockBytes(100, 2.5) == 250);
  CHECK(ReportedBlockBytes(3, 0.5) == 2);                      // 1.5 rounds half away from zero
  CHECK(ReportedBlockBytes(1, 0.1) == 1);                      // a non-empty block reports at least 1 byte
  CHECK(ReportedBlockBytes(INT64_MAX / 2, 4.0) == INT64_MAX);  // saturates
}

TEST_CASE("MapStatus: table encoder equals the formula", "[shuffle][mapstatus]") {
  // Around every code boundary and at random magnitudes.
  for (int k = 8; k <= 255; ++k) {
    const double edge = std::pow(1.1, k - 1);
    const int64_t c = static_cast<int64_t>(edge);
    for (int64_t d = -3; d <= 3; ++d) {
      const int64_t s = c + d;
      if (s < 0) continue;
      INFO("size " << s);
      REQUIRE(CompressSize(s) == CompressSizeByFormula(s));
    }
  }
  std::mt19937_64 rng(42);
  for (int i = 0; i < 200000; ++i) {
    const int shift = static_cast<int>(rng() % 63);
    const int64_t s = static_cast<int64_t>(rng() >> (1 + shift));
    INFO("size " << s);
    REQUIRE(CompressSize(s) == CompressSizeByFormula(s));
  }
  for (int64_t s = 0; s < 100000; ++s) REQUIRE(CompressSize(s) == CompressSizeByFormula(s));
  for (int64_t s = std::numeric_limits<int64_t>::max(); s > std::numeric_limits<int64_t>::max() - 1000; --s) {
    REQUIRE(CompressSize(s) == CompressSizeByFormula(s));
  }
  for (int e = 1; e < 63; ++e) {
    const int64_t p = int64_t{1} << e;
    REQUIRE(CompressSize(p) == CompressSizeByFormula(p));
    REQUIRE(CompressSize(p - 1) == CompressSizeByFormula(p - 1));
  }
  // Never reports a non-empty block as 0, and over-estimates by less than 10% below saturation.
  for (int64_t s = 1; s < 5000000; s = s * 3 / 2 + 1) {
    const int64_t d = DecompressSize(CompressSize(s));
    REQUIRE(d >= s);
    REQUIRE(static_cast<double>(d) < 1.1 * static_cast<double>(s) + 1);
  }
}

TEST_CASE("MapStatus: median (Utils.median, integer, >= 1)", "[shuffle][mapstatus]") {
  CHECK(MedianBytes(std::vector<int64_t>{}) == 1);
  CHECK(MedianBytes(std::vector<int64_t>{0, 0, 0}) == 1);
  CHECK(MedianBytes(std::vector<int64_t>{5, 1, 9}) == 5);
  CHECK(MedianBytes(std::vector<int64_t>{4, 1, 9, 2}) == 3);  // (2 + 4) / 2
  CHECK(MedianBytes(std::vector<int64_t>{1, 2}) == 1);        // (1 + 2) / 2 = 1, long division
  CHECK(MedianBytes(std::vector<int64_t>{100, 100, 1000, 100, 100}) == 100);
}

TEST_CASE("MapStatus: MAPSTATUS-03 HCMS is used above 2000 reducers", "[shuffle][mapstatus][vectors]") {
  const auto& v = testing::Vector("MAPSTATUS-03");
  const int n = v.at("input").at("numPartitions");
  const int64_t size = v.at("input").at("allSizes");
  const MapStatusConfig config;
  CHECK(MapStatusKindName(ChooseMapStatusKind(n, config)) == v.at("expected").at("type").get<std::string>());
  CHECK(ChooseMapStatusKind(2000, config) == MapStatusKind::kCompressed);
  const std::vector<int64_t> sizes(n, size);
  const HighlyCompressedMapStatus status(sizes, config);
  for (const auto& [reducer, expected] : v.at("expected").at("getSizeForBlock").items()) {
    CHECK(status.SizeForBlock(std::stoi(reducer)) == expected.get<int64_t>());
  }
  // The same through the driver view.
  SizeMatrix m(1, n);
  for (int r = 0; r < n; ++r) m.at(0, r) = size;
  const auto view = ReportedShuffleSizes::FromMatrix(m, config, MapStatusMode::kSpark);
  CHECK(view.StatusKind() == "HighlyCompressedMapStatus");
  CHECK(view.SizeForBlock(0, 2000) == 150);
  // With 2000 reducers a CompressedMapStatus reports decode(encode(150)) instead.
  SizeMatrix m2(1, 2000);
  for (int r = 0; r < 2000; ++r) m2.at(0, r) = size;
  const auto view2 = ReportedShuffleSizes::FromMatrix(m2, config, MapStatusMode::kSpark);
  CHECK(view2.StatusKind() == "CompressedMapStatus");
  CHECK(view2.SizeForBlock(0, 10) == DecompressSize(CompressSize(150)));
  CHECK(view2.SizeForBlock(0, 10) == 156);  // 1.1^53 = 156.4
}

TEST_CASE("MapStatus: MAPSTATUS-05 HCMS average excludes huge blocks", "[shuffle][mapstatus][vectors]") {
  const auto& v = testing::Vector("MAPSTATUS-05");
  std::vector<int64_t> sizes(3000);
  for (int i = 0; i < 3000; ++i) sizes[i] = i;
  MapStatusConfig config;
  config.accurate_block_threshold_bytes = v.at("input").at("accurateBlockThreshold");
  const HighlyCompressedMapStatus status(sizes, config);
  CHECK(status.avg_size_bytes() == v.at("expected").at("avgSize").get<int64_t>());
  CHECK(status.num_empty_blocks() == 1);
  CHECK(status.SizeForBlock(0) == 0);
  for (int r = 1; r < 1000; ++r) REQUIRE(status.SizeForBlock(r) == 500);
  REQUIRE(status.huge_blocks().size() == 2000);
  CHECK(status.huge_blocks().front().first == 1000);
  for (int r = 1000; r < 3000; ++r) REQUIRE(status.SizeForBlock(r) == DecompressSize(CompressSize(r)));
}

TEST_CASE("MapStatus: HCMS skewed-block accuracy", "[shuffle][mapstatus]") {
  MapStatusConfig config;
  config.accurate_block_skewed_factor = 5;
  SECTION("C01 row: 50 MiB for reducer 0, 10 KiB elsewhere") {
    std::vector<int64_t> row(10000, 10240);
    row[0] = 52428800;
    const HighlyCompressedMapStatus off(row, MapStatusConfig{});
    CHECK(off.threshold_bytes() == 104857600.0);
    CHECK(off.avg_size_bytes() == 15481);
    CHECK(off.SizeForBlock(0) == 15481);
    CHECK(off.huge_blocks().empty());
    const HighlyCompressedMapStatus on(row, config);
    CHECK(on.threshold_bytes() == 51200.0);  // min(100 MiB, max(5 * 10240, sorted[9900] = 10240))
    CHECK(on.avg_size_bytes() == 10240);
    CHECK(on.SizeForBlock(0) == 55008794);
    CHECK(on.SizeForBlock(1) == 10240);
  }
  SECTION("the m-th largest block caps how many are stored") {
    // 3000 blocks: 2700 of 10, 300 of 1000..1299. median 10 -> 5 * 10 = 50, but the 100th
    // largest is 1200, so only blocks >= 1200 are stored accurately.
    std::vector<int64_t> row(3000, 10);
    for (int i = 0; i < 300; ++i) row[2700 + i] = 1000 + i;
    const HighlyCompressedMapStatus s(row, config);
    CHECK(s.threshold_bytes() == 1200.0);
    CHECK(s.huge_blocks().size() == 100);
    CHECK(s.SizeForBlock(2999) == DecompressSize(CompressSize(1299)));
    // Average of 2700 x 10 and 1000..1199.
    const int64_t small_total = 2700 * 10 + (1000 + 1199) * 200 / 2;
    CHECK(s.avg_size_bytes() == small_total / 2900);
    CHECK(s.SizeForBlock(2750) == small_total / 2900);
  }
  SECTION("accurateBlockThreshold still wins when lower") {
    config.accurate_block_threshold_bytes = 30;
    std::vector<int64_t> row(2500, 10);
    row[7] = 40;
    const HighlyCompressedMapStatus s(row, config);
    CHECK(s.threshold_bytes() == 30.0);
    CHECK(s.SizeForBlock(7) == DecompressSize(CompressSize(40)));
  }
}

// ---------------------------------------------------------------------------------------------
// The driver view.

SizeMatrix RandomMatrix(std::mt19937_64& rng, int maps, int reducers, double zero_fraction) {
  SizeMatrix m(maps, reducers);
  std::uniform_real_distribution<double> u(0, 1);
  std::lognormal_distribution<double> size(10.0, 3.0);
  for (int i = 0; i < maps; ++i)
    for (int r = 0; r < reducers; ++r)
      m.at(i, r) =
          u(rng) < zero_fraction ? 0 : std::min<int64_t>(static_cast<int64_t>(size(rng)) + 1, 1LL << 40);
  return m;
}

TEST_CASE("ReportedShuffleSizes: statistics equal the sum of getSizeForBlock",
          "[shuffle][mapstatus][invariant]") {
  std::mt19937_64 rng(99);
  MapStatusConfig skew_config;
  skew_config.accurate_block_skewed_factor = 3.0;
  skew_config.max_accurate_skewed_block_number = 7;
  struct Variant {
    int reducers;
    MapStatusConfig config;
    MapStatusMode mode;
    MapStatusKind kind;
  };
  const std::vector<Variant> variants = {
      {300, MapStatusConfig{}, MapStatusMode::kSpark, MapStatusKind::kCompressed},
      {2001, MapStatusConfig{}, MapStatusMode::kSpark, MapStatusKind::kHighlyCompressed},
      {2100, skew_config, MapStatusMode::kSpark, MapStatusKind::kHighlyCompressed},
      {300, MapStatusConfig{}, MapStatusMode::kExact, MapStatusKind::kExact},
  };
  for (const auto& v : variants) {
    DYNAMIC_SECTION(MapStatusKindName(v.kind) << " " << v.reducers) {
      const SizeMatrix m = RandomMatrix(rng, 13, v.reducers, 0.3);
      const auto view = ReportedShuffleSizes::FromMatrix(m, v.config, v.mode);
      REQUIRE(view.kind() == v.kind);
      REQUIRE(view.num_maps() == 13);
      REQUIRE(view.num_reducers() == v.reducers);
      CHECK(view.NumBlocksAggregated() == 13LL * v.reducers);
      std::vector<int64_t> expected(v.reducers, 0);
      for (int i = 0; i < 13; ++i) {
        const HighlyCompressedMapStatus hcms(m.row(i), v.config);
        const CompressedMapStatus cms(m.row(i));
        for (int r = 0; r < v.reducers; ++r) {
          const int64_t got = view.SizeForBlock(i, r);
          int64_t want = m.at(i, r);
          if (v.kind == MapStatusKind::kCompressed) want = cms.SizeForBlock(r);
          if (v.kind == MapStatusKind::kHighlyCompressed) want = hcms.SizeForBlock(r);
          REQUIRE(got == want);
          if (m.at(i, r) == 0) REQUIRE(got == 0);
          if (m.at(i, r) > 0) REQUIRE(got > 0);
          expected[r] += got;
        }
      }
      CHECK(view.BytesByPartitionId() == expected);
      if (v.kind == MapStatusKind::kExact) CHECK(view.BytesByPartitionId() == m.PartitionBytes());
      for (int r : {0, v.reducers / 2, v.reducers - 1}) {
        const auto col = view.MapSizesForReducer(r);
        REQUIRE(col.size() == 13);
        for (int i = 0; i < 13; ++i) REQUIRE(col[i] == view.SizeForBlock(i, r));
      }
      CHECK(view.DriverMemoryBytes() > 0);
    }
  }
}

TEST_CASE("ReportedShuffleSizes: HCMS fast path (no block near the threshold) with empty blocks",
          "[shuffle][mapstatus][invariant]") {
  std::mt19937_64 rng(5);
  SizeMatrix m(6, 2500);
  for (int i = 0; i < 6; ++i)
    for (int r = 0; r < 2500; ++r) m.at(i, r) = (rng() % 3 == 0) ? 0 : static_cast<int64_t>(rng() % 1000);
  for (int r = 0; r < 2500; ++r) m.at(5, r) = 0;  // an all-empty map: average 0
  const auto view = ReportedShuffleSizes::FromMatrix(m, MapStatusConfig{}, MapStatusMode::kSpark);
  REQUIRE(view.kind() == MapStatusKind::kHighlyCompressed);
  std::vector<int64_t> expected(2500, 0);
  for (int i = 0; i < 6; ++i) {
    const HighlyCompressedMapStatus hcms(m.row(i), MapStatusConfig{});
    CHECK(view.MapAverageBytes(i) == hcms.avg_size_bytes());
    for (int r = 0; r < 2500; ++r) {
      REQUIRE(view.SizeForBlock(i, r) == hcms.SizeForBlock(r));
      expected[r] += hcms.SizeForBlock(r);
    }
  }
  CHECK(view.MapAverageBytes(5) == 0);
  CHECK(view.BytesByPartitionId() == expected);
}

TEST_CASE("ReportedShuffleSizes: driver memory formula", "[shuffle][mapstatus]") {
  using R = ReportedShuffleSizes;
  SizeMatrix m(3, 10);
  for (int r = 0; r < 10; ++r) m.at(0, r) = 5;
  const auto compressed = R::FromMatrix(m, MapStatusConfig{}, MapStatusMode::kSpark);
  CHECK(compressed.DriverMemoryBytes() == 3 * (R::kStatusObjectBytes + R::kArrayHeaderBytes + 16));
  const auto exact = R::FromMatrix(m, MapStatusConfig{}, MapStatusMode::kExact);
  CHECK(exact.DriverMemoryBytes() == 3 * (R::kStatusObjectBytes + R::kArrayHeaderBytes + 80));
  MapStatusConfig hc;
  hc.min_num_partitions_to_highly_compress = 5;
  hc.accurate_block_threshold_bytes = 5;
  const auto hcms = R::FromMatrix(m, hc, MapStatusMode::kSpark);
  REQUIRE(hcms.kind() == MapStatusKind::kHighlyCompressed);
  CHECK(hcms.NumHugeBlocks() == 10);  // map 0: every block (5 >= threshold 5)
  const int64_t per_map =
      R::kStatusObjectBytes + R::kHcmsFieldBytes + R::kRoaringBaseBytes + R::kHugeMapBaseBytes;
  // maps 1, 2: 10 empty blocks in one chunk; map 0: 10 huge blocks.
  CHECK(hcms.DriverMemoryBytes() ==
        3 * per_map + 10 * R::kHugeMapEntryBytes + 2 * (R::kRoaringContainerBytes + 20));
}

// C01 (SPARK-36967): 10^4 maps, every map writes 50 MiB for reducer 0 and 10 KiB elsewhere.
ReportedShuffleSizes C01View(int maps, int reducers, double skew_factor) {
  const auto& c = testing::Case("C01");
  const auto& matrix = c.at("input").at("shuffles").at(0).at("matrix");
  MapStatusConfig config;
  config.accurate_block_skewed_factor = skew_factor;
  std::vector<int64_t> row(reducers, matrix.at("default_block_bytes").get<int64_t>());
  row[0] = matrix.at("overrides").at(0).at("bytes").get<int64_t>();
  ReportedShuffleSizes::Builder builder(reducers, config, MapStatusMode::kSpark);
  for (int m = 0; m < maps; ++m) builder.AddMap(row);
  return std::move(builder).Build();
}

TEST_CASE("ReportedShuffleSizes: C01 full size, skew factor off", "[shuffle][mapstatus][cases]") {
  const auto view = C01View(10000, 10000, -1.0);
  CHECK(view.StatusKind() == "HighlyCompressedMapStatus");
  CHECK(view.SizeForBlock(0, 0) == 15481);
  CHECK(view.SizeForBlock(9999, 1234) == 15481);
  CHECK(view.BytesByPartitionId()[0] == 154810000);
  CHECK(view.BytesByPartitionId()[1] == 154810000);
  CHECK(view.BytesByPartitionId()[9999] == 154810000);
  CHECK(view.NumBlocksAggregated() == 100000000);
  CHECK(view.NumHugeBlocks() == 0);
}

TEST_CASE("ReportedShuffleSizes: C01 full size, skew factor 5", "[shuffle][mapstatus][cases][.][slow]") {
  const auto view = C01View(10000, 10000, 5.0);
  CHECK(view.BytesByPartitionId()[0] == 550087940000LL);
  CHECK(view.BytesByPartitionId()[1] == 102400000);
  CHECK(view.NumHugeBlocks() == 10000);
}

}  // namespace
}  // namespace aqesim
