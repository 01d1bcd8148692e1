// Named variants: keys under aqesim.variant., off by default, booleans, unknown names refused.
#include "models/conf/variants.h"

#include <catch2/catch.hpp>

#include "models/conf/spark_conf.h"

namespace aqesim {
namespace {

TEST_CASE("Variants: every variant is off by default", "[conf][variants]") {
  const SqlConf c = ResolveSqlConf({}, nullptr);
  CHECK_FALSE(c.variants.any());
  CHECK(c.variants.EnabledNames().empty());
  CHECK(KnownVariants().size() == 3);
}

TEST_CASE("Variants: enabled through the configuration, in table order", "[conf][variants]") {
  std::vector<ConfProblem> problems;
  const SqlConf c = ResolveSqlConf(
      {{"aqesim.variant.las.splitByExactTotals", "true"}, {"aqesim.variant.las.exactReducerTotals", "TRUE"}},
      &problems);
  CHECK(problems.empty());
  CHECK(c.variants.las_exact_reducer_totals);
  CHECK(c.variants.las_split_by_exact_totals);
  CHECK(c.variants.EnabledNames() ==
        std::vector<std::string>{"las.exactReducerTotals", "las.splitByExactTotals"});
  const SqlConf off = ResolveSqlConf({{"aqesim.variant.las.exactReducerTotals", "false"}}, &problems);
  CHECK_FALSE(off.variants.any());
}

TEST_CASE("Variants: an unknown name or a non-boolean value is an error", "[conf][variants]") {
  std::vector<ConfProblem> problems;
  ResolveSqlConf({{"aqesim.variant.las.exactReducerTotal", "true"},
                  {"aqesim.variant.las.splitByExactTotals", "yes please"},
                  {"aqesim.variant.zzz", "true"}},
                 &problems);
  REQUIRE(problems.size() == 3);
  CHECK(problems[0].is_error);
  CHECK(problems[0].message ==
        "unknown variant 'aqesim.variant.las.exactReducerTotal'; did you mean "
        "'aqesim.variant.las.exactReducerTotals'?");
  CHECK(problems[1].message == "expected a boolean (true or false), found \"yes please\"");
  CHECK(problems[2].message ==
        "unknown variant 'aqesim.variant.zzz' (known: aqesim.variant.las.exactReducerTotals, "
        "aqesim.variant.las.splitByExactTotals, aqesim.variant.bytedance.oneToManyBucketJoin)");
}

}  // namespace
}  // namespace aqesim
