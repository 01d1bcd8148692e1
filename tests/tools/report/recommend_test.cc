#include "tools/report/recommend.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "tools/report/recommender.h"

namespace aqesim::report {
namespace {

constexpr int64_t kMiB = 1LL << 20;
constexpr int64_t kGiB = 1LL << 30;

TuningFacts BaseFacts() {
  TuningFacts f;
  f.conf_known = true;
  f.executor_memory_bytes = 8 * kGiB;
  f.total_cores = 40;
  f.has_aqe_off = f.has_aqe_on = true;
  f.makespan_seconds_aqe_off = 100;
  f.makespan_seconds_aqe_on = 100;
  return f;
}

/// Shuffle e1 whose driver sees its true sizes, with the reading
/// stages' worst max÷median task seconds with AQE off and on.
ShuffleFacts Shuffle(int partitions, int64_t total, int64_t max, int64_t median, double skew_off = 0,
                     double skew_on = 0) {
  ShuffleFacts s;
  s.id = "e1";
  s.num_partitions = partitions;
  s.true_total_bytes = total;
  s.true_max_bytes = s.seen_max_bytes = max;
  s.true_median_bytes = s.seen_median_bytes = median;
  s.read_skew_ratio_aqe_off = skew_off;
  s.read_skew_ratio_aqe_on = skew_on;
  return s;
}

bool HasLine(const Recommendation& r, const std::string& key, const std::string& value) {
  for (const ConfLine& l : r.lines)
    if (l.key == key && l.value == value) return true;
  return false;
}

TEST_CASE("SeverityOf: Dr. Elephant's bands", "[report][recommend]") {
  CHECK(SeverityOf(1.32) == Severity::kNone);
  CHECK(SeverityOf(1.33) == Severity::kLow);
  CHECK(SeverityOf(1.77) == Severity::kLow);
  CHECK(SeverityOf(1.78) == Severity::kModerate);
  CHECK(SeverityOf(3.15) == Severity::kModerate);
  CHECK(SeverityOf(3.16) == Severity::kSevere);
  CHECK(SeverityOf(9.99) == Severity::kSevere);
  CHECK(SeverityOf(10.0) == Severity::kCritical);
  CHECK(SeverityName(Severity::kSevere) == "severe");
}

TEST_CASE("Recommend: skew points at the skew settings, never at more partitions", "[report][recommend]") {
  TuningFacts f = BaseFacts();
  // median 300 MiB: large partitions too, so without the skew rule 3 would fire
  ShuffleFacts s = Shuffle(100, 30 * kGiB, 2 * kGiB, 300 * kMiB, 11.4, 1.13);
  s.map_status = "CompressedMapStatus";
  s.read_spill_bytes_aqe_off = 5 * kGiB;
  f.shuffles = {s};
  f.skew_splits_aqe_on = 1;
  Recommendation r = Recommend(f);
  // The skew join is on by default: nothing to set for it (a line is for a change), a note to keep it.
  CHECK_FALSE(r.Sets("spark.sql.adaptive.skewJoin.enabled"));
  CHECK(
      std::find(
          r.notes.begin(), r.notes.end(),
          "Keep spark.sql.adaptive.skewJoin.enabled on (Spark's default): OptimizeSkewedJoin split 1 skewed "
          "partition in the AQE run.") != r.notes.end());
  CHECK_FALSE(r.Sets("spark.sql.shuffle.partitions"));
  CHECK_FALSE(r.Sets("spark.sql.adaptive.coalescePartitions.initialPartitionNum"));
  // AQE evens e1's readers out (11.4 -> 1.13): the headline says AQE handles it (new-user finding 8).
  CHECK(r.diagnosis ==
        "Skew that AQE already handles: e1's largest partition is 6.8× its median (true sizes); without AQE "
        "the tasks "
        "reading "
        "it are critically unbalanced (11.4×), with AQE on (1 skewed partition split) within 1.1×.");
  REQUIRE_FALSE(r.notes.empty());
  CHECK(r.notes.back().rfind("Not recommending more shuffle partitions", 0) == 0);
  // Turned off in the job: turning it on is the line.
  f.conf.skew_join_enabled = false;
  r = Recommend(f);
  CHECK(HasLine(r, "spark.sql.adaptive.skewJoin.enabled", "true"));
}

TEST_CASE("Recommend: a skew factor under the threshold is not the lever", "[report][recommend]") {
  // The demo's shape: 5 x 16 MiB median = 80 MiB < 256 MiB threshold, so lowering the factor
  // changes nothing; partitions between 80 and 256 MiB stay whole, and only the threshold cuts.
  TuningFacts f = BaseFacts();
  // max 1280 MiB, far above 2 x threshold: was sent to the factor before
  ShuffleFacts s = Shuffle(200, 6 * kGiB, 1280 * kMiB, 16 * kMiB, 40.0, 3.5);
  f.shuffles = {s};
  const Recommendation r = Recommend(f);
  CHECK_FALSE(r.Sets("spark.sql.adaptive.skewJoin.skewedPartitionFactor"));
  // max(advisory 64 MiB, 5 x 16 MiB) = 80 MiB.
  CHECK(HasLine(r, "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "80m"));
}

TEST_CASE(
    "CheckBySimulation: a line that gains under 3% (tune's least gain) is withdrawn, one that gains is kept",
    "[report][recommend]") {
  Recommendation r;
  r.lines.push_back({"spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "80m", "why"});
  r.warnings.push_back("risk");
  std::vector<ConfLine> asked;
  CheckBySimulation(&r, 32.46, [&](const std::vector<ConfLine>& extra) {
    asked = extra;
    return SimulatedMakespan{32.56, "", {}, std::nullopt, false};
  });
  REQUIRE(asked.size() == 1);
  CHECK(asked[0].value == "80m");
  CHECK(r.lines.empty());
  CHECK(r.warnings.size() == 1);
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0] ==
        "Simulated with spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes 80m: 32.56 s against "
        "32.46 s now, less than a 3% gain (aqesim tune's least gain too), so nothing is recommended.");

  Recommendation kept;
  kept.lines.push_back({"spark.sql.shuffle.partitions", "1200", "why"});
  CheckBySimulation(&kept, 100.0, [](const std::vector<ConfLine>&) {
    return SimulatedMakespan{96.9, "", {}, std::nullopt, false};
  });
  CHECK(kept.lines.size() == 1);
  REQUIRE(kept.notes.size() == 1);
  CHECK(kept.notes[0] ==
        "Checked by simulation: with spark.sql.shuffle.partitions 1200 the makespan goes from "
        "100.00 s to 96.90 s.");
  CHECK(kept.lines[0].reason == "why");  // one line: its gain is the note's
  // 2.1% was enough before (the report's 2% against tune's 3%); exactly 3% is not.
  for (double seconds : {97.9, 97.0}) {
    Recommendation r2;
    r2.lines.push_back({"spark.sql.shuffle.partitions", "1200", "why"});
    CheckBySimulation(&r2, 100.0, [&](const std::vector<ConfLine>&) {
      return SimulatedMakespan{seconds, "", {}, std::nullopt, false};
    });
    CHECK(r2.lines.empty());
  }
}

TEST_CASE(
    "CheckBySimulation: judged as tune judges by default: a loss on any copy, or a mean gain under 3 %, "
    "withdraws",
    "[report][recommend]") {
  // demo.json's skew threshold 88m, 5.3 % faster as given; the guardrails' judgements are fed by
  // hand (the real one, a 1.0 % loss on flatter skew, is report_why_not_test's): 0.8 % on data ×2
  // and 1.9 % on average over tune's six copies is under 3 %: keep the current configuration.
  const auto as_given = [](const std::vector<ConfLine>&) {
    return SimulatedMakespan{66.63, "", {}, std::nullopt, false};
  };
  Recommendation r;
  r.lines.push_back({"spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "88m", "why"});
  std::vector<ConfLine> judged;
  CheckBySimulation(&r, 70.38, as_given, [&](const std::vector<ConfLine>& extra) {
    judged = extra;
    return std::optional<GuardrailWorst>(GuardrailWorst{0.992, "data ×2", 0.981});
  });
  REQUIRE(judged.size() == 1);
  CHECK(judged[0].value == "88m");
  CHECK(r.lines.empty());
  REQUIRE(r.notes.size() == 1);
  CHECK(
      r.notes[0] ==
      "Simulated with spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes 88m: 66.63 s against 70.38 "
      "s "
      "now, but on the copies aqesim tune also judges a change on (seed+1, data ×0.5 and ×2, a hotter and a "
      "flatter skew) it gains 1.9% on average (least 0.8%, on data ×2), less than a 3% gain, so nothing is "
      "recommended.");
  SECTION("a loss on one copy withdraws it, however much the others gain") {
    Recommendation lost;
    lost.lines.push_back({"spark.sql.shuffle.partitions", "1200", "why"});
    CheckBySimulation(&lost, 70.38, as_given, [](const std::vector<ConfLine>&) {
      return std::optional<GuardrailWorst>(GuardrailWorst{1.046, "data ×0.5", 0.90});
    });
    CHECK(lost.lines.empty());
    REQUIRE(lost.notes.size() == 1);
    CHECK(lost.notes[0].find(") it loses 4.6% on data ×0.5, so nothing is recommended.") !=
          std::string::npos);
  }
  SECTION(
      "no gain on one copy but 3 % or more on average: kept; a loss within 0.5 % is none; unjudgeable: "
      "as given decides") {
    for (const std::optional<GuardrailWorst>& worst :
         {std::optional<GuardrailWorst>(GuardrailWorst{1.0, "data ×0.5", 0.955}),
          std::optional<GuardrailWorst>(GuardrailWorst{1.004, "seed+1", 0.969}),
          std::optional<GuardrailWorst>()}) {
      Recommendation kept;
      kept.lines.push_back({"spark.sql.shuffle.partitions", "1200", "why"});
      CheckBySimulation(&kept, 70.38, as_given, [&](const std::vector<ConfLine>&) { return worst; });
      CHECK(kept.lines.size() == 1);
      REQUIRE(kept.notes.size() == 1);
      CHECK(kept.notes[0] ==
            "Checked by simulation: with spark.sql.shuffle.partitions 1200 the makespan goes from 70.38 s to "
            "66.63 s.");
    }
  }
}

TEST_CASE("CheckBySimulation: each line is kept only for its own gain, and says what it gives alone",
          "[report][recommend]") {
  // hcms-3000 of the new-user trial: both keys 598.96 s -> 54.93 s, the factor alone 56.20 s (256m
  // adds 2.3%), 256m alone 590.00 s. Both were credited "598.96 s -> 54.93 s".
  const auto makespan = [](const std::vector<ConfLine>& lines) {
    bool factor = false, advisory = false;
    for (const ConfLine& l : lines) {
      factor |= l.key == "spark.shuffle.accurateBlockSkewedFactor";
      advisory |= l.key == "spark.sql.adaptive.advisoryPartitionSizeInBytes";
    }
    return SimulatedMakespan{factor && advisory ? 54.93
                             : factor           ? 56.20
                             : advisory         ? 590.00
                                                : 598.96,
                             "",
                             {},
                             std::nullopt,
                             false};
  };
  Recommendation r;
  r.lines.push_back({"spark.sql.adaptive.advisoryPartitionSizeInBytes", "256m", "fastest"});
  r.lines.push_back({"spark.shuffle.accurateBlockSkewedFactor", "5.0", "fastest"});
  CheckBySimulation(&r, 598.96, makespan);
  REQUIRE(r.lines.size() == 1);
  CHECK(r.lines[0].key == "spark.shuffle.accurateBlockSkewedFactor");
  REQUIRE(r.notes.size() == 2);
  CHECK(r.notes[0] ==
        "Not recommending spark.sql.adaptive.advisoryPartitionSizeInBytes 256m: without it 56.20 s against "
        "54.93 s with it, less than a 3% gain.");
  CHECK(r.notes[1] ==
        "Checked by simulation: with spark.shuffle.accurateBlockSkewedFactor 5.0 the makespan goes from "
        "598.96 s to 56.20 s.");

  // Two keys that each earn their place: each reason ends with its own makespan alone.
  Recommendation both;
  both.lines.push_back({"a", "1", "x"});
  both.lines.push_back({"b", "2", "y"});
  CheckBySimulation(&both, 100.0, [](const std::vector<ConfLine>& lines) {
    return SimulatedMakespan{lines.empty()         ? 100.0
                             : lines.size() == 2   ? 50.0
                             : lines[0].key == "a" ? 80.0
                                                   : 70.0,
                             "",
                             {},
                             std::nullopt,
                             false};
  });
  REQUIRE(both.lines.size() == 2);
  CHECK(both.lines[0].reason == "x; alone: makespan 100.00 s → 80.00 s");
  CHECK(both.lines[1].reason == "y; alone: makespan 100.00 s → 70.00 s");
}

TEST_CASE("CheckBySimulation: every makespan says how far it can be trusted, as run prints it",
          "[report][recommend]") {
  // A modelled run carries its band (low and high end rounded outwards to two digits), a run whose
  // stages are all profiled says so; the band is the simulation's, not scaled from the seconds.
  const auto simulated = [](const std::vector<ConfLine>& lines) {
    SimulatedMakespan m;
    m.band_known = true;
    if (lines.empty()) {
      m.seconds = 100.0;
      m.band = MakespanBand{79.0, 760.0};
    } else if (lines.size() == 2) {
      m.seconds = 50.0;
      m.band = MakespanBand{41.2, 351.7};
    } else if (lines[0].key == "a") {
      m.seconds = 80.0;  // profiled: no band
    } else {
      m.seconds = 70.0;
      m.band = MakespanBand{55.3, 532.1};
    }
    return m;
  };
  Recommendation both;
  both.lines.push_back({"a", "1", "x"});
  both.lines.push_back({"b", "2", "y"});
  CheckBySimulation(&both, 100.0, simulated);
  REQUIRE(both.lines.size() == 2);
  CHECK(both.lines[0].reason == "x; alone: makespan 100.00 s (79–760 s) → 80.00 s (profiled)");
  CHECK(both.lines[1].reason == "y; alone: makespan 100.00 s (79–760 s) → 70.00 s (55–540 s)");
  REQUIRE(both.notes.size() == 1);
  CHECK(both.notes[0] ==
        "Checked by simulation: with a 1, b 2 the makespan goes from 100.00 s (79–760 s) to 50.00 s (41–360 "
        "s).");

  // Too little gain: both sides of the comparison carry their band.
  Recommendation small;
  small.lines.push_back({"b", "2", "y"});
  CheckBySimulation(&small, 100.0, [&](const std::vector<ConfLine>& lines) {
    SimulatedMakespan m = simulated(lines);
    if (!lines.empty()) m.seconds = 99.0;
    return m;
  });
  CHECK(small.lines.empty());
  REQUIRE(small.notes.size() == 1);
  CHECK(small.notes[0] ==
        "Simulated with b 2: 99.00 s (55–540 s) against 100.00 s (79–760 s) now, less than a 3% gain (aqesim "
        "tune's least gain too), so nothing is recommended.");
}

TEST_CASE("CheckBySimulation: settings the scenario does not run with are withdrawn", "[report][recommend]") {
  Recommendation r;
  r.lines.push_back({"spark.sql.shuffle.partitions", "640", "why"});
  r.warnings.push_back("risk");
  CheckBySimulation(&r, 50.0, [](const std::vector<ConfLine>&) {
    return SimulatedMakespan{
        std::nullopt, "s.json: /plan: join sides have different partition counts", {}, std::nullopt, false};
  });
  CHECK(r.lines.empty());
  CHECK(r.warnings.size() == 1);
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0] ==
        "The scenario does not run with spark.sql.shuffle.partitions 640 (s.json: /plan: join sides have "
        "different partition counts), so nothing is recommended.");
}

TEST_CASE("Recommend: a partition count the job fixes gets a note, not spark.sql.shuffle.partitions",
          "[report][recommend]") {
  TuningFacts f = BaseFacts();
  f.total_cores = 16;
  // 40 GiB through 200 partitions of 200 MiB: 640 x 64 MiB.
  ShuffleFacts fixed = Shuffle(200, 40 * kGiB, 210 * kMiB, 200 * kMiB);
  fixed.partitions_fixed = true;
  SECTION("alone: raise it in the job") {
    f.shuffles = {fixed};
    const Recommendation r = Recommend(f);
    CHECK_FALSE(r.Sets("spark.sql.shuffle.partitions"));
    CHECK(std::find(r.notes.begin(), r.notes.end(),
                    "The partition count of e1 (200) is set by the job itself (repartition(n) or an RDD's "
                    "numPartitions), not by spark.sql.shuffle.partitions: raise it there to 640.") !=
          r.notes.end());
    CHECK(r.diagnosis.rfind("Partitions too large", 0) == 0);
  }
  SECTION("a configured shuffle joined with it stays as it is") {
    ShuffleFacts joined = Shuffle(200, 30 * kGiB, 160 * kMiB, 150 * kMiB);
    joined.id = "e2";
    joined.partitions_fixed = false;
    joined.pinned_by = "e1";
    f.shuffles = {fixed, joined};
    const Recommendation r = Recommend(f);
    CHECK(r.lines.empty());
    CHECK(
        std::find(r.notes.begin(), r.notes.end(),
                  "Not raising spark.sql.shuffle.partitions to 480 for e2: e2 is joined with e1, whose "
                  "partition count the job fixes, and a shuffle join needs both sides' counts equal; change "
                  "e1's count in the job together with the setting.") != r.notes.end());
    CHECK(r.diagnosis.rfind("Partitions too large", 0) == 0);
  }
  SECTION("the configuration moves a configured shuffle") {
    ShuffleFacts configured = fixed;
    configured.partitions_fixed = false;
    f.shuffles = {configured};
    CHECK(HasLine(Recommend(f), "spark.sql.shuffle.partitions", "640"));
  }
}

TEST_CASE("Recommend: skew that AQE leaves behind lowers the skew threshold", "[report][recommend]") {
  TuningFacts f = BaseFacts();
  // max 200 MiB, under the 256 MiB threshold: never split
  ShuffleFacts s = Shuffle(200, 5 * kGiB, 200 * kMiB, 20 * kMiB, 9.0, 8.5);
  f.shuffles = {s};
  const Recommendation r = Recommend(f);
  // max(advisory 64 MiB, 5 × 20 MiB) = 100 MiB.
  CHECK(HasLine(r, "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "100m"));
  CHECK_FALSE(r.Sets("spark.sql.shuffle.partitions"));
}

TEST_CASE("Recommend: large uniform partitions get more initial partitions", "[report][recommend]") {
  TuningFacts f = BaseFacts();
  f.total_cores = 200;
  f.conf.adaptive_enabled = false;
  ShuffleFacts s = Shuffle(40, 64 * kGiB, 1700 * kMiB, 1600 * kMiB, 1.1, 1.1);
  s.read_spill_bytes_aqe_off = 40 * kGiB;
  f.shuffles = {s};
  const Recommendation r = Recommend(f);
  // 64 GiB / 64 MiB = 1024, rounded up to a multiple of the 200 cores.
  CHECK(HasLine(r, "spark.sql.shuffle.partitions", "1200"));
  CHECK_FALSE(r.Sets("spark.sql.adaptive.skewJoin.enabled"));
  // 40 partitions ≠ spark.sql.shuffle.partitions (200): the job sets them itself.
  bool noted = false;
  for (const std::string& n : r.notes) noted = noted || n.find("set by the job itself") != std::string::npos;
  CHECK(noted);
  CHECK(r.diagnosis.rfind("Partitions too large", 0) == 0);
}

TEST_CASE("Recommend: more partitions stop at minNumPartitionsToHighlyCompress when that suffices",
          "[report][recommend]") {
  TuningFacts f = BaseFacts();
  f.total_cores = 16;
  // 200 GiB = 3200 × 64 MiB; 2000 partitions hold 102 MiB each (<= 2 × advisory)
  ShuffleFacts s = Shuffle(200, 200 * kGiB, 1100 * kMiB, 1024 * kMiB);
  f.shuffles = {s};
  const Recommendation r = Recommend(f);
  CHECK(HasLine(r, "spark.sql.shuffle.partitions", "2000"));
  // CompressedMapStatus rounds each block up to a power of 1.1: close, not exact (new-user finding 7).
  CHECK(std::find(
            r.notes.begin(), r.notes.end(),
            "The partition count is kept at spark.shuffle.minNumPartitionsToHighlyCompress (2000) so that "
            "the driver keeps seeing per-block sizes (within 10 %) instead of HighlyCompressedMapStatus's "
            "average.") != r.notes.end());
}

TEST_CASE("Recommend: skew the driver cannot see above 2000 partitions → accurateBlockSkewedFactor",
          "[report][recommend]") {
  TuningFacts f = BaseFacts();
  ShuffleFacts s;
  s.id = "e7";
  s.num_partitions = 3000;
  s.map_status = "HighlyCompressedMapStatus";
  s.true_total_bytes = 30 * kGiB;
  s.true_max_bytes = 600 * kMiB;
  s.true_median_bytes = 10 * kMiB;
  s.seen_max_bytes = 10 * kMiB;  // averaged: the driver sees no skew
  s.seen_median_bytes = 10 * kMiB;
  s.read_skew_ratio_aqe_off = 20;
  s.read_skew_ratio_aqe_on = 20;
  f.shuffles = {s};
  const Recommendation r = Recommend(f);
  CHECK(HasLine(r, "spark.shuffle.accurateBlockSkewedFactor", "5.0"));
  // Not "exactly": the skewed blocks are kept apart from the average, each rounded to a power of
  // 1.1 (MapStatus' size encoding).
  for (const ConfLine& l : r.lines)
    if (l.key == "spark.shuffle.accurateBlockSkewedFactor")
      CHECK(
          l.reason ==
          "makes HighlyCompressedMapStatus record the skewed blocks of e7 apart from its average (to within "
          "10 %), so AQE can see and split them");
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].rfind(
            "e7 has 3000 partitions, more than spark.shuffle.minNumPartitionsToHighlyCompress (2000)", 0) ==
        0);
  CHECK_FALSE(r.Sets("spark.sql.shuffle.partitions"));
}

TEST_CASE("Recommend: broadcasts near executor memory are flagged", "[report][recommend]") {
  TuningFacts f = BaseFacts();
  f.conf.auto_broadcast_join_threshold_bytes = 4 * kGiB;
  f.broadcasts = {{"j1", 3 * kGiB}, {"j2", 10 * kMiB}};
  const Recommendation r = Recommend(f);
  REQUIRE(r.warnings.size() == 2);
  CHECK(r.warnings[0].rfind("The broadcast build side of j1 is 3.0 GiB, 38% of executor memory (8.0 GiB)",
                            0) == 0);
  CHECK(r.warnings[1].rfind("spark.sql.autoBroadcastJoinThreshold (4.0 GiB)", 0) == 0);
}

TEST_CASE("Recommend: AQE is turned on when it beats the static plan", "[report][recommend]") {
  TuningFacts f = BaseFacts();
  f.conf.adaptive_enabled = false;
  f.makespan_seconds_aqe_off = 117.3;
  f.makespan_seconds_aqe_on = 37.7;
  const Recommendation r = Recommend(f);
  CHECK(HasLine(r, "spark.sql.adaptive.enabled", "true"));
  CHECK(r.SparkDefaults() ==
        "# AQE cuts the makespan from 117.3 s to 37.7 s\nspark.sql.adaptive.enabled true\n");
  f.makespan_seconds_aqe_on = 116.0;  // less than 2% better: not worth it
  CHECK_FALSE(Recommend(f).Sets("spark.sql.adaptive.enabled"));
}

TEST_CASE("Recommend: uneven stages are never 'nothing to change'", "[report][recommend]") {
  TuningFacts f = BaseFacts();
  CHECK(Recommend(f).diagnosis == "Nothing to change: no skew, spill or oversized partitions.");
  // An AQE-off run JSON: stage facts, no partition sizes (the skew-join scenario's result stage).
  f.worst_stage = "AQE off, stage 2 (result)";
  f.worst_stage_skew_ratio = 11.39;
  f.spill_bytes = 746 * kMiB;
  CHECK(Recommend(f).diagnosis ==
        "Slow tasks: AQE off, stage 2 (result)'s slowest task takes 11.4× its median (critical), and the run "
        "spills "
        "746.0 MiB; this input has no partition sizes to say why: report on the scenario, or on a run with "
        "AQE on.");
  // Shuffles known and none skewed: the unevenness is upstream of them (a skewed scan).
  f.spill_bytes = 0;
  f.worst_stage = "AQE off, stage 2 (e1 map)";
  f.shuffles.push_back(Shuffle(16, 16 * kMiB, kMiB, kMiB));
  CHECK(Recommend(f).diagnosis.rfind(
            "Uneven tasks no shuffle explains: AQE off, stage 2 (e1 map)'s slowest task takes "
            "11.4× its median (critical); its input is uneven before any shuffle",
            0) == 0);
}

/// A point of a one-key sweep that ran: its value, AQE-on makespan and worst skew ratio.
sweep::SweepRow SweepPoint(uint64_t point, const std::string& value, double seconds, double skew = 0) {
  sweep::SweepRow row;
  row.point = point;
  row.values = {value};
  sweep::PointMetrics m;
  m.makespan_seconds_aqe_on = seconds;
  m.makespan_seconds_aqe_off = seconds * 2;
  m.max_task_skew_ratio = skew;
  row.metrics = m;
  return row;
}

/// A sweep of one key with the scenario's own value `baseline` (nullopt: unset).
sweep::SweepDocument OneKeySweep(const std::string& key, std::vector<std::string> values,
                                 std::optional<std::string> baseline, std::vector<sweep::SweepRow> rows) {
  sweep::SweepDocument doc;
  doc.info.grid = {{key, std::move(values)}};
  if (baseline) doc.info.baseline[key] = *baseline;
  doc.rows = std::move(rows);
  return doc;
}

TEST_CASE("RecommendFromSweep: with skew, more partitions are not recommended even when faster",
          "[report][recommend]") {
  sweep::SweepDocument doc = OneKeySweep(
      "spark.sql.shuffle.partitions", {"100", "200", "400"}, "200",
      {SweepPoint(0, "100", 30.0, 9.0), SweepPoint(1, "200", 25.0, 8.0), SweepPoint(2, "400", 20.0, 6.0)});
  doc.info.cluster = sweep::SweepCluster{0, 0, 8 * kGiB};
  SweepBest best;
  Recommendation r = RecommendFromSweep(doc, &best);
  REQUIRE(best.point);
  CHECK(*best.point == 1);  // 400 is faster, but the tasks are skewed
  CHECK(best.baseline_point == 1u);
  CHECK_FALSE(r.Sets("spark.sql.shuffle.partitions"));
  CHECK(r.lines.empty());  // the skew join is Spark's default: a note says to keep it
  CHECK(r.notes.size() >= 2);
  CHECK(r.diagnosis ==
        "Skew limits the static plan; the scenario's own values are (within 2%) the fastest of the sweep.");
  // Skew splits at most points count as skew too.
  for (sweep::SweepRow& row : doc.rows) {
    row.metrics->max_task_skew_ratio = 1.2;
    row.metrics->skew_splits = 3;
  }
  r = RecommendFromSweep(doc, &best);
  CHECK(*best.point == 1);
  // Without skew the fastest point wins.
  for (sweep::SweepRow& row : doc.rows) row.metrics->skew_splits = 0;
  r = RecommendFromSweep(doc, &best);
  REQUIRE(best.point);
  CHECK(*best.point == 2);
  REQUIRE(r.lines.size() == 1);
  CHECK(r.lines[0].key == "spark.sql.shuffle.partitions");
  CHECK(r.lines[0].value == "400");
  CHECK(r.lines[0].reason == "the fastest point of the sweep (makespan 25.00 s → 20.00 s)");
}

TEST_CASE("RecommendFromSweep: a point within 2% of the baseline changes nothing", "[report][recommend]") {
  const sweep::SweepDocument doc =
      OneKeySweep("spark.sql.shuffle.partitions", {"100", "200"}, "100",
                  {SweepPoint(0, "100", 25.0, 1.1), SweepPoint(1, "200", 24.6, 1.1)});
  SweepBest best;
  const Recommendation r = RecommendFromSweep(doc, &best);
  CHECK(*best.point == 0);
  CHECK(r.lines.empty());
  auto has_note = [&](const std::string& text) {
    for (const std::string& n : r.notes)
      if (n.find(text) != std::string::npos) return true;
    return false;
  };
  // Every point is within 2% of the fastest: the sweep is flat and says so.
  CHECK(has_note("The grid does not matter here: every point is within 2% of the fastest (24.60 s)"));
  CHECK(r.diagnosis == "The swept keys do not matter here: every point is within 2% of the fastest.");
}

TEST_CASE("RecommendFromSweep: an unset key's baseline is Spark's default", "[report][recommend]") {
  const sweep::SweepDocument doc =
      OneKeySweep("spark.sql.adaptive.advisoryPartitionSizeInBytes", {"16m", "64m"}, std::nullopt,
                  {SweepPoint(0, "16m", 22.85), SweepPoint(1, "64m", 22.85)});
  SweepBest best;
  const Recommendation r = RecommendFromSweep(doc, &best);
  CHECK(best.baseline_point == 1u);
  CHECK(*best.point == 1);
  CHECK(r.lines.empty());
  // The key does not matter, and the flat sweep says so.
  bool tie_note = false, no_matter = false;
  for (const std::string& n : r.notes) {
    tie_note |=
        n ==
        "The grid does not matter here: every point is within 2% of the fastest (22.85 s), so no swept key "
        "is worth changing.";
    no_matter |= n.rfind("spark.sql.adaptive.advisoryPartitionSizeInBytes does not matter here", 0) == 0;
  }
  CHECK(tie_note);
  CHECK(no_matter);
}

TEST_CASE("RecommendFromSweep: unset, minPartitionNum's baseline is the default parallelism",
          "[report][recommend]") {
  // New-user finding 3: 4 executors x 8 cores, both keys unset. At 16m, 32 (the cores, the value
  // CoalesceShufflePartitions takes unset) and 64 give the same makespan: the pick leaves the key
  // at 32, which is no change, so no line (it was "minPartitionNum 32", then withdrawn as such).
  sweep::SweepDocument doc;
  doc.info.grid = {{"spark.sql.adaptive.advisoryPartitionSizeInBytes", {"16m", "64m"}},
                   {"spark.sql.adaptive.coalescePartitions.minPartitionNum", {"32", "64"}}};
  doc.info.cluster = sweep::SweepCluster{4, 8, 8 * kGiB};
  const std::vector<std::vector<std::string>> values = {
      {"16m", "32"}, {"16m", "64"}, {"64m", "32"}, {"64m", "64"}};
  const std::vector<double> seconds = {15.12, 15.12, 19.91, 16.83};
  for (size_t p = 0; p < values.size(); ++p) {
    sweep::SweepRow row = SweepPoint(p, values[p][0], seconds[p]);
    row.values.push_back(values[p][1]);
    doc.rows.push_back(row);
  }
  SweepBest best;
  Recommendation r = RecommendFromSweep(doc, &best);
  CHECK(best.baseline_point == 2u);
  CHECK(*best.point == 0);
  REQUIRE(r.lines.size() == 1);
  CHECK(HasLine(r, "spark.sql.adaptive.advisoryPartitionSizeInBytes", "16m"));
  // parallelismFirst off: the minimum is 1, so 32 is a change like 64.
  doc.info.scenario_conf = RawConf{{"spark.sql.adaptive.coalescePartitions.parallelismFirst", "false"}};
  r = RecommendFromSweep(doc, &best);
  CHECK_FALSE(best.baseline_point);
  CHECK(HasLine(r, "spark.sql.adaptive.coalescePartitions.minPartitionNum", "32"));
}

TEST_CASE("RecommendFromSweep: cluster keys become spark.executor.* lines", "[report][recommend]") {
  sweep::SweepDocument doc = OneKeySweep("cluster.executors", {"10", "20"}, "10",
                                         {SweepPoint(0, "10", 50.0), SweepPoint(1, "20", 30.0)});
  SweepBest best;
  Recommendation r = RecommendFromSweep(doc, &best);
  CHECK(HasLine(r, "spark.executor.instances", "20"));
  // A bigger cluster is barely faster: the cheaper point within 10% is named.
  doc.info.grid[0].values.push_back("40");
  doc.rows.push_back(SweepPoint(2, "40", 28.0));
  r = RecommendFromSweep(doc, &best);
  CHECK(*best.point == 2);
  CHECK(HasLine(r, "spark.executor.instances", "40"));
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0] ==
        "Cheaper within 10% of the fastest: point 1 (cluster.executors = 20), 30.00 s for 0.17 core-hours "
        "instead of 0.31.");
}

TEST_CASE(
    "RecommendFromSweep: a key that does not matter is said so and never set; inside 2% of the fastest the "
    "smaller change wins",
    "[report][recommend]") {
  // shuffle.partitions × minPartitionSize; the makespan depends on the partitions only, and 800
  // (19.8 s) is within 2% of 400 (20.0 s).
  sweep::SweepDocument doc;
  doc.info.grid = {{"spark.sql.shuffle.partitions", {"200", "400", "800"}},
                   {"spark.sql.adaptive.coalescePartitions.minPartitionSize", {"1m", "4m"}}};
  doc.info.baseline["spark.sql.shuffle.partitions"] = "200";
  const std::vector<double> seconds = {25.0, 20.0, 19.8};
  uint64_t point = 0;
  for (size_t p = 0; p < 3; ++p) {
    for (const char* m : {"1m", "4m"}) {
      sweep::SweepRow row = SweepPoint(point++, doc.info.grid[0].values[p], seconds[p]);
      row.values.push_back(m);
      doc.rows.push_back(row);
    }
  }
  SweepBest best;
  const Recommendation r = RecommendFromSweep(doc, &best);
  REQUIRE(best.point);
  CHECK(*best.point == 2);  // 400 and 1m: the fastest is 800, but 400 changes less
  REQUIRE(r.lines.size() == 1);
  CHECK(r.lines[0].key == "spark.sql.shuffle.partitions");
  CHECK(r.lines[0].value == "400");
  CHECK(r.lines[0].reason ==
        "within 2% of the sweep's fastest, with the fewest changes (makespan 25.00 s → 20.00 s)");
  CHECK_FALSE(r.Sets("spark.sql.adaptive.coalescePartitions.minPartitionSize"));
  const auto has_note = [&](const std::string& text) {
    return std::any_of(r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n == text; });
  };
  CHECK(has_note(
      "spark.sql.adaptive.coalescePartitions.minPartitionSize does not matter here: each of its values "
      "gives the same makespan (within 0.5%) whatever the other keys are."));
  CHECK(
      has_note("Point 2 is within 2% of the fastest (point 4, 19.80 s) and changes less: it is the one "
               "recommended."));
  CHECK(r.diagnosis == "A point within 2% of the fastest (makespan 25.00 s → 20.00 s).");
}

TEST_CASE(
    "RecommendFromSweep: a scenario with AQE off gets it on when the chosen point beats its static plan",
    "[report][recommend]") {
  // Every point runs AQE on and off (the off makespan is twice the on one): AQE at the scenario's
  // own value, 25 s, beats its static plan, 50 s.
  sweep::SweepDocument doc =
      OneKeySweep("spark.sql.adaptive.coalescePartitions.minPartitionSize", {"1m", "4m"}, std::nullopt,
                  {SweepPoint(0, "1m", 25.0), SweepPoint(1, "4m", 25.0)});
  doc.info.scenario_conf = RawConf{{"spark.sql.adaptive.enabled", " False"}};
  SweepBest best;
  Recommendation r = RecommendFromSweep(doc, &best);
  REQUIRE(r.lines.size() == 1);
  CHECK(r.lines[0].key == "spark.sql.adaptive.enabled");
  CHECK(r.lines[0].value == "true");
  CHECK(r.lines[0].reason ==
        "AQE cuts the makespan from 50.00 s (AQE off, the scenario's own values) to 25.00 s");
  CHECK(
      r.diagnosis ==
      "The swept keys do not matter here: every point is within 2% of the fastest. AQE beats the scenario's "
      "static plan: turn it on.");
  // A --conf given to the sweep wins over the scenario's conf.
  doc.info.conf = {"spark.sql.adaptive.enabled=true"};
  CHECK(RecommendFromSweep(doc, &best).lines.empty());
  // AQE no faster than the static plan (within 2%): it stays off.
  doc.info.conf.clear();
  for (sweep::SweepRow& row : doc.rows) row.metrics->makespan_seconds_aqe_off = 25.4;
  CHECK(RecommendFromSweep(doc, &best).lines.empty());
}

TEST_CASE("RecommendFromPoints: a pick the simulation withdraws leaves no note that recommends it",
          "[report][recommend]") {
  // 400 is 2.5 % faster in the sweep (within the 2 % region's reach of being picked, under the 3 %
  // the simulation asks): the pick's "it is the one recommended" and "nothing is recommended"
  // were both printed.
  sweep::SweepDocument doc =
      OneKeySweep("spark.sql.shuffle.partitions", {"200", "400", "800"}, "200",
                  {SweepPoint(0, "200", 100.0), SweepPoint(1, "400", 97.5), SweepPoint(2, "800", 97.0)});
  const auto makespan = [](const std::vector<ConfLine>& lines) {
    return SimulatedMakespan{lines.empty() ? 100.0 : 97.5, "", {}, std::nullopt, false};
  };
  SweepBest best;
  const Recommendation r = RecommendFromPoints(doc, makespan, &best);
  CHECK(r.lines.empty());
  for (const std::string& n : r.notes) CHECK(n.find("it is the one recommended") == std::string::npos);
  CHECK(std::find(
            r.notes.begin(), r.notes.end(),
            "Simulated with spark.sql.shuffle.partitions 400: 97.50 s against 100.00 s now, less than a 3% "
            "gain (aqesim tune's least gain too), so nothing is recommended.") != r.notes.end());
  CHECK(r.diagnosis ==
        "No change recommended: simulated on the scenario, the sweep's pick gains less than 3%.");
}

TEST_CASE("DecisionsChanged: names what a setting changes", "[report][recommend]") {
  Decision before;
  before.rule = "CoalesceShufflePartitions";
  before.message = "e3: 200 → 8 partitions (target 64.0 MiB)";
  before.fields = {{"exchanges", "e3"}};
  Decision after = before;
  after.message = "e3: 200 → 40 partitions (target 13.6 MiB)";
  CHECK(DecisionsChanged({before}, {after}) == "e3: 200 → 40 partitions instead of 200 → 8 partitions");
  CHECK(DecisionsChanged({}, {after}) == "e3: 200 → 40 partitions");
  CHECK(DecisionsChanged({before}, {}) == "no longer e3: 200 → 8 partitions");
  Decision join;  // reasons in parentheses go; a third change is counted
  join.rule = "JoinSelection";
  join.message =
      "j: SortMergeJoin → BroadcastHashJoin BuildRight (runtime size 24.6 MiB <= adaptive broadcast "
      "threshold "
      "32.0 MiB)";
  join.fields = {{"join", "j"}};
  Decision local;
  local.rule = "OptimizeShuffleWithLocalRead";
  local.message = "e2: local shuffle read (broadcast build side), 200 → 4 tasks over 4 mappers";
  local.fields = {{"exchange", "e2"}};
  CHECK(DecisionsChanged({before}, {join, local, after}) ==
        "j: SortMergeJoin → BroadcastHashJoin BuildRight; e2: local shuffle read, 200 → 4 tasks over 4 "
        "mappers; and 1 other change");
  CHECK(DecisionsChanged({before}, {before}).empty());
  // Each kept line says it: simulated with the line, the coalescing differs.
  Recommendation r;
  r.lines.push_back({"spark.sql.adaptive.advisoryPartitionSizeInBytes", "16m", "fastest"});
  CheckBySimulation(&r, 100.0, [&](const std::vector<ConfLine>& lines) {
    return lines.empty() ? SimulatedMakespan{100.0, "", {before}, std::nullopt, false}
                         : SimulatedMakespan{80.0, "", {after}, std::nullopt, false};
  });
  REQUIRE(r.lines.size() == 1);
  CHECK(r.lines[0].reason == "changes e3: 200 → 40 partitions instead of 200 → 8 partitions; fastest");
}

}  // namespace
}  // namespace aqesim::report
