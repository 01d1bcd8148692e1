#include "tools/report/why_not_advice.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace aqesim::report {

TEST_CASE("WhyNotAdvice: skew hidden by HighlyCompressedMapStatus claims no exact sizes", "[report]") {
  NotApplied n;
  n.rule = "OptimizeSkewedJoin";
  n.target = "j1";
  n.reason = "hiddenByMapStatus";
  n.message = "j1: left partition 0 is skewed";
  // Above spark.shuffle.minNumPartitionsToHighlyCompress the driver sees each map's average; with
  // accurateBlockSkewedFactor the skewed blocks are kept apart, each rounded to a power of 1.1.
  CHECK(WhyNotAdvice({n}) ==
        std::vector<std::string>{
            "OptimizeSkewedJoin did not act on j1: left partition 0 is skewed. Set "
            "spark.shuffle.accurateBlockSkewedFactor (e.g. 5) so that HighlyCompressedMapStatus keeps the "
            "skewed "
            "blocks out of its average (each recorded to within 10 %), or keep the partition count at most "
            "spark.shuffle.minNumPartitionsToHighlyCompress (CompressedMapStatus: every block to within 10 "
            "%)."});
}

}  // namespace aqesim::report
