#include "models/shuffle/local_read_specs.h"

#include <catch2/catch.hpp>

#include "tests/models/shuffle/spark_vectors.h"

namespace aqesim {
namespace {

using testing::ToString;

TEST_CASE("LocalShuffleReadSpecs: LOCALREAD-01 fewer specs than mappers", "[shuffle][localread][vectors]") {
  const auto& v = testing::Vector("LOCALREAD-01");
  const auto& in = v.at("input");
  const auto specs =
      LocalShuffleReadSpecs(in.at("numMappers"), in.at("numReducers"), in.at("advisoryParallelism"));
  CHECK(ToString(specs) == ToString(testing::SpecsFromJson(v.at("expected").at("specs"))));
  CHECK(specs.size() == v.at("expected").at("numTasks").get<size_t>());
}

TEST_CASE("LocalShuffleReadSpecs: docs/aqe-behaviour.md §9 examples", "[shuffle][localread]") {
  SECTION("2 mappers x 5 reducers, no coalescing: 4 tasks (LOCALREAD-04)") {
    const auto specs = LocalShuffleReadSpecs(2, 5, 5);
    CHECK(ToString(specs) == "[PM(0,0,3) PM(0,3,5) PM(1,0,3) PM(1,3,5)]");
    CHECK(specs.size() == testing::Vector("LOCALREAD-04").at("expected").at("numSpecs").get<size_t>());
  }
  SECTION("after coalescing to 3 specs: 2 tasks") {
    CHECK(ToString(LocalShuffleReadSpecs(2, 5, 3)) == "[PM(0,0,5) PM(1,0,5)]");
  }
  SECTION("after coalescing to 1 spec: 1 task reading both mappers") {
    CHECK(ToString(LocalShuffleReadSpecs(2, 5, 1)) == "[CM(0,2,5)]");
  }
  SECTION("7 mappers, 3 specs: mapper ranges 3+2+2") {
    CHECK(ToString(LocalShuffleReadSpecs(7, 10, 3)) == "[CM(0,3,10) CM(3,5,10) CM(5,7,10)]");
  }
  SECTION("degenerate inputs give no specs") {
    CHECK(LocalShuffleReadSpecs(0, 5, 5).empty());
    CHECK(LocalShuffleReadSpecs(2, 5, 0).empty());
  }
}

TEST_CASE("LocalShuffleReadSpecs: equallyDivide", "[shuffle][localread]") {
  CHECK(EquallyDivide(5, 2) == std::vector<int>{0, 3});
  CHECK(EquallyDivide(10, 3) == std::vector<int>{0, 4, 7});
  CHECK(EquallyDivide(9, 3) == std::vector<int>{0, 3, 6});
  CHECK(EquallyDivide(2, 4) == std::vector<int>{0, 1, 2, 2});  // trailing buckets empty
  CHECK(EquallyDivide(5, 0).empty());
}

}  // namespace
}  // namespace aqesim
