#include "tools/sweep/sweep_row.h"

#include <catch2/catch.hpp>

namespace aqesim::sweep {
namespace {

StageResult Stage(int tasks, double median, double max, int64_t spill) {
  StageResult s;
  s.tasks = tasks;
  s.task_median_seconds = median;
  s.task_max_seconds = max;
  s.spill_bytes = spill;
  return s;
}

Decision D(const std::string& rule, nlohmann::json fields) {
  Decision d;
  d.rule = rule;
  d.fields = std::move(fields);
  return d;
}

TEST_CASE("MetricsFromRuns: counts decisions by rule", "[sweep][row]") {
  RunResult off, on;
  off.makespan_seconds = 49.631;
  on.makespan_seconds = 22.855;
  on.stages = {Stage(100, 3.39, 4.61, 0), Stage(110, 3.2, 3.6, 1024)};
  on.decisions = {
      D("CoalesceShufflePartitions",
        {{"exchanges", {"e1"}}, {"partitionsBefore", 200}, {"partitionsAfter", 40}}),
      D("CoalesceShufflePartitions", {{"exchanges", "e2"}, {"applied", false}}),  // not applied: not counted
      D("OptimizeSkewedJoin", {{"join", "j1"}, {"numSkewedLeft", 8}, {"numSkewedRight", 1}}),
      D("OptimizeSkewInRebalancePartitions", {{"exchange", "e3"}, {"skewedPartitions", 2}}),
      D("JoinSelection", {{"join", "j1"}, {"from", "SortMergeJoin"}, {"to", "BroadcastHashJoin"}}),
      D("JoinSelection", {{"join", "j2"}, {"to", "BroadcastHashJoin"}, {"static", true}}),  // at planning
      D("JoinSelection", {{"join", "j3"}, {"to", "ShuffledHashJoin"}}),
  };
  on.failures = {"broadcast too large"};
  const PointMetrics m = MetricsFromRuns(off, on);
  CHECK(m.makespan_seconds_aqe_on == 22.855);
  CHECK(m.makespan_seconds_aqe_off == 49.631);
  CHECK(m.stages == 2);
  CHECK(m.tasks == 210);
  CHECK(m.spill_bytes == 1024);
  CHECK(m.longest_task_seconds == 4.61);
  CHECK(m.coalescings == 1);
  CHECK(m.skew_splits == 11);
  CHECK(m.broadcast_conversions == 1);
  CHECK(m.max_task_skew_ratio == Approx(4.61 / 3.39));
  CHECK(m.failures == 1);
}

TEST_CASE("Rows render with fixed float formatting and RFC 4180 quoting", "[sweep][row]") {
  SweepRow row;
  row.point = 7;
  row.values = {"64m", "a,b"};
  PointMetrics m;
  m.makespan_seconds_aqe_on = 1.5;
  m.makespan_seconds_aqe_off = 2.0000004;
  m.max_task_skew_ratio = 1.23456;
  m.tasks = 12;
  row.metrics = m;
  const std::vector<std::string> keys = {"k1", "k2"};
  CHECK(CsvHeader(keys) ==
        "point,k1,k2,makespanSecondsAqeOn,makespanSecondsAqeOff,stages,tasks,spillBytes,longestTaskSeconds,"
        "coalescings,skewSplits,broadcastConversions,maxTaskSkewRatio,failures,error");
  CHECK(RowToCsv(row) == "7,64m,\"a,b\",1.500000,2.000000,0,12,0,0.000000,0,0,0,1.2346,0,");
  const std::string json = RowToJsonLine(row, keys);
  CHECK(json ==
        "{\"point\":7,\"values\":{\"k1\":\"64m\",\"k2\":\"a,b\"},\"makespanSecondsAqeOn\":1.500000,"
        "\"makespanSecondsAqeOff\":2.000000,\"stages\":0,\"tasks\":12,\"spillBytes\":0,"
        "\"longestTaskSeconds\":0.000000,"
        "\"coalescings\":0,\"skewSplits\":0,\"broadcastConversions\":0,\"maxTaskSkewRatio\":1.2346,"
        "\"failures\":0,"
        "\"error\":null}");
  // Reading a row back renders the same bytes (journal and merge rely on it).
  std::string error;
  auto back = RowFromJson(nlohmann::json::parse(json), keys, &error);
  REQUIRE(back);
  CHECK(RowToJsonLine(*back, keys) == json);
  CHECK(RowToCsv(*back) == RowToCsv(row));
}

TEST_CASE("A failed point has empty metrics and its error", "[sweep][row]") {
  SweepRow row;
  row.point = 3;
  row.values = {"0"};
  row.error = "s.json: /conf/x: bad \"value\"";
  CHECK(RowToCsv(row) == "3,0,,,,,,,,,,,,\"s.json: /conf/x: bad \"\"value\"\"\"");
  std::string error;
  auto back = RowFromJson(nlohmann::json::parse(RowToJsonLine(row, {"k"})), {"k"}, &error);
  REQUIRE(back);
  CHECK_FALSE(back->metrics);
  CHECK(back->error == row.error);
  auto fields = SplitCsvLine(RowToCsv(row));
  REQUIRE(fields);
  CHECK(fields->back() == row.error);
  CHECK_FALSE(SplitCsvLine("1,\"open"));
}

}  // namespace
}  // namespace aqesim::sweep
