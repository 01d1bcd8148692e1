// The tune report's Best configurations table (a row per result: ties share one, "+N tied") and
// its notes on Pareto-front points faster and cheaper than the current configuration that tune
// did not recommend, on a hand-built outcome.
#include "tools/report/tune_report.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace aqesim::report {
namespace {

tune::Evaluation Point(const std::string& factor, double objective, double makespan, double core_hours) {
  tune::Evaluation e;
  e.values = {factor};
  e.objective = objective;
  e.makespan_seconds = makespan;
  e.core_hours = core_hours;
  return e;
}

tune::TuneOutcome Outcome() {
  tune::TuneOutcome o;
  o.scenario_path = "s.json";
  std::string error;
  o.axes = {*tune::ParseSpaceArg("spark.sql.adaptive.skewJoin.skewedPartitionFactor=2..10", &error)};
  o.guardrails = {"as given", "seed+1", "data ×2"};
  o.judgement = tune::GuardrailJudgement::kWorst;
  o.budget = 10;
  o.min_gain = 0.03;
  o.current.makespan_seconds = 100;
  o.current.core_hours = 2;
  o.search.evaluations = {
      Point("5", 1.0, 100, 2),          // 0: the current result
      Point("2.58", 1.0, 100, 2),       // 1: tied with 0
      Point("9", 1.0057, 95, 1.9),      // 2: faster and cheaper as given, loses on a copy
      Point("3", 0.99, 94, 1.96),       // 3: faster and cheaper, gains 1 % at worst
      Point("8", 0.9, 90, 2.1),         // 4: the best and recommended, dearer
      Point("2.97", 1.0, 100.0001, 2),  // 5: tied with 0 as printed (100.000 s)
  };
  o.search.best = 4;
  tune::Recommendation r;
  r.settings = {{"spark.sql.adaptive.skewJoin.skewedPartitionFactor", "8"}};
  r.evaluation = o.search.evaluations[4];
  r.gain = 0.1;
  r.recommended = true;
  r.reason = "Gains 10.0 % in the worst case over the guardrails.";
  o.recommendation = r;
  return o;
}

TEST_CASE("tune report: tied results share a row, a front point not recommended says why", "[report][tune]") {
  const tune::TuneOutcome o = Outcome();
  const std::vector<size_t> front = ParetoFront(o.search.evaluations);
  CHECK(front == std::vector<size_t>{4, 3, 2});
  const std::vector<std::string> notes = ParetoNotes(o, front);
  REQUIRE(notes.size() == 2);
  CHECK(notes[0] ==
        "Configuration #3 (94.000 s, 1.9600 core-hours) is faster and cheaper than the current configuration "
        "(100.000 s, "
        "2.0000 core-hours) as given, and not recommended: its worst-case gain over the guardrails (seed+1, "
        "data ×2) is 1.0 % (objective 0.9900), under the 3.0 % tune recommends at least (--min-gain).");
  CHECK(
      notes[1] ==
      "Configuration #2 (95.000 s, 1.9000 core-hours) is faster and cheaper than the current configuration "
      "(100.000 s, "
      "2.0000 core-hours) as given, and not recommended: its objective is 1.0057, the worst over the "
      "guardrails (seed+1, data ×2) of its makespan ÷ the current configuration's on the same copy: ≥ 1, so "
      "on at least one of them it is no better.");

  const std::string md = TuneMarkdown(o, "t.json");
  CHECK(md.find("| 4 | 8 | 90.000 | 2.1000 | 0.9000 |\n| 3 | 3 | 94.000 | 1.9600 | 0.9900 |\n"
                "| 0 (+2 tied) | 5 | 100.000 | 2.0000 | 1.0000 |\n| 2 | 9 | 95.000 | 1.9000 | 1.0057 |\n\n"
                "A row marked “+N tied” stands for N more configurations with the same makespan, core-hours "
                "and objective as printed; the first evaluated is shown.\n") != std::string::npos);
  CHECK(md.find("- Configuration #3 (94.000 s, 1.9600 core-hours) is faster and cheaper") !=
        std::string::npos);
  CHECK(md.find("| 2\\.58 |") == std::string::npos);
  Charts charts;
  const std::string html = TuneBody(o, "t.json", &charts);
  CHECK(html.find("<td>0 (+2 tied)</td><td>5</td>") != std::string::npos);
  CHECK(html.find("<li>Configuration #2 (95.000 s, 1.9000 core-hours) is faster and cheaper") !=
        std::string::npos);

  // Under no-loss (tune's default) an objective above 1.005 is a loss on a copy; one from 1 to
  // 1.005 is the mean of the ratios; a gain is the mean's.
  tune::TuneOutcome no_loss = Outcome();
  no_loss.judgement = tune::GuardrailJudgement::kNoLoss;
  no_loss.search.evaluations[2].objective = 1.004;
  const std::vector<std::string> no_loss_notes = ParetoNotes(no_loss, front);
  REQUIRE(no_loss_notes.size() == 2);
  CHECK(
      no_loss_notes[0].find("not recommended: its mean gain over the guardrails (seed+1, data ×2), losing on "
                            "none, is 1.0 % (objective 0.9900), under the 3.0 %") != std::string::npos);
  CHECK(
      no_loss_notes[1].find("not recommended: its objective, the geometric mean over the guardrails (seed+1, "
                            "data ×2) of its makespan ÷ the current configuration's on the same copy, is "
                            "1.0040 ≥ 1: no gain to expect.") != std::string::npos);
  no_loss.search.evaluations[2].objective = 1.0057;
  CHECK(ParetoNotes(no_loss, front)[1].find(
            "not recommended: on at least one copy over the guardrails (seed+1, data ×2) it loses more than "
            "0.5 % "
            "— its objective is its worst ratio there, 1.0057 (its makespan ÷ the current configuration's on "
            "the same copy) — and a loss on any copy vetoes it.") != std::string::npos);

  // The recommended point itself gets no note; without guardrails the objective is one ratio.
  tune::TuneOutcome bare = Outcome();
  bare.guardrails = {"as given"};
  bare.recommendation->evaluation = bare.search.evaluations[3];
  const std::vector<std::string> bare_notes = ParetoNotes(bare, ParetoFront(bare.search.evaluations));
  REQUIRE(bare_notes.size() == 1);
  CHECK(bare_notes[0].find("Configuration #2 (95.000 s") == 0);
  CHECK(bare_notes[0].find("not recommended: its objective, its makespan ÷ the current configuration's, is "
                           "1.0057 ≥ 1.") != std::string::npos);
  // No tie: no "+N tied" and no line about it.
  bare.search.evaluations.resize(5);
  bare.search.evaluations.erase(bare.search.evaluations.begin() + 1);
  CHECK(TuneMarkdown(bare, "t.json").find("tied") == std::string::npos);
}

}  // namespace
}  // namespace aqesim::report
