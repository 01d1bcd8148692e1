// `aqesim report TUNE.json -o REPORT.md` on real tune results: numbers written as they are (no
// "9\.11"), configurations tied at one result in one row, and a note on a Pareto-front point
// faster and cheaper than the current configuration that tune did not recommend, saying why as
// tune's guardrails judged it.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"
#include "tests/tools/eventlog/test_util.h"

namespace aqesim::e2e {
namespace {

// The Markdown report of `tune INPUT ARGS... -o T.json`.
std::string TuneReport(const std::string& input, const std::vector<std::string>& args,
                       eventlog::testing::TempDir* dir) {
  const std::string tuned = dir->File("t.json"), md = dir->File("t.md");
  std::vector<std::string> tune = {"tune", input};
  tune.insert(tune.end(), args.begin(), args.end());
  tune.insert(tune.end(), {"-o", tuned});
  REQUIRE(RunAqesim(tune).exit_code == 0);
  REQUIRE(RunAqesim({"report", tuned, "-o", md}).exit_code == 0);
  return eventlog::testing::ReadBytes(md);
}

constexpr const char* kCopies = "(seed+1, data ×0.5, data ×2, hotter skew, flatter skew)";

TEST_CASE(
    "report of a tune of the join_agg import: tied results in one row, the front point that loses on a copy",
    "[e2e][tune][report]") {
  eventlog::testing::TempDir dir;
  const std::string scenario = dir.File("ja.json");
  REQUIRE(RunAqesim({"import-eventlog", eventlog::testing::Fixture("join_agg_on_yarn_eventlog.zstd"), "-o",
                     scenario, "-q"})
              .exit_code == 0);
  SECTION("no-loss (the default): #75 loses 0.58 % on a copy") {
    const std::string m = TuneReport(scenario, {}, &dir);
    CHECK(m.find("\\.") == std::string::npos);  // "9.11", not "9\.11"
    CHECK(
        m.find(
            "| 66 (+14 tied) | 26m | true | 3m | 816 | 119m | 9.11 | 1024m | 25.462 | 0.2122 | 0.9985 |\n") !=
        std::string::npos);
    CHECK(m.find("\nA row marked “+N tied” stands for N more configurations") != std::string::npos);
    CHECK(
        m.find("| 75 | 25.366 | 0.2114 |\n\n- Configuration #75 (25.366 s, 0.2114 core-hours) is faster and "
               "cheaper than the current configuration (25.487 s, 0.2124 core-hours) as given, and not "
               "recommended: on at least one copy over the guardrails " +
               std::string(kCopies) +
               " it loses more than 0.5 % — its objective is its worst ratio there, 1.0058 (its makespan ÷ "
               "the current configuration's on the same copy) — and a loss on any copy vetoes it.\n") !=
        std::string::npos);
  }
  SECTION("--guardrails worst: #24's worst ratio is 1.0081; 46 configurations at the current result") {
    const std::string m = TuneReport(scenario, {"--guardrails", "worst"}, &dir);
    CHECK(m.find("\\.") == std::string::npos);
    CHECK(m.find(
              "| 13 (+45 tied) | 18m | true | 1m | 263 | 411m | 9.7 | 992m | 25.487 | 0.2124 | 1.0000 |\n") !=
          std::string::npos);
    CHECK(
        m.find("- Configuration #24 (25.337 s, 0.2111 core-hours) is faster and cheaper than the current "
               "configuration (25.487 s, 0.2124 core-hours) as given, and not recommended: its objective is "
               "1.0081, the worst over the guardrails " +
               std::string(kCopies) +
               " of its makespan ÷ the current configuration's on the same copy: ≥ 1, so on at least one of "
               "them it is no better.\n") != std::string::npos);
  }
}

TEST_CASE("report of a tune of demo.json with --min-gain 20: the best point gains 14.4 %, noted, not set",
          "[e2e][tune][report]") {
  eventlog::testing::TempDir dir;
  const std::string m =
      TuneReport(SourcePath("scenarios/demo.json"), {"--budget", "30", "--min-gain", "20"}, &dir);
  CHECK(m.find("\\.") == std::string::npos);
  CHECK(
      m.find("- Configuration #19 (59.383 s, 0.6598 core-hours) is faster and cheaper than the current "
             "configuration (70.378 s, 0.7820 core-hours) as given, and not recommended: its mean gain over "
             "the guardrails " +
             std::string(kCopies) +
             ", losing on none, is 14.4 % (objective 0.8562), under the 20.0 % tune recommends at least "
             "(--min-gain).\n") != std::string::npos);
  // At the default 3 % it is recommended (its keys reduced to those that matter): no note.
  CHECK(TuneReport(SourcePath("scenarios/demo.json"), {"--budget", "30"}, &dir).find("- Configuration #") ==
        std::string::npos);
}

}  // namespace
}  // namespace aqesim::e2e
