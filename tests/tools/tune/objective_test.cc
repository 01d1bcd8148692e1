#include "tools/tune/objective.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "tools/tune/tune_journal.h"

namespace aqesim::tune {
namespace {

TEST_CASE("no-loss: the geometric mean of the ratios when no copy loses, else the largest ratio",
          "[tune][objective]") {
  // A broadcast threshold that wins as given and on four copies and changes nothing at data ×0.5
  // (the join broadcast there already): the worst case, 1.0, kept the configuration; the mean is
  // (0.8^5 × 1)^(1/6) = 0.8^(5/6) = 0.830 (a 17.0 % gain to expect).
  const std::vector<double> never_loses = {0.8, 0.8, 1.0, 0.8, 0.8, 0.8};
  CHECK(ObjectiveOf(never_loses, GuardrailJudgement::kNoLoss) ==
        Approx(std::pow(0.8, 5.0 / 6)).epsilon(1e-12));
  CHECK(ObjectiveOf(never_loses, GuardrailJudgement::kWorst) == 1.0);
  // 0.4 % slower on one copy is no loss (kLossTolerance 0.5 %); 0.6 % is, and the objective is
  // that ratio: worse than keeping the configuration (1.0) however much the other copies gain.
  const std::vector<double> within = {0.5, 0.5, 1.004, 0.5, 0.5, 0.5};
  CHECK(ObjectiveOf(within, GuardrailJudgement::kNoLoss) ==
        Approx(std::pow(0.5, 5.0 / 6) * std::pow(1.004, 1.0 / 6)).epsilon(1e-12));
  const std::vector<double> loses = {0.5, 0.5, 1.006, 0.5, 0.5, 0.5};
  CHECK(ObjectiveOf(loses, GuardrailJudgement::kNoLoss) == 1.006);
  CHECK(ObjectiveOf({0.5, 1.2, 1.1}, GuardrailJudgement::kNoLoss) == 1.2);  // the largest, not the first
  // Without guardrails, the one ratio under either judgement (a loss included).
  CHECK(ObjectiveOf({1.3}, GuardrailJudgement::kNoLoss) == 1.3);
  CHECK(ObjectiveOf({0.7}, GuardrailJudgement::kWorst) == 0.7);
  CHECK(ToString(GuardrailJudgement::kNoLoss) == "no-loss");
  CHECK(ToString(GuardrailJudgement::kWorst) == "worst");
}

TEST_CASE("a journal line is trusted only when its objective is what the judgement makes of its ratios",
          "[tune][objective][journal]") {
  Evaluation e;
  e.values = {"64m"};
  e.ratios = {0.8, 1.0};
  e.objective = std::sqrt(0.8);
  e.makespan_seconds = 12;
  e.core_hours = 0.5;
  const nlohmann::json line = nlohmann::json::parse(EvaluationToJsonLine(e));
  REQUIRE(EvaluationFromJson(line, 1, GuardrailJudgement::kNoLoss));
  CHECK(EvaluationFromJson(line, 1, GuardrailJudgement::kNoLoss)->objective == e.objective);
  // The same line under worst (objective 1.0 there) is not what an evaluation gives: dropped.
  CHECK_FALSE(EvaluationFromJson(line, 1, GuardrailJudgement::kWorst));
  nlohmann::json worst = line;
  worst["objective"] = 1.0;
  CHECK(EvaluationFromJson(worst, 1, GuardrailJudgement::kWorst));
  CHECK_FALSE(EvaluationFromJson(worst, 1, GuardrailJudgement::kNoLoss));
}

}  // namespace
}  // namespace aqesim::tune
