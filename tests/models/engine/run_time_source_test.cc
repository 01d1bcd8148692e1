#include "models/engine/run_time_source.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

StageResult Stage(const std::string& time_source, std::optional<double> resized_by = std::nullopt) {
  StageResult s;
  s.time_source = time_source;
  s.resized_by = resized_by;
  return s;
}

RunResult RunOf(std::vector<StageResult> stages) {
  RunResult r;
  r.stages = std::move(stages);
  return r;
}

TEST_CASE("CountStageTimes: profiled, resized and modelled stages are counted apart", "[engine][trust]") {
  const RunResult run = RunOf(
      {Stage("profiled"), Stage("profiled", 15.4), Stage("modelled"), Stage("profiled"), Stage("modelled")});
  const StageTimeCounts c = CountStageTimes(run);
  CHECK(c.profiled == 2);
  CHECK(c.resized == 1);
  CHECK(c.modelled == 2);
  CHECK(c.stages() == 5);
}

TEST_CASE("RunTimeSource: a resized profile is profiled from the log", "[engine][trust]") {
  CHECK(RunTimeSource(RunOf({Stage("profiled"), Stage("profiled")})) == "profiled");
  // The aqeshuffle log's AQE-off run: three stages as recorded, its e1 map resized ×15.4 (200
  // tasks where the log ran 13): the log's own rates, so profiled (sweep called it mixed).
  CHECK(RunTimeSource(RunOf({Stage("profiled"), Stage("profiled"), Stage("profiled", 15.4),
                             Stage("profiled")})) == "profiled");
  CHECK(RunTimeSource(RunOf({Stage("profiled", 2.0)})) == "profiled");
  CHECK(RunTimeSource(RunOf({Stage("modelled"), Stage("modelled")})) == "modelled");
  CHECK(RunTimeSource(RunOf({Stage("profiled", 3.0), Stage("modelled")})) == "mixed");
  CHECK(RunTimeSource(RunOf({Stage("profiled"), Stage("modelled")})) == "mixed");
  // No stage: no second of it is the cost model's.
  CHECK(RunTimeSource(RunOf({})) == "profiled");
}

TEST_CASE("TimeSourceLabel: several runs' counts added give their label", "[engine][trust]") {
  StageTimeCounts rows = CountStageTimes(RunOf({Stage("modelled")}));
  CHECK(TimeSourceLabel(rows) == "modelled");
  rows += CountStageTimes(RunOf({Stage("profiled", 4.0)}));
  CHECK(TimeSourceLabel(rows) == "mixed");
  CHECK(TimeSourceLabel(CountStageTimes(RunOf({Stage("profiled", 4.0)}))) == "profiled");
}

}  // namespace
}  // namespace aqesim
