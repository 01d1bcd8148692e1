// Why AQE on is slower, one line: a partial second wave, or one wave of larger tasks.
#include "tools/text/aqe_slowdown_text.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

/// A run of one map stage (10 s) and a result stage of `tasks` tasks from 10 s on.
RunResult Run(int tasks, double result_seconds, double median, double max) {
  RunResult r;
  StageResult map;
  map.id = 0;
  map.name = "e1 map";
  map.tasks = 64;
  map.complete_seconds = 10;
  StageResult result;
  result.id = 1;
  result.name = "result";
  result.tasks = tasks;
  result.submit_seconds = 10;
  result.complete_seconds = 10 + result_seconds;
  result.task_median_seconds = median;
  result.task_max_seconds = max;
  r.stages = {map, result};
  r.makespan_seconds = 10 + result_seconds;
  return r;
}

TEST_CASE("AqeSlowdownText: a partial second wave after coalescing", "[text][aqe]") {
  // 34 tasks on 32 slots: 2 run after the first wave.
  const std::optional<std::string> why =
      AqeSlowdownText(Run(200, 13.3, 2.0, 2.2), Run(34, 25.2, 12.0, 12.6), 32);
  REQUIRE(why);
  CHECK(*why ==
        "AQE on is slower (23.300 s → 35.200 s): stage 1 (result) runs 34 tasks on 32 slots after coalescing "
        "(200 "
        "before), so a wave of 2 tasks runs after the first full wave while the other slots idle, where AQE "
        "off "
        "balanced 200 smaller tasks over 7 waves (the stage: 13.30 s → 25.20 s); keep more partitions than "
        "slots: "
        "spark.sql.adaptive.coalescePartitions.minPartitionNum 64 (deprecated since Spark 3.2 but still "
        "read by Spark 4.0; a smaller spark.sql.adaptive.advisoryPartitionSizeInBytes gets the same effect)");
}

TEST_CASE("AqeSlowdownText: nothing when AQE on is not slower, or no coalesced stage explains it",
          "[text][aqe]") {
  CHECK_FALSE(AqeSlowdownText(Run(200, 13.3, 2.0, 2.2), Run(40, 13.5, 2.0, 2.2), 32));   // within 2 %
  CHECK_FALSE(AqeSlowdownText(Run(200, 13.3, 2.0, 2.2), Run(200, 20.0, 2.0, 2.2), 32));  // not coalesced
}

}  // namespace
}  // namespace aqesim
