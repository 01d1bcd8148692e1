// The scenario report and the sweep report recommend with one recommender
// (tools/report/recommender.h): on every bundled scenario, the scenario report's settings are
// those of `aqesim report` on the sweep it names (run here with the command it prints), or both
// recommend nothing; and a key that does not matter is recommended by neither.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"
#include "tests/tools/eventlog/test_util.h"

namespace aqesim::e2e {
namespace {

namespace fs = std::filesystem;

// The "key value" lines of a Markdown report's spark-defaults.conf block, comments left out.
std::vector<std::string> ConfLines(const std::string& md) {
  std::vector<std::string> out;
  const size_t start = md.find("```properties\n");
  if (start == std::string::npos) return out;
  std::istringstream in(md.substr(start + 14));
  std::string line;
  while (std::getline(in, line) && line.rfind("```", 0) != 0)
    if (!line.empty() && line[0] != '#') out.push_back(line);
  return out;
}

// The arguments of the `aqesim sweep ...` command the scenario report names (Markdown escapes
// undone, single quotes as a POSIX shell reads them), without "aqesim sweep" and "-o SWEEP.json".
std::vector<std::string> SweepArgs(const std::string& md) {
  const size_t at = md.find("aqesim sweep ");
  if (at == std::string::npos) return {};
  std::string text = md.substr(at, md.find('\n', at) - at);
  std::string plain;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) ++i;
    plain.push_back(text[i]);
  }
  std::vector<std::string> args;
  std::string cur;
  bool quoted = false, any = false;
  for (char c : plain) {
    if (c == '\'') {
      quoted = !quoted;
      any = true;
    } else if (c == ' ' && !quoted) {
      if (any || !cur.empty()) args.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur.push_back(c);
    }
  }
  if (any || !cur.empty()) args.push_back(cur);
  args.erase(args.begin(), args.begin() + 2);                                           // "aqesim sweep"
  if (args.size() >= 2 && args[args.size() - 2] == "-o") args.resize(args.size() - 2);  // "-o SWEEP.json"
  return args;
}

