#include "tools/sweep/grid.h"

#include <catch2/catch.hpp>

namespace aqesim::sweep {
namespace {

TEST_CASE("ParseGridArg: key and values in order, trimmed", "[sweep][grid]") {
  std::string error;
  auto axis = ParseGridArg("spark.sql.shuffle.partitions=50, 100 ,200", &error);
  REQUIRE(axis);
  CHECK(axis->key == "spark.sql.shuffle.partitions");
  CHECK(axis->values == std::vector<std::string>{"50", "100", "200"});
}

TEST_CASE("ParseGridArg: malformed arguments are diagnostics", "[sweep][grid]") {
  std::string error;
  CHECK_FALSE(ParseGridArg("spark.sql.shuffle.partitions", &error));
  CHECK(error == "--grid spark.sql.shuffle.partitions: expected KEY=V1,V2,...");
  CHECK_FALSE(ParseGridArg("=1,2", &error));
  CHECK(error == "--grid =1,2: empty key");
  CHECK_FALSE(ParseGridArg("k=1,,2", &error));
  CHECK(error == "--grid k=1,,2: empty value in the list for k");
}

TEST_CASE("GridPointValues: the first axis varies slowest", "[sweep][grid]") {
  const std::vector<GridAxis> axes = {{"a", {"a0", "a1"}}, {"b", {"b0", "b1", "b2"}}};
  REQUIRE(GridPointCount(axes) == 6);
  CHECK(GridPointValues(axes, 0) == std::vector<std::string>{"a0", "b0"});
  CHECK(GridPointValues(axes, 2) == std::vector<std::string>{"a0", "b2"});
  CHECK(GridPointValues(axes, 3) == std::vector<std::string>{"a1", "b0"});
  CHECK(GridPointValues(axes, 5) == std::vector<std::string>{"a1", "b2"});
}

TEST_CASE("ParseShard: K/N, and which points a shard holds", "[sweep][grid]") {
  std::string error;
  auto s = ParseShard("2/3", &error);
  REQUIRE(s);
  CHECK(s->k == 2);
  CHECK(s->n == 3);
  CHECK_FALSE(s->Contains(0));
  CHECK(s->Contains(1));
  CHECK(s->Contains(4));
  CHECK_FALSE(s->Contains(5));
  for (const char* bad : {"0/2", "3/2", "1", "a/b", "1/0", "-1/2"}) {
    CHECK_FALSE(ParseShard(bad, &error));
    CHECK(error == std::string("--shard ") + bad + ": expected K/N with 1 <= K <= N (e.g. 1/4)");
  }
}

}  // namespace
}  // namespace aqesim::sweep
