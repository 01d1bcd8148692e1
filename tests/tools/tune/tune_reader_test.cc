#include "tools/tune/tune_reader.h"

#include <catch2/catch.hpp>

#include "tools/report/tune_report.h"

namespace aqesim::tune {
namespace {

SpaceAxis Parse(const std::string& arg) {
  std::string error;
  return *ParseSpaceArg(arg, &error);
}

Evaluation Point(std::vector<std::string> values, double objective, double makespan, double core_hours) {
  Evaluation e;
  e.values = std::move(values);
  e.objective = objective;
  e.makespan_seconds = makespan;
  e.core_hours = core_hours;
  return e;
}

TuneOutcome Outcome() {
  TuneOutcome o;
  o.scenario_path = "s.json";
  o.axes = {Parse("spark.sql.adaptive.advisoryPartitionSizeInBytes=16m..1g:log"),
            Parse("cluster.executors=1..8")};
  o.objective.kind = ObjectiveSpec::Kind::kWeighted;
  o.objective.seconds_per_core_hour = 100;
  o.guardrails = {"as given", "seed+1"};
  o.budget = 10;
  o.seed = 3;
  o.min_gain = 0.03;
  o.current.makespan_seconds = 100;
  o.current.core_hours = 2;
  o.current_trust = TuneObjective::Trust{"modelled", MakespanBand{66, 440}};
  o.search.evaluations = {Point({"64m", "4"}, 1.0, 100, 2), Point({"128m", "8"}, 0.9, 60, 3),
                          Point({"256m", "2"}, 0.95, 120, 1), Point({"512m", "1"}, 1.2, 130, 1)};
  Evaluation failed = Point({"1024m", "1"}, std::numeric_limits<double>::infinity(), 0, 0);
  failed.error = "Spark would fail: broadcast";
  o.search.evaluations.push_back(failed);
  o.search.best = 1;
  o.search.requests = 7;
  Recommendation r;
  r.settings = {{"cluster.executors", "8"}};
  r.keys = {{"cluster.executors", "8", {"CoalesceShufflePartitions: e1: 200 → 40 partitions"}, {}}};
  r.evaluation = o.search.evaluations[1];
  r.gain = 0.1;
  r.recommended = true;
  r.reason = "Gains 10.0 % in the worst case over the guardrails.";
  r.evaluations = 3;
  o.recommendation = r;
  o.recommended_trust = TuneObjective::Trust{"profiled", std::nullopt};
  return o;
}

TEST_CASE("a tune result read back writes the same JSON") {
  const nlohmann::ordered_json written = TuneToJson(Outcome());
  std::vector<std::string> errors;
  const std::optional<TuneOutcome> read =
      TuneFromJson(nlohmann::json::parse(written.dump()), "t.json", &errors);
  INFO(errors.size());
  REQUIRE(read);
  CHECK(read->search.best == 1);
  CHECK(TuneToJson(*read).dump(2) == written.dump(2));
}

TEST_CASE("a damaged tune result names the place") {
  nlohmann::json doc = nlohmann::json::parse(TuneToJson(Outcome()).dump());
  doc["trace"][2]["objective"] = "fast";
  doc["trace"][3]["values"].erase("cluster.executors");
  doc["current"]["makespanSeconds"] = -1;  // a forged report printed "Current makespan: -1.00 s"
  doc["tune"]["space"][0] = "nonsense";    // then the trace's values are read for cluster.executors only
  std::vector<std::string> errors;
  CHECK_FALSE(TuneFromJson(doc, "t.json", &errors));
  CHECK(errors ==
        std::vector<std::string>{
            "t.json: /tune/space/0: --space nonsense: expected KEY=V1,V2,... or KEY=LOW..HIGH[:log]",
            "t.json: /current/makespanSeconds: expected a number >= 0",
            "t.json: /trace/2/objective: expected a number >= 0 or null",
            "t.json: /trace/3/values: expected the value of cluster.executors as a string"});
}

TEST_CASE("a tune result says how its guardrails counted; one written before says nothing and was 'worst'") {
  nlohmann::json doc = nlohmann::json::parse(TuneToJson(Outcome()).dump());
  CHECK(doc["tune"]["guardrailJudgement"] == "no-loss");
  std::vector<std::string> errors;
  doc["tune"].erase("guardrailJudgement");
  const std::optional<TuneOutcome> old = TuneFromJson(doc, "t.json", &errors);
  REQUIRE(old);
  CHECK(old->judgement == GuardrailJudgement::kWorst);
  CHECK(report::TuneMarkdown(*old, "t.json").find("(the worst ratio counts)") != std::string::npos);
  doc["tune"]["guardrailJudgement"] = "mean";
  CHECK_FALSE(TuneFromJson(doc, "t.json", &errors));
  CHECK(errors.back() == "t.json: /tune/guardrailJudgement: expected \"no-loss\", \"worst\" or null");
}

TEST_CASE("the Pareto front: no other point both faster and cheaper, by makespan") {
  // (100 s, 2) is dominated by nothing? (60 s, 3) is faster but dearer; (120 s, 1) cheaper but
  // slower: all three stand; (130 s, 1) is dominated by (120 s, 1); the failed point never counts.
  CHECK(report::ParetoFront(Outcome().search.evaluations) == std::vector<size_t>{1, 0, 2});
}

}  // namespace
}  // namespace aqesim::tune