std::vector<std::string> BundledScenarios() {
  std::vector<std::string> out;
  for (const char* dir :
       {"scenarios", "scenarios/cases", "scenarios/vectors", "scenarios/variants", "scenarios/recorded"}) {
    for (const fs::directory_entry& e : fs::directory_iterator(SourcePath(dir))) {
      if (e.path().extension() != ".json") continue;
      std::ifstream in(e.path());
      std::stringstream ss;
      ss << in.rdbuf();
      if (Contains(ss.str(), "\"plan\"")) out.push_back(e.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST_CASE("report: the scenario report and the report on the sweep it names recommend the same",
          "[e2e][report][agreement][longest]") {
  eventlog::testing::TempDir dir;
  const std::vector<std::string> scenarios = BundledScenarios();
  CHECK(scenarios.size() >= 40);
  int swept = 0, recommending = 0;
  for (const std::string& scenario : scenarios) {
    INFO(scenario);
    const CommandResult r = RunAqesim({"report", scenario, "--format", "md"});
    REQUIRE(r.exit_code == 0);
    const std::vector<std::string> lines = ConfLines(r.stdout_text);
    std::vector<std::string> args = SweepArgs(r.stdout_text);
    if (args.empty()) {
      // Nothing to sweep (no shuffle, no rule's key): no key is recommended but AQE itself.
      for (const std::string& l : lines) CHECK(l.rfind("spark.sql.adaptive.enabled ", 0) == 0);
      continue;
    }
    ++swept;
    recommending += !lines.empty();
    CHECK(args.front() == scenario);
    const std::string out = dir.File("sweep-" + std::to_string(swept) + ".json");
    args.insert(args.begin(), "sweep");
    args.push_back("-o");
    args.push_back(out);
    const CommandResult s = RunAqesim(args);
    INFO(s.stderr_text);
    REQUIRE(s.exit_code == 0);
    const CommandResult sr = RunAqesim({"report", out, "--format", "md"});
    REQUIRE(sr.exit_code == 0);
    CHECK(ConfLines(sr.stdout_text) == lines);
  }
  // Not a vacuous agreement: most scenarios are swept, and some get a change.
  CHECK(swept >= 30);
  CHECK(recommending >= 3);
}

TEST_CASE(
    "report: demo.json — report and tune judge alike: 88m loses on a copy; tune's finer search "
    "finds a change that loses on none",
    "[e2e][report][agreement]") {
  // Was (new-user trial, findings 16 and 5): the report recommended the skew threshold 88m for a
  // 2.6 % gain (98.82 s -> 96.22 s, its least gain 2 %) while tune, at 3 %, kept the current
  // configuration. One threshold now, and one judgement (tune's default, no-loss): with the cost
  // defaults of results/defaults.md 88m gains 5.3 % as given (70.38 s -> 66.63 s) but loses 1.0 %
  // on tune's flatter-skew copy, so the report withdraws it.
  const CommandResult r = RunAqesim({"report", SourcePath("scenarios/demo.json"), "--format", "md"});
  REQUIRE(r.exit_code == 0);
  CHECK(ConfLines(r.stdout_text).empty());
  CHECK(Contains(
      r.stdout_text,
      "Simulated with spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes 88m: 66.63 s (52–510 s) "
      "against 70.38 s (55–540 s) now, but on the copies aqesim tune also judges a change on (seed+1, "
      "data ×0.5 and ×2, a hotter and a flatter skew) it loses 1.0% on flatter skew, so nothing is "
      "recommended."));
  CHECK(Contains(r.stdout_text, "nothing to set (aqesim tune searches these keys more finely).**"));
  // tune, judging the same way, searches further (spark.sql.shuffle.partitions among its keys, which
  // the report does not sweep): what it recommends loses on no copy and gains over 3 % on average.
  const CommandResult t =
      RunAqesim({"tune", SourcePath("scenarios/demo.json"), "--budget", "20", "--format", "json"});
  REQUIRE(t.exit_code == 0);
  const nlohmann::json tune = nlohmann::json::parse(t.stdout_text);
  REQUIRE(tune["recommendation"]["recommended"] == true);
  CHECK(tune["recommendation"]["gainPercent"].get<double>() >= 3);
  CHECK(tune["recommendation"]["conf"].contains("spark.sql.shuffle.partitions"));
  for (const auto& [copy, ratio] : tune["best"]["ratios"].items()) CHECK(ratio.get<double>() <= 1.005);
}

TEST_CASE("report: a dimension 6.1x the runtime broadcast threshold is within reach: the threshold is raised",
          "[e2e][report][agreement]") {
  // A new user's case (tests/data/scenarios/dimension-61m-at-runtime.json): the dimension is 61.4
  // MiB at run time against the default 10 MiB. The report proposed the threshold only within 4x
  // of it and recommended the partitions alone (74.60 s -> 60.91 s) while tune's search broadcast
  // the side at 130m (63.21 s); both together, 52.29 s. Within 8x it proposes 128m (the next power
  // of two MiB above 1.1 x 61.4 MiB), the sweep keeps both keys, and each one's own gain is said.
  const CommandResult r = RunAqesim(
      {"report", SourcePath("tests/data/scenarios/dimension-61m-at-runtime.json"), "--format", "md"});
  REQUIRE(r.exit_code == 0);
  CHECK(ConfLines(r.stdout_text) ==
        std::vector<std::string>{"spark.sql.shuffle.partitions 1600",
                                 "spark.sql.adaptive.autoBroadcastJoinThreshold 128m"});
  CHECK(
      Contains(r.stdout_text,
               "- Checked by simulation: with spark.sql.shuffle.partitions 1600, "
               "spark.sql.adaptive.autoBroadcastJoinThreshold 128m the makespan goes from 74.60 s (58–570 s) "
               "to 52.29 s (41–400 s)."));
  CHECK(Contains(r.stdout_text, "; alone: makespan 74.60 s (58–570 s) → 63.21 s (49–480 s)\n"));
  CHECK(Contains(
      r.stdout_text,
      "(by 51.4 MiB, 6.1×). Raising spark.sql.adaptive.autoBroadcastJoinThreshold (AQE's join selection "
      "on runtime sizes; unset, it is spark.sql.autoBroadcastJoinThreshold) above 61.4 MiB would "
      "broadcast it at run time"));
}

TEST_CASE("report: a key that does not matter is recommended by neither report", "[e2e][report][agreement]") {
  // minPartitionSize does not change skew-join.json's makespan at any advisory size: the sweep
  // says so and does not recommend it; the scenario report does not sweep or recommend it.
  eventlog::testing::TempDir dir;
  const std::string scenario = SourcePath("scenarios/skew-join.json");
  const std::string out = dir.File("sweep.json");
  const CommandResult s = RunAqesim(
      {"sweep", scenario, "--grid", "spark.sql.adaptive.coalescePartitions.minPartitionSize=1m,2m,4m",
       "--grid", "spark.sql.adaptive.advisoryPartitionSizeInBytes=16m,64m,256m", "-o", out});
  REQUIRE(s.exit_code == 0);
  const CommandResult sr = RunAqesim({"report", out, "--format", "md"});
  REQUIRE(sr.exit_code == 0);
  CHECK(Contains(
      sr.stdout_text,
      "spark.sql.adaptive.coalescePartitions.minPartitionSize does not matter here: each of its values "
      "gives the same makespan (within 0.5%) whatever the other keys are."));
  const CommandResult r = RunAqesim({"report", scenario, "--format", "md"});
  REQUIRE(r.exit_code == 0);
  for (const std::string& text : {sr.stdout_text, r.stdout_text}) {
    for (const std::string& l : ConfLines(text)) CHECK_FALSE(Contains(l, "minPartitionSize"));
  }
  CHECK(ConfLines(sr.stdout_text) == ConfLines(r.stdout_text));
}

}  // namespace
}  // namespace aqesim::e2e
