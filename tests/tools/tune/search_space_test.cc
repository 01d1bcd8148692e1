#include "tools/tune/search_space.h"

#include <catch2/catch.hpp>

namespace aqesim::tune {
namespace {

SpaceAxis Parse(const std::string& arg) {
  std::string error;
  const std::optional<SpaceAxis> a = ParseSpaceArg(arg, &error);
  INFO(error);
  REQUIRE(a);
  return *a;
}

std::string ErrorOf(const std::string& arg) {
  std::string error;
  CHECK_FALSE(ParseSpaceArg(arg, &error));
  return error;
}

TEST_CASE("a --space choice keeps its values in the order given") {
  const SpaceAxis a = Parse("spark.sql.adaptive.coalescePartitions.parallelismFirst= true , false");
  CHECK(a.key == "spark.sql.adaptive.coalescePartitions.parallelismFirst");
  CHECK(a.kind == SpaceAxis::Kind::kChoice);
  CHECK(a.choices == std::vector<std::string>{"true", "false"});
  CHECK(a.Cardinality() == 2);
  CHECK(a.ToString() == "spark.sql.adaptive.coalescePartitions.parallelismFirst=true,false");
}

TEST_CASE("a size range is whole units of the smaller suffix") {
  const SpaceAxis a = Parse("spark.sql.adaptive.advisoryPartitionSizeInBytes=16m..1g:log");
  CHECK(a.kind == SpaceAxis::Kind::kInteger);
  CHECK(a.unit == "m");
  CHECK(a.low == 16);
  CHECK(a.high == 1024);
  CHECK(a.log_scale);
  CHECK(a.Cardinality() == 1009);
  CHECK(a.ToString() == "spark.sql.adaptive.advisoryPartitionSizeInBytes=16m..1024m:log");
  CHECK(Parse("k=512k..2mb").low == 512);
  CHECK(Parse("k=512k..2mb").high == 2048);
}

TEST_CASE("integer and decimal ranges") {
  const SpaceAxis i = Parse("spark.sql.shuffle.partitions=100..400");
  CHECK(i.kind == SpaceAxis::Kind::kInteger);
  CHECK(i.unit.empty());
  CHECK(i.Cardinality() == 301);
  const SpaceAxis d = Parse("spark.sql.adaptive.skewJoin.skewedPartitionFactor=2.0..10");
  CHECK(d.kind == SpaceAxis::Kind::kDecimal);
  CHECK(d.Cardinality() == 0);
  CHECK(d.ToString() == "spark.sql.adaptive.skewJoin.skewedPartitionFactor=2..10");
}

TEST_CASE("bad --space arguments name the argument") {
  CHECK(ErrorOf("noequals") == "--space noequals: expected KEY=V1,V2,... or KEY=LOW..HIGH[:log]");
  CHECK(ErrorOf("k=a,,b") == "--space k=a,,b: empty value");
  CHECK(ErrorOf("k=a,b,a") == "--space k=a,b,a: value a given twice");
  CHECK(ErrorOf("k=2,2.0,2e0") == "--space k=2,2.0,2e0: value 2.0 is 2 again");  // one number (hostile round)
  CHECK(ErrorOf("k=64m,67108864") == "--space k=64m,67108864: value 67108864 is 64m again");
  CHECK(ErrorOf("k=10..5") == "--space k=10..5: LOW must be below HIGH");
  CHECK(ErrorOf("k=0..5:log") == "--space k=0..5:log: a log-scale range must be above 0");
  CHECK(ErrorOf("k=16m..400") == "--space k=16m..400: give both bounds a size suffix or neither");
  CHECK(ErrorOf("k=x..y") == "--space k=x..y: expected numbers, or sizes such as 16m..1g");
  CHECK(ErrorOf("k=1..") == "--space k=1..: a range needs LOW..HIGH");
  // Hostile round 3: 1e300..1e301 said "LOW must be below HIGH" (both bounds cut to 63 digits);
  // 15 digits of terabytes overflowed an int64; TRUE was another value than true.
  CHECK(ErrorOf("k=1e300..1e301") == "--space k=1e300..1e301: bounds beyond ±10^15 are not supported");
  CHECK(ErrorOf("k=1b..999999999999999t") == "--space k=1b..999999999999999t: HIGH is too large");
  CHECK(ErrorOf("k=true,TRUE") == "--space k=true,TRUE: value TRUE is true again");
  CHECK(Parse("k=1e-300..1").low == 1e-300);
}

TEST_CASE("Encode makes a variable per searched axis; Decode rounds back to the values") {
  const std::vector<SpaceAxis> axes = {Parse("a=x,y,z"), Parse("b=only"), Parse("c=16m..1024m:log"),
                                       Parse("d=100..400"), Parse("e=2.0..10")};
  const SpaceEncoding e = Encode(axes);
  CHECK(e.variable_of_axis == std::vector<int>{0, -1, 1, 2, 3});
  CHECK(e.lower[0] == 0);
  CHECK(e.upper[0] == 2);
  CHECK(e.is_integer == std::vector<bool>{true, false, true, false});
  CHECK(e.lower[1] == Approx(std::log(16.0)));
  CHECK(e.upper[1] == Approx(std::log(1024.0)));
  // ln 100 = 4.605: e^4.605 rounds to 100 MiB; 2.71828 has 3 significant digits 2.72.
  CHECK(Decode(axes, e, {1.2, 4.60517, 250, 2.71828}) ==
        std::vector<std::string>{"y", "only", "100m", "250", "2.72"});
  // Out-of-bounds requests are clamped.
  CHECK(Decode(axes, e, {9, 99, -5, 50}) == std::vector<std::string>{"z", "only", "1024m", "100", "10"});
}

TEST_CASE("Enumerate lists the points in grid order, first axis slowest") {
  const std::vector<SpaceAxis> axes = {Parse("a=x,y"), Parse("b=1..3")};
  const auto points = Enumerate(axes, 100);
  REQUIRE(points);
  CHECK(*points == std::vector<std::vector<std::string>>{
                       {"x", "1"}, {"x", "2"}, {"x", "3"}, {"y", "1"}, {"y", "2"}, {"y", "3"}});
  CHECK_FALSE(Enumerate(axes, 5));
  CHECK_FALSE(Enumerate({Parse("e=2.0..10")}, 100));
}

}  // namespace
}  // namespace aqesim::tune
