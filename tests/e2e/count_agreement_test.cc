// Counts and their nouns agree in what the commands print ("200 → 1 partition", "1 skew split"),
// new-user finding g of issue 17: "1 skewed partitions".
#include <catch2/catch.hpp>
#include <string>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

TEST_CASE("run: a coalescing to one partition and a local read of one task are singular", "[e2e][text]") {
  // broadcast-at-runtime: e2's 2 MiB coalesce into one partition, then read locally by one task.
  const CommandResult r =
      RunAqesim({"run", SourcePath("scenarios/broadcast-at-runtime.json"), "--aqe", "on"});
  REQUIRE(r.exit_code == 0);
  CHECK(Contains(r.stdout_text, "  CoalesceShufflePartitions e2: 200 → 1 partition (target 1.0 MiB)\n"));
  CHECK(Contains(
      r.stdout_text,
      "  OptimizeShuffleWithLocalRead e2: local shuffle read (whole stage input), 1 → 1 task over 16 "
      "mappers\n"));
  CHECK_FALSE(Contains(r.stdout_text, " 1 partitions"));
  CHECK_FALSE(Contains(r.stdout_text, " 1 tasks"));
}

TEST_CASE("report: one skew split is one", "[e2e][text][report]") {
  const CommandResult r = RunAqesim({"report", SourcePath("scenarios/skew-join.json"), "--format", "md"});
  REQUIRE(r.exit_code == 0);
  CHECK(Contains(r.stdout_text,
                 "- decisions: 0 coalescings, 1 skew split, 0 runtime broadcast conversions, 0 local shuffle "
                 "reads\n"));
  CHECK(Contains(r.stdout_text, "with AQE on (1 skewed partition split) within 1.0×"));
  CHECK(Contains(r.stdout_text, "OptimizeSkewedJoin split 1 skewed partition in the AQE run."));
  CHECK_FALSE(Contains(r.stdout_text, "(s)"));
}

}  // namespace
}  // namespace aqesim::e2e
