// The spill record of a profile against values read by hand from customshuffle_eventlog's
// TaskEnd events (stage 4, the sort-merge join's reducers on local[12], 1 GiB driver): reducer
// 9 read 1,601,106 records, ran 2,886 ms with 873 ms of JVM GC Time and spilled 46,137,344 bytes
// from memory, 9,922,337 to disk; reducer 12 (the 13th task, later, half the size) read 801,142
// records with 11 ms of GC and spilled nothing. Sums over the 12 spilling reducers: 553,648,128
// memory bytes, 118,948,980 disk bytes, 10,561 ms of GC, 19,198,858 records.
#include "tools/eventlog/spill_import.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tests/tools/eventlog/test_util.h"
#include "tools/eventlog/stage_profile_import.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;
using testing::Fixture;

TEST_CASE("MeasureSpill: customshuffle reducer 9 against reducer 12", "[eventlog][profile][spill]") {
  RecordedTask r9, r12;
  r9.executor_run_time_ms = 2886;
  r9.jvm_gc_time_ms = 873;
  r9.memory_bytes_spilled = 46137344;
  r9.disk_bytes_spilled = 9922337;
  r12.executor_run_time_ms = 403;
  r12.jvm_gc_time_ms = 11;
  const std::vector<SpillTaskInput> tasks = {{&r9, 1601106, 12}, {&r12, 801142, 12}};
  const SpillMeasurement m = MeasureSpill(tasks, 500'000'000);
  // g = 0.011 s / 801,142 records; S_9 = 0.873 - g x 1,601,106 + 2 x 9,922,337 / (500 MB/s / 12)
  //     = 0.873 - 0.021984 + 0.476272 = 1.327288 s.
  REQUIRE(m.task_seconds.size() == 2);
  CHECK(m.task_seconds[0] == Approx(1.327288).epsilon(1e-6));
  CHECK(m.task_seconds[1] == 0.0);
  REQUIRE(m.record);
  CHECK(m.record->at("tasks") == 1);
  CHECK(m.record->at("memoryBytes") == 46137344);
  CHECK(m.record->at("diskBytes") == 9922337);
  CHECK(m.record->at("gcSeconds").get<double>() == Approx(0.873));
  CHECK(m.record->at("seconds").get<double>() == Approx(1.3273));
  CHECK(m.record->at("recordBytes").get<double>() == Approx(28.816));  // 46,137,344 / 1,601,106
}

TEST_CASE("MeasureSpill: no spilling task, no record", "[eventlog][profile][spill]") {
  RecordedTask t;
  t.executor_run_time_ms = 1000;
  t.jvm_gc_time_ms = 300;
  const SpillMeasurement m = MeasureSpill({{&t, 1000, 4}}, 500'000'000);
  CHECK(m.task_seconds == std::vector<double>{0.0});
  CHECK_FALSE(m.record);
}

TEST_CASE("MeasureSpill: the spill seconds never exceed the task's run time", "[eventlog][profile][spill]") {
  RecordedTask t;
  t.executor_run_time_ms = 100;
  t.jvm_gc_time_ms = 90;
  t.memory_bytes_spilled = 1 << 20;
  t.disk_bytes_spilled = 100'000'000;  // 2 x 100 MB at 500 MB/s = 0.4 s of I/O alone
  const SpillMeasurement m = MeasureSpill({{&t, 1000, 1}}, 500'000'000);
  CHECK(m.task_seconds[0] == Approx(0.1));
}

TEST_CASE("AddStageProfiles: customshuffle's reducers spilled", "[eventlog][profile][spill]") {
  const RecordedApplication app = ReadEventLog(Fixture("customshuffle_eventlog.zstd"), nullptr);
  std::vector<std::string> warnings;
  const ImportedScenario imported = ImportScenario(app, ImportOptions{}, &warnings);
  const json& profiles = imported.scenario.at("profiles");
  const json& spill = profiles.at("e1 map").at("spill");
  CHECK(spill.at("tasks") == 12);
  CHECK(spill.at("memoryBytes") == 553648128);
  CHECK(spill.at("diskBytes") == 118948980);
  CHECK(spill.at("gcSeconds").get<double>() == Approx(10.561));
  // 10.561 - (0.011 / 801,142) x 19,198,858 + 2 x 118,948,980 / (500 MB/s / 12) = 16.0069 s.
  CHECK(spill.at("seconds").get<double>() == Approx(16.0069));
  CHECK(spill.at("recordBytes").get<double>() == Approx(28.838));  // 553,648,128 / 19,198,858
  // The map stages (range scans writing the shuffle) did not spill.
  CHECK_FALSE(profiles.at("e2 map").contains("spill"));
  CHECK_FALSE(profiles.at("e3 map").contains("spill"));
}

}  // namespace
}  // namespace aqesim::eventlog
