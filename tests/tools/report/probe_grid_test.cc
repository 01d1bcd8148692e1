#include "tools/report/probe_grid.h"

#include <catch2/catch.hpp>

namespace aqesim::report {
namespace {

constexpr int64_t kMiB = 1LL << 20;

TuningFacts OneShuffle() {
  TuningFacts f;
  ShuffleFacts s;
  s.id = "e1";
  s.num_partitions = 200;
  f.shuffles.push_back(s);
  return f;
}

TEST_CASE(
    "ProbeGrid: the advisory size around the scenario's, and each rule's key at its own and proposed value",
    "[report][probe]") {
  TuningFacts f = OneShuffle();
  Recommendation rules;
  rules.lines = {{"spark.sql.adaptive.enabled", "true", "AQE"},
                 {"spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "88m", "skew"},
                 {"spark.shuffle.accurateBlockSkewedFactor", "5.0", "MapStatus"}};
  const std::vector<sweep::GridAxis> axes = ProbeGrid(f, RawConf{}, rules);
  REQUIRE(axes.size() == 3);  // spark.sql.adaptive.enabled is no grid key
  CHECK(axes[0].key == "spark.sql.adaptive.advisoryPartitionSizeInBytes");
  CHECK(axes[0].values == std::vector<std::string>{"16m", "64m", "256m"});  // 64 MiB ÷ 4, × 4
  CHECK(axes[1].key == "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes");
  CHECK(axes[1].values ==
        std::vector<std::string>{"88m", "256m"});  // Spark's 256MB, written as the sweep writes
  CHECK(axes[2].key == "spark.shuffle.accurateBlockSkewedFactor");
  CHECK(axes[2].values == std::vector<std::string>{"-1.0", "5.0"});  // Spark's default -1.0 (off)
}

TEST_CASE("ProbeGrid: the scenario's own text is kept, an equal proposal adds no value", "[report][probe]") {
  TuningFacts f = OneShuffle();
  f.conf.advisory_partition_size_bytes = 32 * kMiB;
  Recommendation rules;
  rules.lines = {{"spark.sql.adaptive.advisoryPartitionSizeInBytes", "33554432", "same size in bytes"},
                 {"spark.sql.shuffle.partitions", "640", "partitions"}};
  const RawConf raw = {{"spark.sql.adaptive.advisoryPartitionSizeInBytes", "32MB"},
                       {"spark.sql.shuffle.partitions", "200"}};
  const std::vector<sweep::GridAxis> axes = ProbeGrid(f, raw, rules);
  REQUIRE(axes.size() == 2);
  CHECK(axes[0].values == std::vector<std::string>{"8m", "32MB", "128m"});
  CHECK(axes[1].values == std::vector<std::string>{"200", "640"});
}

TEST_CASE("ProbeGrid: a skew join that needs an extra shuffle sweeps forceOptimizeSkewedJoin",
          "[report][probe]") {
  TuningFacts f = OneShuffle();
  NotApplied n;
  n.rule = "OptimizeSkewedJoin";
  n.reason = "needsExtraShuffle";
  n.target = "j";
  f.not_applied.push_back(n);
  const std::vector<sweep::GridAxis> axes = ProbeGrid(f, RawConf{}, Recommendation{});
  REQUIRE(axes.size() == 2);
  CHECK(axes[1].key == "spark.sql.adaptive.forceOptimizeSkewedJoin");
  CHECK(axes[1].values == std::vector<std::string>{"false", "true"});  // Spark's default first
  // Another reason adds no such axis.
  f.not_applied[0].reason = "notAJoin";
  CHECK(ProbeGrid(f, RawConf{}, Recommendation{}).size() == 1);
}

TEST_CASE("ProbeGrid: no shuffle and no proposal is nothing to sweep", "[report][probe]") {
  CHECK(ProbeGrid(TuningFacts{}, RawConf{}, Recommendation{}).empty());
  Recommendation only_aqe;
  only_aqe.lines = {{"spark.sql.adaptive.enabled", "true", "AQE"}};
  CHECK(ProbeGrid(TuningFacts{}, RawConf{}, only_aqe).empty());
}

TEST_CASE("SweepCommand: the command a shell runs as the report did", "[report][probe]") {
  sweep::SweepInfo info;
  info.scenario_file = "my jobs/q1.json";
  info.conf = {"spark.executor.instances=20"};
  info.grid = {{"spark.sql.adaptive.advisoryPartitionSizeInBytes", {"16m", "64m", "256m"}},
               {"spark.shuffle.accurateBlockSkewedFactor", {"-1.0", "5.0"}}};
  CHECK(SweepCommand(info) ==
        "aqesim sweep 'my jobs/q1.json' --conf spark.executor.instances=20 --grid "
        "spark.sql.adaptive.advisoryPartitionSizeInBytes=16m,64m,256m --grid "
        "spark.shuffle.accurateBlockSkewedFactor=-1.0,5.0 -o SWEEP.json");
}

}  // namespace
}  // namespace aqesim::report
