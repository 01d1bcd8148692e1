// `aqesim explain --format table` on the imported q72 scenario (nine joins, 13,504 tasks) and on
// skew-join.json: every line within 160 columns; the skew split and its exchange are there.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "tests/e2e/e2e_util.h"
#include "tools/text/table_text.h"

namespace aqesim::e2e {
namespace {

void CheckWithin160(const std::string& text) {
  std::istringstream lines(text);
  int n = 0;
  for (std::string line; std::getline(lines, line); ++n) {
    INFO(line);
    CHECK(CodePoints(line) <= 160);
  }
  CHECK(n > 5);
}

TEST_CASE("explain --format table: q72's imported scenario within 160 columns", "[e2e][explain]") {
  const CommandResult r =
      RunAqesim({"explain", SourcePath("scenarios/recorded/nds_q72_dataproc_2_2.json"), "--format", "table"});
  REQUIRE(r.exit_code == 0);
  CheckWithin160(r.stdout_text);
  CHECK(r.stdout_text.find("\nExchanges (") != std::string::npos);
  CHECK(r.stdout_text.find("\nJoins (as planned → as run):\n") != std::string::npos);
  // New-user finding 6: the column of dataSize (uncompressed rows; e4 36.6 GiB beside 10 GiB of
  // shuffle written) was headed "written".
  CHECK(r.stdout_text.find("  dataSize  seen min / med / max") != std::string::npos);
  CHECK(r.stdout_text.find("written  seen min") == std::string::npos);
}

TEST_CASE("explain --format table: skew-join's split and the exchange it came from", "[e2e][explain]") {
  const CommandResult r = RunAqesim({"explain", SourcePath("scenarios/skew-join.json"), "--format", "table"});
  REQUIRE(r.exit_code == 0);
  CheckWithin160(r.stdout_text);
  CHECK(r.stdout_text.find("  OptimizeSkewedJoin: j1: split 1 left / 0 right skewed partitions") !=
        std::string::npos);
  CHECK(r.stdout_text.find("  j1: SortMergeJoin, skew join\n") != std::string::npos);
}

TEST_CASE("explain --format table: 'coalesced' counts the tasks that read two or more partitions",
          "[e2e][explain]") {
  // coalesce-aqe-blog: 5 → 3 partitions (50 + 10 MiB merged, 50 and 70 alone): one coalesced task.
  const CommandResult blog =
      RunAqesim({"explain", SourcePath("scenarios/coalesce-aqe-blog.json"), "--format", "table"});
  REQUIRE(blog.exit_code == 0);
  CHECK(Contains(blog.stdout_text,
                 "\n  e1            1      3          1                      50.0 / 60.0 / 70.0 MiB"));
  // bloom-filter-subquery: AQE made no decision; its 64 reads of one partition each are not
  // coalesced (new-user trial: the column said 64).
  const CommandResult bloom =
      RunAqesim({"explain", SourcePath("scenarios/bloom-filter-subquery.json"), "--format", "table"});
  REQUIRE(bloom.exit_code == 0);
  CHECK(Contains(bloom.stdout_text,
                 "\n  e1                  5     64                                 38.4 / 38.4"));
}

TEST_CASE("explain --format table: the true and the driver-seen size ratios say which they are",
          "[e2e][explain]") {
  // range-sort-hot-key: the true max ÷ median of t-exchange is 62.7×, the driver sees 60.2× (MapStatus
  // rounds each block up); both were printed unlabelled.
  const CommandResult r =
      RunAqesim({"explain", SourcePath("scenarios/variants/range-sort-hot-key.json"), "--format", "table"});
  REQUIRE(r.exit_code == 0);
  CheckWithin160(r.stdout_text);
  CHECK(r.stdout_text.find("true min / med / max          true max÷med\n") != std::string::npos);
  CHECK(r.stdout_text.find("5.9 KiB / 19.6 MiB / 1.2 GiB         62.7×\n") != std::string::npos);
  CHECK(r.stdout_text.find("1.2 GiB, 60.2× the median\n    21.0 MiB (driver-seen MapStatus sizes; skew "
                           "threshold 256.0 MiB)") != std::string::npos);
}

}  // namespace
}  // namespace aqesim::e2e
