#include "models/shuffle/shuffle_partitions_util.h"

#include <catch2/catch.hpp>
#include <random>

#include "tests/models/shuffle/spark_vectors.h"

namespace aqesim {
namespace {

using testing::SpecsFromJson;
using testing::ToString;
using StatsList = std::vector<std::optional<std::vector<int64_t>>>;
using SpecsList = std::vector<std::optional<std::vector<ShufflePartitionSpec>>>;

CoalesceResult RunCoalesceVector(const nlohmann::json& v) {
  const auto& in = v.at("input");
  StatsList stats;
  for (const auto& s : in.at("bytesByPartitionId")) {
    if (s.is_null())
      stats.emplace_back(std::nullopt);
    else
      stats.emplace_back(s.get<std::vector<int64_t>>());
  }
  SpecsList specs;
  for (const auto& s : in.at("inputPartitionSpecs")) {
    if (s.is_null())
      specs.emplace_back(std::nullopt);
    else
      specs.emplace_back(SpecsFromJson(s));
  }
  return CoalescePartitions(stats, specs, in.at("advisoryTargetSize").get<int64_t>(),
                            in.at("minNumPartitions").get<int>(), in.at("minPartitionSize").get<int64_t>());
}

TEST_CASE("ShufflePartitionsUtil: every COAL vector", "[shuffle][coalesce][vectors]") {
  const auto vectors = testing::VectorsWithPrefix("COAL-");
  REQUIRE(vectors.size() >= 18);
  for (const auto& v : vectors) {
    DYNAMIC_SECTION(v.at("id").get<std::string>()) {
      const CoalesceResult r = RunCoalesceVector(v);
      const auto& expected = v.at("expected");
      if (expected.contains("error")) {
        CHECK(r.status == CoalesceResult::Status::kError);
        CHECK_FALSE(r.error.empty());
        continue;
      }
      REQUIRE(r.status != CoalesceResult::Status::kError);
      const bool applied = expected.at("coalescingApplied").get<bool>();
      CHECK(r.coalesced() == applied);
      std::vector<std::vector<ShufflePartitionSpec>> want;
      for (const auto& l : expected.at("specsPerShuffle")) want.push_back(SpecsFromJson(l));
      CHECK(ToString(r.specs_per_shuffle) == ToString(want));
    }
  }
}

TEST_CASE("ShufflePartitionsUtil: splitSizeListByTargetSize vectors", "[shuffle][split][vectors]") {
  const auto vectors = testing::VectorsWithPrefix("SPLIT-");
  REQUIRE(vectors.size() >= 2);
  for (const auto& v : vectors) {
    DYNAMIC_SECTION(v.at("id").get<std::string>()) {
      const auto& in = v.at("input");
      REQUIRE(in.at("mergedPartitionFactor").get<double>() == kMergedPartitionFactor);
      const auto sizes = in.at("sizes").get<std::vector<int64_t>>();
      CHECK(SplitSizeListByTargetSize(sizes, in.at("targetSize").get<int64_t>(),
                                      in.at("smallPartitionFactor").get<double>()) ==
            v.at("expected").at("startIndices").get<std::vector<int>>());
    }
  }
}

TEST_CASE("ShufflePartitionsUtil: C04 split vectors (SPARK-31070)", "[shuffle][split][cases]") {
  for (const auto& check : testing::Case("C04").at("checks")) {
    const auto sizes = check.at("input").get<std::vector<int64_t>>();
    DYNAMIC_SECTION("C04 " << check.at("input").dump()) {
      CHECK(SplitSizeListByTargetSize(sizes, check.at("target").get<int64_t>(), kSmallPartitionFactor) ==
            check.at("expect").get<std::vector<int>>());
    }
  }
}

TEST_CASE("ShufflePartitionsUtil: C22 rebalance small-partition factor", "[shuffle][split][cases]") {
  const auto& c = testing::Case("C22");
  const auto& matrix = c.at("input").at("shuffles").at(0).at("matrix");
  const std::vector<int64_t> sizes(matrix.at("num_maps").get<int>(),
                                   matrix.at("default_block_bytes").get<int64_t>());
  const int64_t target = 50LL << 20;
  for (const auto& check : c.at("checks")) {
    const double factor = check.at("variant").at("smallPartitionFactor");
    DYNAMIC_SECTION("C22 factor " << factor) {
      CHECK(SplitSizeListByTargetSize(sizes, target, factor) == check.at("expect").get<std::vector<int>>());
    }
  }
  // The split itself: 0.2 gives two pieces (50 MiB + 10 MiB); 0.5 gives none.
  const auto pieces = CreateSkewPartitionSpecs(0, sizes, target, 0.2);
  REQUIRE(pieces.has_value());
  REQUIRE(pieces->size() == 2);
  CHECK((*pieces)[0] == PartialReducerPartitionSpec{0, 0, 5, 50LL << 20});
  CHECK((*pieces)[1] == PartialReducerPartitionSpec{0, 5, 6, 10LL << 20});
  CHECK_FALSE(CreateSkewPartitionSpecs(0, sizes, target, 0.5).has_value());
}

TEST_CASE("ShufflePartitionsUtil: REBAL-04 split at factor 0.2 and 0.5", "[shuffle][split][vectors]") {
  const auto& v = testing::Vector("REBAL-04");
  const auto sizes = v.at("input").at("mapBlockSizesOfReducer0").get<std::vector<int64_t>>();
  const int64_t advisory = v.at("input").at("advisory");
  CHECK(SplitSizeListByTargetSize(sizes, advisory, 0.5) ==
        v.at("expected").at("0.5").at("startIndices").get<std::vector<int>>());
  CHECK(SplitSizeListByTargetSize(sizes, advisory, 0.2) ==
        v.at("expected").at("0.2").at("startIndices").get<std::vector<int>>());
  const auto pieces = CreateSkewPartitionSpecs(0, sizes, advisory, 0.2);
  REQUIRE(pieces.has_value());
  std::vector<ShufflePartitionSpec> got(pieces->begin(), pieces->end());
  CHECK(ToString(got) == ToString(SpecsFromJson(v.at("expected").at("0.2").at("specs"))));
  CHECK_FALSE(CreateSkewPartitionSpecs(0, sizes, advisory, 0.5).has_value());
}

TEST_CASE("ShufflePartitionsUtil: SKEWSPEC-02 missing map output disables the split",
          "[shuffle][split][vectors]") {
  const auto& v = testing::Vector("SKEWSPEC-02");
  const auto sizes = v.at("input").at("mapSizesAsSeenByAQE").get<std::vector<int64_t>>();
  REQUIRE(v.at("expected").at("specs").is_null());
  CHECK_FALSE(CreateSkewPartitionSpecs(v.at("input").at("reducerId"), sizes, v.at("input").at("targetSize"))
                  .has_value());
  // The same sizes with the map present do split.
  CHECK(CreateSkewPartitionSpecs(0, std::vector<int64_t>{21, 21}, 2).has_value());
}

TEST_CASE("ShufflePartitionsUtil: createSkewPartitionSpecs", "[shuffle][split]") {
  SECTION("pieces carry the summed map sizes and end at numMaps") {
    const std::vector<int64_t> sizes{15, 90, 15, 15, 15, 90, 15};
    const auto pieces = CreateSkewPartitionSpecs(7, sizes, 100);
    REQUIRE(pieces.has_value());
    REQUIRE(pieces->size() == 3);
    CHECK((*pieces)[0] == PartialReducerPartitionSpec{7, 0, 2, 105});
    CHECK((*pieces)[1] == PartialReducerPartitionSpec{7, 2, 5, 45});
    CHECK((*pieces)[2] == PartialReducerPartitionSpec{7, 5, 7, 105});
  }
  SECTION("one piece is not a split") {
    CHECK_FALSE(CreateSkewPartitionSpecs(0, std::vector<int64_t>{5000}, 100).has_value());
    CHECK_FALSE(CreateSkewPartitionSpecs(0, std::vector<int64_t>{1000, 0, 0, 0}, 100).has_value());
  }
}

TEST_CASE("CoalesceShufflePartitions: TARGET-D2 target size", "[shuffle][coalesce][vectors]") {
  const auto& v = testing::Vector("TARGET-D2");
  const auto& in = v.at("input");
  CHECK(CoalesceTargetSize(in.at("totalShuffleBytes"), in.at("defaultParallelism"),
                           in.at("advisoryPartitionSizeInBytes"),
                           in.at("minPartitionSize")) == v.at("expected").at("targetSize").get<int64_t>());
  // The other branches of the formula.
  CHECK(CoalesceTargetSize(300, 2, 100, 0) == 100);  // advisory caps
  CHECK(CoalesceTargetSize(270, 4, 100, 0) == 68);   // ceil(67.5)
  CHECK(CoalesceTargetSize(0, 2, 100, 0) == 0);
  CHECK(CoalesceTargetSize(10LL << 30, 0, 64LL << 20, 1 << 20) == 64LL << 20);  // minNum 0 -> 1
}

TEST_CASE("CoalesceShufflePartitions: GROUPS-D1 minNumPartitions by group", "[shuffle][coalesce][vectors]") {
  const auto& v = testing::Vector("GROUPS-D1");
  const int min_num = v.at("input").at("minNumPartitions");
  for (const auto& groups : v.at("input").at("groupTotalBytes")) {
    const std::string key = groups.dump();
    DYNAMIC_SECTION("GROUPS-D1 " << key) {
      CHECK(MinNumPartitionsByGroup(min_num, groups.get<std::vector<int64_t>>()) ==
            v.at("expected").at(key).get<std::vector<int>>());
    }
  }
  CHECK(MinNumPartitionsByGroup(8, {123}) == std::vector<int>{8});
  CHECK(MinNumPartitionsByGroup(0, {123}) == std::vector<int>{1});
  CHECK(MinNumPartitionsByGroup(3, {1, 1}) == std::vector<int>{2, 2});  // 1.5 rounds half-up
}

TEST_CASE("ShufflePartitionsUtil: coalesceRange edge cases from the spec", "[shuffle][coalesce]") {
  auto run = [](std::vector<std::vector<int64_t>> stats, int64_t target, int64_t min_size, bool allow_empty) {
    std::vector<const std::vector<int64_t>*> ptrs;
    for (auto& s : stats) ptrs.push_back(&s);
    std::vector<std::pair<int, int>> out;
    for (const auto& c :
         CoalesceRange(0, static_cast<int>(stats[0].size()), ptrs, target, min_size, allow_empty))
      out.emplace_back(c.start_reducer_index, c.end_reducer_index);
    return out;
  };
  using R = std::vector<std::pair<int, int>>;
  CHECK(run({{10, 0, 20, 0, 0}}, 100, 0, false) == R{{0, 5}});
  CHECK(run({{200, 0, 0, 0, 0}, {100, 0, 300, 0, 0}}, 100, 0, false) == R{{0, 1}, {2, 3}});
  CHECK(run({{0, 0, 0, 72, 0}}, 10, 0, false) == R{{3, 4}});
  CHECK(run({{0, 0, 0, 72, 0}}, 10, 2, false) == R{{0, 5}});
  CHECK(run({{0, 0, 0}}, 10, 0, false) == R{{0, 3}});
  CHECK(run({{0, 0, 0}}, 10, 0, true) == R{});
  // Backward merge: the open group (5) is below minSize and the previous group (60) is smaller
  // than the next reducer (90), so [2,3) joins [0,2).
  CHECK(run({{30, 30, 5, 90}}, 60, 20, false) == R{{0, 3}, {3, 4}});
  // Forward merge: the previous group (60) is not smaller than the next reducer (58), so the
  // open group (5) stays open and absorbs it.
  CHECK(run({{60, 5, 58}}, 60, 20, false) == R{{0, 1}, {1, 3}});
  // Tail below minSize is folded into the previous group.
  CHECK(run({{60, 60, 5}}, 60, 20, false) == R{{0, 1}, {1, 3}});
}

// ---------------------------------------------------------------------------------------------
// Invariants on seeded random inputs.

std::vector<int64_t> RandomSizes(std::mt19937_64& rng, int n, double zero_fraction) {
  std::uniform_real_distribution<double> u(0, 1);
  std::lognormal_distribution<double> size(8.0, 2.0);
  std::vector<int64_t> out(n);
  for (auto& s : out) s = u(rng) < zero_fraction ? 0 : static_cast<int64_t>(size(rng)) + 1;
  return out;
}

TEST_CASE("ShufflePartitionsUtil: coalescing covers every non-empty reducer once, in order",
          "[shuffle][coalesce][invariant]") {
  std::mt19937_64 rng(20240611);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 200);
    const int num_shuffles = 1 + static_cast<int>(rng() % 3);
    StatsList stats;
    for (int s = 0; s < num_shuffles; ++s) stats.emplace_back(RandomSizes(rng, n, (rng() % 4) * 0.2));
    const int64_t advisory = 1 + static_cast<int64_t>(rng() % 20000);
    const int64_t min_size = (rng() % 2) ? 0 : static_cast<int64_t>(rng() % 5000);
    const int min_num = 1 + static_cast<int>(rng() % 8);
    const CoalesceResult r = CoalescePartitions(stats, SpecsList(num_shuffles), advisory, min_num, min_size);
    REQUIRE(r.status != CoalesceResult::Status::kError);
    if (!r.coalesced()) continue;
    REQUIRE(r.specs_per_shuffle.size() == static_cast<size_t>(num_shuffles));
    std::vector<int> covered(n, 0);
    int prev_end = 0;
    for (const auto& spec : r.specs_per_shuffle[0]) {
      const auto& c = std::get<CoalescedPartitionSpec>(spec);
      REQUIRE(c.start_reducer_index >= prev_end);  // ascending, non-overlapping
      REQUIRE(c.end_reducer_index > c.start_reducer_index);
      for (int i = c.start_reducer_index; i < c.end_reducer_index; ++i) ++covered[i];
      prev_end = c.end_reducer_index;
    }
    CHECK(r.specs_per_shuffle[0].size() < static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      int64_t combined = 0;
      for (const auto& s : stats) combined += (*s)[i];
      if (combined > 0) REQUIRE(covered[i] == 1);
      REQUIRE(covered[i] <= 1);
    }
    for (int s = 0; s < num_shuffles; ++s) {
      REQUIRE(r.specs_per_shuffle[s].size() == r.specs_per_shuffle[0].size());
      int64_t spec_total = 0;
      for (const auto& spec : r.specs_per_shuffle[s]) spec_total += testing::SpecDataSize(spec);
      int64_t true_total = 0;
      for (int64_t b : *stats[s]) true_total += b;
      REQUIRE(spec_total == true_total);  // bytes conserved
    }
  }
}

TEST_CASE("ShufflePartitionsUtil: skew splits cover every mapper once", "[shuffle][split][invariant]") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    const int maps = 1 + static_cast<int>(rng() % 300);
    const auto sizes = RandomSizes(rng, maps, 0.3);
    const int64_t target = 1 + static_cast<int64_t>(rng() % 50000);
    const double factor = (rng() % 2) ? 0.2 : 0.5;
    const auto pieces = CreateSkewPartitionSpecs(3, sizes, target, factor);
    if (!pieces) continue;
    REQUIRE(pieces->size() >= 2);
    int next = 0;
    int64_t total = 0;
    for (const auto& p : *pieces) {
      REQUIRE(p.reducer_index == 3);
      REQUIRE(p.start_map_index == next);
      REQUIRE(p.end_map_index > p.start_map_index);
      next = p.end_map_index;
      total += p.data_size_bytes;
    }
    REQUIRE(next == maps);
    int64_t true_total = 0;
    for (int64_t s : sizes) true_total += s;
    REQUIRE(total == true_total);
  }
}

}  // namespace
}  // namespace aqesim
