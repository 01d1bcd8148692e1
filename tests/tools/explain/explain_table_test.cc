// ExplainTable on a hand-built run: the exchange's seen vs true spread, a read's spec counts, a
// join, a decision and a rule that did not act; every line within 160 columns.
#include "tools/explain/explain_table.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "tools/text/table_text.h"

namespace aqesim::explain {
namespace {

TEST_CASE("ExplainTable: exchanges, reads, joins, decisions and why not", "[explain]") {
  RunResult run;
  run.adaptive = true;
  ExchangeExplain e;
  e.id = "e1";
  e.map_tasks = 4;
  e.num_partitions = 4;
  e.map_status = "HighlyCompressedMapStatus";
  e.data_size_bytes = 4096;
  e.bytes_by_partition_id = {100, 100, 100, 100};  // averaged by MapStatus
  e.true_bytes_by_partition_id = {10, 20, 30, 300};
  run.exchanges = {e};
  ReadExplain r;
  r.exchange = "e1";
  r.stage = 2;
  r.specs = {CoalescedPartitionSpec{0, 3, 60}, PartialReducerPartitionSpec{3, 0, 2, 150},
             PartialReducerPartitionSpec{3, 2, 4, 150}};
  r.true_bytes = {60, 150, 150};
  run.reads = {r};
  JoinExplain j;
  j.id = "j1";
  j.strategy = "SortMergeJoin";
  j.final_strategy = "SortMergeJoin";
  j.is_skew_join = true;
  run.joins = {j};
  Decision d;
  d.rule = "OptimizeSkewedJoin";
  d.message = "j1: split 1 partition";
  run.decisions = {d};
  NotApplied n;
  n.rule = "OptimizeShuffleWithLocalRead";
  n.target = "e1";
  n.reason = "notStageRoot";
  n.message = "e1: the read is not the stage's root";
  run.not_applied = {n};

  const std::string text = ExplainTable("t", run);
  CHECK(text.rfind(
            "t: AQE on, 1 decision, 1 not applied (`aqesim explain` without --format lists every spec)\n",
            0) == 0);
  // Seen: all 100 B (the upper median of four); true: 10 B min, 30 B median, 300 B max, 10.0× the median.
  // One unit for the three when they share it (the row stays within 160 columns on the bundled
  // scenarios: c01 and las-split-by-exact-totals were 163 and 162).
  CHECK(text.find("  e1           4           4  HighlyCompressedMapStatus   4.0 KiB  100 "
                  "/ 100 / 100 B     10 / 30 / 300 B              10.0×\n") != std::string::npos);
  // Three tasks: one coalesced range, two skew splits; 60 B / 150 B / 150 B, max 1.0× the median.
  CHECK(
      text.find(
          "  e1            2      3          1            2         60 / 150 / 150 B              1.0×\n") !=
      std::string::npos);
  CHECK(text.find("Joins (as planned → as run):\n  j1: SortMergeJoin, skew join\n") != std::string::npos);
  CHECK(text.find("Decisions (in the order AQE took them):\n  OptimizeSkewedJoin: j1: split 1 partition\n") !=
        std::string::npos);
  CHECK(text.find("Not applied (the first early-out that stopped each rule):\n  OptimizeShuffleWithLocalRead "
                  "(notStageRoot): e1: the read is not the stage's root\n") != std::string::npos);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) CHECK(CodePoints(line) <= 160);
}

TEST_CASE("ExplainTable: nothing decided, nothing to list", "[explain]") {
  RunResult run;
  const std::string text = ExplainTable("empty", run);
  CHECK(text ==
        "empty: AQE off, 0 decisions, 0 not applied (`aqesim explain` without --format lists every spec)\n"
        "\nDecisions (in the order AQE took them):\n  none\n"
        "\nNot applied (the first early-out that stopped each rule):\n  none\n");
}

}  // namespace
}  // namespace aqesim::explain
