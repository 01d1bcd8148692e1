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
  CHECK(KnownVariants().size() == 8);
  CHECK(c.variants.intel_target_post_shuffle_row_count == 20'000'000);
  CHECK(c.variants.intel_skewed_partition_row_count_threshold == 10'000'000);
  CHECK(c.variants.intel_skewed_partition_max_splits == 5);
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
        "aqesim.variant.las.splitByExactTotals, aqesim.variant.las.skewJoinAggWindowSides, "
        "aqesim.variant.las.multipleSkewedJoinsInStage, aqesim.variant.las.skewJoinsUnderUnion, "
        "aqesim.variant.bytedance.oneToManyBucketJoin, "
        "aqesim.variant.intel.rowCountTargets, aqesim.variant.intel.skewByRowCount, "
        "aqesim.variant.intel.targetPostShuffleRowCount, "
        "aqesim.variant.intel.skewedPartitionRowCountThreshold, "
        "aqesim.variant.intel.skewedPartitionMaxSplits)");
}

TEST_CASE(
    "Variants: the Intel–Baidu parameters are integers in range, kept when the comparison turns variants off",
    "[conf][variants]") {
  std::vector<ConfProblem> problems;
  const SqlConf c = ResolveSqlConf({{"aqesim.variant.intel.skewByRowCount", "true"},
                                    {"aqesim.variant.intel.targetPostShuffleRowCount", "1000"},
                                    {"aqesim.variant.intel.skewedPartitionRowCountThreshold", "0"},
                                    {"aqesim.variant.intel.skewedPartitionMaxSplits", "8"}},
                                   &problems);
  CHECK(problems.empty());
  CHECK(c.variants.EnabledNames() == std::vector<std::string>{"intel.skewByRowCount"});
  CHECK(c.variants.needs_records());
  CHECK(c.variants.intel_target_post_shuffle_row_count == 1000);
  CHECK(c.variants.intel_skewed_partition_row_count_threshold == 0);
  CHECK(c.variants.intel_skewed_partition_max_splits == 8);
  const VariantSwitches off = c.variants.AllOff();
  CHECK_FALSE(off.any());
  CHECK(off.intel_skewed_partition_max_splits == 8);
  const VariantSwitches only = off.Only(&VariantSwitches::intel_row_count_targets);
  CHECK(only.EnabledNames() == std::vector<std::string>{"intel.rowCountTargets"});
  CHECK(only.intel_target_post_shuffle_row_count == 1000);

  ResolveSqlConf({{"aqesim.variant.intel.targetPostShuffleRowCount", "0"},
                  {"aqesim.variant.intel.skewedPartitionMaxSplits", "2147483648"},
                  {"aqesim.variant.intel.skewedPartitionRowCountThreshold", "1e7"},
                  {"aqesim.variant.intel.skewedPartitionMaxSplit", "3"}},
                 &problems);
  REQUIRE(problems.size() == 4);  // in key order
  CHECK(problems[0].message ==
        "unknown variant 'aqesim.variant.intel.skewedPartitionMaxSplit'; did you mean "
        "'aqesim.variant.intel.skewedPartitionMaxSplits'?");
  CHECK(problems[1].message == "expected an integer from 1 to 2147483647, found \"2147483648\"");
  CHECK(problems[2].message == "expected an integer from 0 to 9223372036854775807, found \"1e7\"");
  CHECK(problems[3].message == "expected an integer from 1 to 9223372036854775807, found \"0\"");
}

}  // namespace
}  // namespace aqesim
