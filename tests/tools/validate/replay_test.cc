// Replays of the small fixtures. Recorded numbers were read from the logs by hand
// (`zstd -dc LOG | grep StageCompleted`: Completion Time − Submission Time; SQLExecutionStart /
// End "time"; DriverAccumUpdates "number of partitions").
#include "tools/validate/replay.h"

#include <catch2/catch.hpp>
#include <map>
#include <variant>

#include "tests/tools/eventlog/test_util.h"

namespace aqesim::validate {
namespace {

using eventlog::testing::Fixture;

const StageComparison* StageById(const Validation& v, const std::string& selection, int id) {
  for (const auto& s : v.stages) {
    if (s.selection == selection && s.stage_id && *s.stage_id == id) return &s;
  }
  return nullptr;
}

void CheckSmallSmjLog(const std::string& fixture, const std::map<int, double>& recorded_seconds,
                      double execution_seconds) {
  const eventlog::RecordedApplication app = eventlog::ReadEventLog(Fixture(fixture), nullptr);
  const Validation v = ValidateApplication(app, {}, nullptr);
  REQUIRE(v.selections.size() == 1);
  CHECK(v.selections[0].ok);
  CHECK(v.selections[0].adaptive);
  CHECK(v.basis == "sqlExecutions");
  // Matching: e2/e3 are the join's sides (stages 0, 1), e1 the single-partition exchange the
  // join stage (4) writes, the result stage 8 reads it.
  const std::map<int, std::string> expected_sim = {
      {0, "e2 map"}, {1, "e3 map"}, {4, "e1 map"}, {8, "result"}};
  for (const auto& [id, seconds] : recorded_seconds) {
    const StageComparison* s = StageById(v, "SQL execution 0", id);
    REQUIRE(s != nullptr);
    CHECK(s->simulated_name == expected_sim.at(id));
    REQUIRE(s->recorded_seconds);
    CHECK(*s->recorded_seconds == Approx(seconds).margin(1e-9));
    REQUIRE(s->simulated_seconds);
    REQUIRE(s->relative_error);
    CHECK(*s->relative_error == Approx((*s->simulated_seconds - seconds) / seconds));
  }
  CHECK(StageById(v, "SQL execution 0", 4)->recorded_tasks == 13);
  CHECK(StageById(v, "SQL execution 0", 4)->simulated_tasks == 13);
  CHECK(v.recorded_makespan_seconds == Approx(execution_seconds).margin(1e-9));
  REQUIRE(v.makespan_relative_error);
  CHECK(*v.makespan_relative_error ==
        Approx((v.simulated_makespan_seconds - execution_seconds) / execution_seconds));
  // Decisions: both sides 200 → 13, the join stays sort-merge.
  int reads = 0;
  for (const auto& d : v.decisions) {
    if (d.kind == "AQEShuffleRead") {
      ++reads;
      CHECK(d.planned_partitions == 200);
      CHECK(d.recorded_partitions == 13);
      CHECK(d.simulated_partitions == 13);
      CHECK(d.match);
    } else {
      CHECK(d.recorded_kind == "SortMergeJoin");
      CHECK(d.simulated == "SortMergeJoin");
    }
  }
  CHECK(reads == 2);
  CHECK(v.decisions_matched == 3);
}

TEST_CASE("ValidateApplication: aqeshuffle (Spark 3.2.1)", "[validate][replay]") {
  // Stage 0: 1651694310404 → 1651694312042 etc.; SQL execution 0: 1651694310051 → 1651694314936.
  CheckSmallSmjLog("aqeshuffle_eventlog.zstd", {{0, 1.638}, {1, 1.482}, {4, 2.549}, {8, 0.063}}, 4.885);
}

TEST_CASE("ValidateApplication: customshuffle (Spark 3.1.1, CustomShuffleReader)", "[validate][replay]") {
  CheckSmallSmjLog("customshuffle_eventlog.zstd", {{0, 1.761}, {1, 1.618}, {4, 3.435}, {8, 0.059}}, 5.908);
}

TEST_CASE("ValidateApplication: dynamic allocation, every coalescing", "[validate][replay][decisions]") {
  // Spark's partition counts per SQL execution (DriverAccumUpdates of each AQEShuffleRead's
  // "number of partitions"): they follow the executor cores registered at the time
  // (12, 16, 20, 20, 24 cores), which the importer takes as the selection's cluster.
  // Executions 2 and 3 hinge on single MapStatus encoding steps (groups of 9 reducers where one
  // more would overflow the target by 8650 bytes): they match only because the importer
  // rebuilds the blocks from the readers' partition data sizes (coalesced_read_sizes.h).
  const eventlog::RecordedApplication app =
      eventlog::ReadEventLog(Fixture("eventlog_4nodes_8cores_dynamic_alloc.zstd"), nullptr);
  const Validation v = ValidateApplication(app, {}, nullptr);
  REQUIRE(v.selections.size() == 5);
  const std::map<std::string, int64_t> recorded = {{"SQL execution 0", 13},
                                                   {"SQL execution 1", 17},
                                                   {"SQL execution 2", 21},
                                                   {"SQL execution 3", 22},
                                                   {"SQL execution 4", 25}};
  int reads = 0;
  for (const auto& d : v.decisions) {
    INFO(d.selection << " " << d.subject);
    CHECK(d.match);
    if (d.kind != "AQEShuffleRead") {
      CHECK(d.simulated == "SortMergeJoin");
      continue;
    }
    ++reads;
    CHECK(d.recorded_partitions == recorded.at(d.selection));
    CHECK(d.simulated_partitions == recorded.at(d.selection));
  }
  CHECK(reads == 10);
  CHECK(v.decisions_matched == 15);

  // SQL execution 2: the simulated driver sees exactly Spark's partition data sizes
  // (DriverAccumUpdates 717 / 724, identical on both sides), and the coalesced tasks read
  // what Spark's did (stage 22, task index 0: "local bytes read" of exchange a = 2516539).
  const std::vector<int64_t> spark_sizes = {2599265, 2599265, 2599265, 2599265, 2594940, 2599265, 2599265,
                                            2599265, 2594940, 2599265, 2344096, 2594940, 2599265, 2599265,
                                            2344096, 2348421, 2594940, 2599265, 2599265, 2599265, 778482};
  const ReplayedSelection* exec2 = nullptr;
  for (const auto& sel : v.selections) {
    if (sel.label == "SQL execution 2") exec2 = &sel;
  }
  REQUIRE(exec2 != nullptr);
  int sides = 0;
  for (const ReadExplain& r : exec2->run.reads) {
    if (r.exchange != "e2" && r.exchange != "e3") continue;
    ++sides;
    REQUIRE(r.specs.size() == spark_sizes.size());
    for (size_t i = 0; i < r.specs.size(); ++i) {
      const auto* spec = std::get_if<CoalescedPartitionSpec>(&r.specs[i]);
      REQUIRE(spec != nullptr);
      CHECK(spec->data_size_bytes == spark_sizes[i]);
    }
    REQUIRE(!r.true_bytes.empty());
    CHECK(r.true_bytes[0] == 2516539);
  }
  CHECK(sides == 2);
}

TEST_CASE(
    "ValidateApplication: join_agg (EMR 3.3.0), a build whose MapStatus reported 2.6x the bytes written",
    "[validate][replay][decisions]") {
  // Spark coalesced exchange e1 1000 -> 16 (DriverAccumUpdates 247); its partition data sizes
  // (accumulator 248) total 17610372 bytes — 29.4 per record: the 28-byte serialized rows,
  // encoded — while its map tasks wrote, and its reduce tasks read, 6689106 bytes. Spark's own
  // MapStatus of those bytes gives at most 10% more, so the importer estimates the build's
  // reportedSizeRatio (largest ratio whose encoded even split stays within 17610372: below
  // 17610372 / 6689106 = 2.633 by the encoding's mean rounding, ~1.05) and the simulated
  // driver, seeing the blocks x that ratio, packs 16 partitions of >= 1 MiB (minPartitionSize;
  // 30 cores) as Spark did.
  const eventlog::RecordedApplication app =
      eventlog::ReadEventLog(Fixture("join_agg_on_yarn_eventlog.zstd"), nullptr);
  std::vector<std::string> warnings;
  const Validation v = ValidateApplication(app, {}, &warnings);
  REQUIRE(v.selections.size() == 1);
  int joins = 0, reads = 0;
  for (const auto& d : v.decisions) {
    INFO(d.subject);
    if (d.kind == "JoinStrategy") {
      ++joins;
      CHECK(d.recorded_kind == "BroadcastHashJoin");
      CHECK(d.simulated == "BroadcastHashJoin");
      CHECK(d.match);
    } else {
      ++reads;
      CHECK(d.subject == "e1");
      CHECK(d.planned_partitions == 1000);
      CHECK(d.recorded_partitions == 16);
      CHECK(d.simulated_partitions == 16);
      CHECK(d.match);
    }
  }
  CHECK(joins == 2);
  CHECK(reads == 1);
  const ReplayedSelection& sel = v.selections[0];
  const nlohmann::json& e1 = sel.document["plan"]["left"]["child"];
  REQUIRE(e1["id"] == "e1");
  const double ratio = e1["reportedSizeRatio"].get<double>();
  CHECK(ratio > 17610372.0 / 6689106 / 1.1);
  CHECK(ratio < 17610372.0 / 6689106);
  const std::vector<std::string>& estimated = sel.imported.estimated;
  CHECK(std::find(estimated.begin(), estimated.end(), "/plan/left/child/reportedSizeRatio") !=
        estimated.end());
  bool explained = false;
  for (const auto& w : warnings)
    explained |= w.find("17610372") != std::string::npos && w.find("6689106") != std::string::npos;
  CHECK(explained);
  // Each simulated spec's driver size within 1% of Spark's (accumulator 248, spec order).
  const std::vector<int64_t> spark_sizes = {1058916, 1061514, 1065234, 1062084, 1049958, 1061232,
                                            1061622, 1050348, 1054374, 1050894, 1058394, 1063650,
                                            1052280, 1054830, 1053390, 1751652};
  int sides = 0;
  for (const ReadExplain& r : sel.run.reads) {
    if (r.exchange != "e1") continue;
    ++sides;
    REQUIRE(r.specs.size() == spark_sizes.size());
    int64_t true_total = 0;
    for (size_t i = 0; i < r.specs.size(); ++i) {
      const auto* spec = std::get_if<CoalescedPartitionSpec>(&r.specs[i]);
      REQUIRE(spec != nullptr);
      REQUIRE(spec->data_size_bytes.has_value());
      INFO("spec " << i << ": simulated " << *spec->data_size_bytes << ", Spark " << spark_sizes[i]);
      CHECK(std::abs(*spec->data_size_bytes - spark_sizes[i]) * 100 <= spark_sizes[i]);
      true_total += r.true_bytes.at(i);
    }
    CHECK(true_total == 6689106);  // the tasks still read the bytes written
  }
  CHECK(sides == 1);
  // Broadcast stages are matched by the stage that ran their build side's scan: j2's build
  // (the streamed side's) is stage 1, j1's stage 2.
  std::map<std::string, int> stage_of;
  for (const StageMatch& m : sel.matches) {
    if (m.recorded_stage_id) stage_of[m.simulated_name] = *m.recorded_stage_id;
  }
  CHECK(stage_of["j2 broadcast"] == 1);
  CHECK(stage_of["j1 broadcast"] == 2);
  CHECK(stage_of["e1 map"] == 3);
  CHECK(stage_of["result"] == 5);
}

TEST_CASE("ValidateApplication: RDD jobs of a Spark 1.6 log", "[validate][replay]") {
  const eventlog::RecordedApplication app =
      eventlog::ReadEventLog(Fixture("application_1472176676028_407508_1.gz"), nullptr);
  const Validation v = ValidateApplication(app, {}, nullptr);
  CHECK(v.basis == "jobs");
  REQUIRE(v.selections.size() == 7);
  // Job 0: stage 0 (544 maps) 1364.546 s, stage 1 (40 reducers) 1072.691 s; job 0 took 2452.509 s.
  const StageComparison* map = StageById(v, "job 0", 0);
  const StageComparison* reduce = StageById(v, "job 0", 1);
  REQUIRE(map != nullptr);
  REQUIRE(reduce != nullptr);
  CHECK(map->simulated_name == "e1 map");
  CHECK(map->simulated_tasks == 544);
  CHECK(*map->recorded_seconds == Approx(1364.546));
  CHECK(reduce->simulated_name == "result");
  CHECK(reduce->simulated_tasks == 40);
  CHECK(*reduce->recorded_seconds == Approx(1072.691));
  CHECK(v.selections[0].recorded_seconds == Approx(2452.509));
}

TEST_CASE("Median", "[validate]") {
  CHECK(!Median({}).has_value());
  CHECK(*Median({3, 1, 2}) == 2);
  CHECK(*Median({4, 1, 3, 2}) == 2.5);
}

}  // namespace
}  // namespace aqesim::validate
