// "Why not" end to end: `run` lists why each rule left an exchange or join as it was, within 160
// columns; `report` turns an aggregate's hot key into advice beyond configuration and neither
// recommends nor simulates a skew-join key for it.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// Characters (UTF-8 code points) of the longest line.
size_t WidestLine(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  size_t widest = 0;
  while (std::getline(in, line)) {
    size_t chars = 0;
    for (unsigned char c : line) chars += (c & 0xC0) != 0x80;
    widest = std::max(widest, chars);
  }
  return widest;
}

TEST_CASE("run: the rules' early-outs under the decisions, within 160 columns", "[e2e][whynot]") {
  const CommandResult r =
      RunAqesim({"run", SourcePath("scenarios/cases/c08_outer_join_skew_side.json"), "--aqe", "on"});
  REQUIRE(r.exit_code == 0);
  CHECK(Contains(r.stdout_text, "\nnot applied:\n"));
  CHECK(Contains(
      r.stdout_text,
      "  OptimizeSkewedJoin j_full_outer: FullOuter join cannot split either side: right partition 5 "
      "(10.0 GiB) is above the skew threshold 526.9 MiB\n"));
  CHECK(Contains(
      r.stdout_text,
      "  OptimizeSkewedJoin j_left_outer: LeftOuter join cannot split the right side: right partition 5 "
      "(10.0 GiB) is above the skew threshold 526.9 MiB\n"));
  CHECK(Contains(r.stdout_text,
                 "  JoinSelection j_full_outer: a FullOuter join cannot broadcast either side\n"));
  CHECK(WidestLine(r.stdout_text.substr(r.stdout_text.find("decisions:"))) <= 160);
}

TEST_CASE("report: an aggregate's hot key gets salting advice, no skew-join key", "[e2e][whynot][report]") {
  // 30 % of 20 GiB in partition 7 of 200, read by an aggregate (no join).
  const CommandResult r =
      RunAqesim({"report", SourcePath("tests/data/scenarios/aggregate-hot-key.json"), "--format", "md"});
  REQUIRE(r.exit_code == 0);
  CHECK(Contains(r.stdout_text,
                 "An aggregate reads it, and AQE never splits an aggregate's partitions: salt the key "
                 "or pre-aggregate."));
  CHECK(Contains(r.stdout_text, "No configuration change."));
  CHECK(Contains(
      r.stdout_text,
      "No configuration key helps: AQE splits skewed partitions of joins only. Salt the key (add a random "
      "suffix, aggregate, then aggregate again without it), pre-aggregate before the shuffle, or split "
      "the hot key out and aggregate it separately."));
  CHECK(Contains(r.stdout_text, "## Why AQE did not act"));
  // Neither recommended nor simulated: no skew-join key anywhere, no "Simulated with" note.
  CHECK_FALSE(Contains(r.stdout_text, "skewedPartitionFactor"));
  CHECK_FALSE(Contains(r.stdout_text, "skewedPartitionThresholdInBytes"));
  CHECK_FALSE(Contains(r.stdout_text, "Simulated with"));
  CHECK_FALSE(Contains(r.stdout_text, "Checked by simulation"));
}

}  // namespace
}  // namespace aqesim::e2e
