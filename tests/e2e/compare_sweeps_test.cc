// `aqesim compare` on two sweeps' JSON outputs: points matched by their swept values (keys in
// any order, "64m" = "67108864"), B − A per point, the fastest of each, the points whose AQE
// decisions differ — on hand-written sweeps whose numbers are checked by hand — and the exit-2
// refusals when the grids do not match.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"
#include "tests/tools/eventlog/test_util.h"

namespace aqesim::e2e {
namespace {

using nlohmann::ordered_json;

// A row as `aqesim sweep` writes it: AQE-on and -off makespans, coalescings / skew splits /
// broadcast conversions of the AQE-on run.
ordered_json Row(int point, ordered_json values, double on, double off, int coalescings, int splits,
                 int broadcasts) {
  return {{"point", point},
          {"values", std::move(values)},
          {"makespanSecondsAqeOn", on},
          {"makespanSecondsAqeOff", off},
          {"stages", 3},
          {"tasks", 40},
          {"spillBytes", 0},
          {"longestTaskSeconds", 1.5},
          {"coalescings", coalescings},
          {"skewSplits", splits},
          {"broadcastConversions", broadcasts},
          {"maxTaskSkewRatio", 1.0},
          {"failures", 0},
          {"error", nullptr}};
}

ordered_json Sweep(std::vector<ordered_json> grid, std::vector<ordered_json> rows) {
  const size_t points = rows.size();
  return {{"sweep",
           {{"scenario", "hand"},
            {"scenarioFile", "hand.json"},
            {"conf", ordered_json::array()},
            {"grid", std::move(grid)},
            {"points", points},
            {"baseline", ordered_json::object()}}},
          {"rows", std::move(rows)}};
}

const char* const kAdvisory = "spark.sql.adaptive.advisoryPartitionSizeInBytes";
const char* const kFactor = "spark.sql.adaptive.skewJoin.skewedPartitionFactor";

TEST_CASE("compare: two sweeps' points matched by their values, B − A, the fastest of each, decisions",
          "[e2e][compare]") {
  eventlog::testing::TempDir dir;
  // A: advisory × factor. B: the same grid with the keys the other way round and the sizes in bytes.
  const ordered_json a =
      Sweep({{{"key", kAdvisory}, {"values", {"16m", "64m"}}}, {{"key", kFactor}, {"values", {"2", "5"}}}},
            {Row(0, {{kAdvisory, "16m"}, {kFactor, "2"}}, 10.0, 20.0, 1, 2, 0),
             Row(1, {{kAdvisory, "16m"}, {kFactor, "5"}}, 12.0, 20.0, 1, 0, 0),
             Row(2, {{kAdvisory, "64m"}, {kFactor, "2"}}, 8.0, 20.0, 1, 2, 0),
             Row(3, {{kAdvisory, "64m"}, {kFactor, "5"}}, 9.5, 20.0, 1, 0, 0)});
  const ordered_json b = Sweep({{{"key", kFactor}, {"values", {"2", "5"}}},
                                {{"key", kAdvisory}, {"values", {"16777216", "67108864"}}}},
                               {Row(0, {{kFactor, "2"}, {kAdvisory, "16777216"}}, 11.0, 22.0, 1, 2, 0),
                                Row(1, {{kFactor, "2"}, {kAdvisory, "67108864"}}, 8.0, 22.0, 1, 4, 0),
                                Row(2, {{kFactor, "5"}, {kAdvisory, "16777216"}}, 9.0, 22.0, 1, 0, 1),
                                Row(3, {{kFactor, "5"}, {kAdvisory, "67108864"}}, 9.5, 22.0, 1, 0, 0)});
  const std::string pa = dir.Write("a.json", a.dump()), pb = dir.Write("b.json", b.dump());
  const CommandResult r = RunAqesim({"compare", pa, pb, "--format", "json"});
  INFO(r.stderr_text);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json c = nlohmann::json::parse(r.stdout_text);
  REQUIRE(c["points"].size() == 4);
  // In A's order; B's point for (16m, 5) is its point 2.
  CHECK(c["points"][1]["values"][kAdvisory] == "16m");
  CHECK(c["points"][1]["b"]["point"] == 2);
  // B − A: 11 − 10, 9 − 12, 8 − 8, 9.5 − 9.5.
  CHECK(c["points"][0]["differenceSeconds"] == 1.0);
  CHECK(c["points"][1]["differenceSeconds"] == -3.0);
  CHECK(c["points"][2]["differenceSeconds"] == 0.0);
  CHECK(c["points"][3]["differenceSeconds"] == 0.0);
  // Decisions: (16m, 5) B converted a join to broadcast; (64m, 2) B split 4 partitions, A 2.
  CHECK(c["points"][0]["decisionsDiffer"] == false);
  CHECK(c["points"][1]["decisionsDiffer"] == true);
  CHECK(c["points"][2]["decisionsDiffer"] == true);
  CHECK(c["points"][3]["decisionsDiffer"] == false);
  CHECK(c["decisionsDiffer"] == 2);
  // The fastest of A: point 2 (64m, 2) at 8 s; of B: its point 1, the same values, 8 s.
  CHECK(c["bestA"]["point"] == 2);
  CHECK(c["bestA"]["makespanSeconds"] == 8.0);
  CHECK(c["bestB"]["point"] == 1);
  CHECK(c["bestB"]["values"][kFactor] == "2");
  CHECK(c["band"].is_null());

  const CommandResult t = RunAqesim({"compare", pa, pb});
  REQUIRE(t.exit_code == 0);
  CHECK(t.stdout_text.rfind("A: " + pa + "\nB: " + pb + "\n4 points over " + kAdvisory + ", " + kFactor, 0) ==
        0);
  CHECK(t.stdout_text.find("16m, 5  12.000   9.000   -3.000  -25.0 %    1/0/0    1/0/1  differ\n") !=
        std::string::npos);
  CHECK(t.stdout_text.find("fastest of A: point 2 (" + std::string(kAdvisory) + "=64m, " + kFactor +
                           "=2), 8.000 s\n") != std::string::npos);
  CHECK(t.stdout_text.find("AQE decisions differ at 2 of 4 points\n") != std::string::npos);
}

TEST_CASE("compare: sweeps whose grids do not match are exit 2, naming the points", "[e2e][compare]") {
  eventlog::testing::TempDir dir;
  const ordered_json a = Sweep(
      {{{"key", kAdvisory}, {"values", {"16m", "64m"}}}},
      {Row(0, {{kAdvisory, "16m"}}, 10.0, 20.0, 1, 0, 0), Row(1, {{kAdvisory, "64m"}}, 9.0, 20.0, 1, 0, 0)});
  const ordered_json other_key =
      Sweep({{{"key", kFactor}, {"values", {"2", "5"}}}},
            {Row(0, {{kFactor, "2"}}, 10.0, 20.0, 1, 0, 0), Row(1, {{kFactor, "5"}}, 9.0, 20.0, 1, 0, 0)});
  const ordered_json other_value = Sweep(
      {{{"key", kAdvisory}, {"values", {"16m", "256m"}}}},
      {Row(0, {{kAdvisory, "16m"}}, 10.0, 20.0, 1, 0, 0), Row(1, {{kAdvisory, "256m"}}, 9.0, 20.0, 1, 0, 0)});
  const std::string pa = dir.Write("a.json", a.dump()), pk = dir.Write("k.json", other_key.dump()),
                    pv = dir.Write("v.json", other_value.dump());
  const CommandResult keys = RunAqesim({"compare", pa, pk});
  CHECK(keys.exit_code == 2);
  CHECK(keys.stdout_text.empty());
  CHECK(keys.stderr_text == "aqesim: error: " + pk + ": /sweep/grid: swept keys " + kFactor + ", not " + pa +
                                "'s " + kAdvisory + " (compare matches points by their swept values)\n");
  const CommandResult values = RunAqesim({"compare", pa, pv});
  CHECK(values.exit_code == 2);
  CHECK(values.stderr_text == "aqesim: error: " + pa + ": /rows/1: point 1 (" + kAdvisory +
                                  "=64m) is not in " + pv + "\naqesim: error: " + pv +
                                  ": /rows/1: point 1 (" + kAdvisory + "=256m) is not in " + pa + "\n");
  // A sweep against a run result.
  const std::string run = dir.File("run.json");
  REQUIRE(
      RunAqesim({"run", SourcePath("scenarios/skew-join.json"), "--format", "json", "-o", run}).exit_code ==
      0);
  const CommandResult mixed = RunAqesim({"compare", pa, run});
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.stderr_text ==
        "aqesim: error: " + pa + " is a sweep's output and " + run +
            " is not: compare two `aqesim sweep` JSON outputs, or two `aqesim run --format "
            "json` results\n");
}

}  // namespace
}  // namespace aqesim::e2e
