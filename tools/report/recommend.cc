#include "tools/report/recommend.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "models/aqe/decision.h"
#include "models/aqe/not_applied.h"
#include "models/conf/conf_key_table.h"
#include "tools/report/why_not_advice.h"
#include "tools/text/table_text.h"

namespace aqesim::report {

namespace {

constexpr int64_t kMiB = 1LL << 20;
// AQE must beat the static plan by this much to be worth turning on.
constexpr double kAqeGainRatio = 0.98;
// Makespans within this fraction of each other are the same (a swept key that does not matter).
constexpr double kSameMakespan = 0.005;
// Partitions are "too large" when their median is this many times the advisory size.
constexpr double kLargePartitionFactor = 2.0;

const char* const kPartitionKeys[] = {"spark.sql.shuffle.partitions",
                                      "spark.sql.adaptive.coalescePartitions.initialPartitionNum"};

std::string FactorString(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", f);
  return buf;
}

// Spark's default of a key as the configuration key table writes it ("-1.0", "256MB"); nullopt
// when it is no literal ("(none)", "(value of ...)") or the key is not in the table.
std::optional<std::string> SparkDefaultOf(const std::string& key) {
  for (const ConfKeyInfo& k : ConfKeyTable()) {
    if (k.key != key) continue;
    if (k.doc.spark_default.empty() || k.doc.spark_default.front() == '(') return std::nullopt;
    return k.doc.spark_default;
  }
  return std::nullopt;
}

// Whether the sweep's scenario (with its --conf) sets boolean `key` false (unset: `unset`).
bool SweptFalse(const sweep::SweepInfo& info, const std::string& key, const std::string& unset) {
  std::string value = unset;
  if (info.scenario_conf) {
    if (auto it = info.scenario_conf->find(key); it != info.scenario_conf->end()) value = it->second;
  }
  for (const std::string& kv : info.conf)
    if (kv.rfind(key + "=", 0) == 0) value = kv.substr(key.size() + 1);
  std::string lower;
  for (char ch : value)
    if (!std::isspace(static_cast<unsigned char>(ch)))
      lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  return lower == "false";
}

bool SweptWithAqeOff(const sweep::SweepInfo& info) {
  return SweptFalse(info, "spark.sql.adaptive.enabled", "true");
}

int64_t RoundUpTo(int64_t v, int64_t step) { return step > 0 ? (v + step - 1) / step * step : v; }

void AddLine(Recommendation* r, const std::string& key, const std::string& value, const std::string& reason) {
  for (ConfLine& l : r->lines) {
    if (l.key == key) return;  // the first rule to set a key wins
  }
  r->lines.push_back({key, value, reason});
}

bool IsPartitionKey(const std::string& key) {
  return std::find(std::begin(kPartitionKeys), std::end(kPartitionKeys), key) != std::end(kPartitionKeys);
}

bool IsHighlyCompressed(const ShuffleFacts& s, const SqlConf& conf) {
  return s.num_partitions > conf.min_num_partitions_to_highly_compress &&
         s.map_status.find("HighlyCompressed") != std::string::npos;
}

// Would OptimizeSkewedJoin split the largest partition, judging by these sizes?
bool SparkWouldSplit(int64_t max_bytes, int64_t median_bytes, const SqlConf& conf) {
  const double cut = std::max(static_cast<double>(conf.skewed_partition_threshold_bytes),
                              static_cast<double>(median_bytes) * conf.skewed_partition_factor);
  return static_cast<double>(max_bytes) > cut;
}

// The diagnosis' last sentence for a skew no AQE rule can split (SkewAqeCannotSplit's reason).
std::string UnsplittableText(const std::string& reason) {
  if (reason == "notAJoin")
    return " An aggregate reads it, and AQE never splits an aggregate's partitions: salt the key or "
           "pre-aggregate.";
  if (reason == "rangePartitioned")
    return " A sort reads it through a range partitioner, which keeps a key in one partition, and AQE never "
           "splits a sort's partitions: salt the sort key.";
  if (reason == "joinTypeCannotSplit")
    return " A join reads it on a side its join type never lets OptimizeSkewedJoin split, so no skew-join "
           "key changes it and none is proposed: split the hot key out or salt it (below).";
  return "";
}

// "a sort-merge join" for a join strategy as explain writes it.
std::string StrategyPhrase(const std::string& strategy) {
  if (strategy == "SortMergeJoin") return "a sort-merge join";
  if (strategy == "ShuffledHashJoin") return "a shuffled hash join";
  if (strategy == "BroadcastNestedLoopJoin") return "a broadcast nested loop join";
  if (strategy == "CartesianProduct") return "a cartesian product";
  return strategy.empty() ? "a shuffle join" : strategy;
}

}  // namespace

RuntimeBroadcastReach RuntimeBroadcastWithinReach(const TuningFacts& f) {
  RuntimeBroadcastReach best;
  for (const NotApplied& n : f.not_applied) {
    if (n.rule != "JoinSelection" || n.reason != "aboveBroadcastThreshold") continue;
    if (!n.Flag("runtime")) continue;  // an estimate: static planning, not AQE's
    const int64_t bytes = n.Integer("bytes");
    const int64_t threshold = n.Integer("thresholdBytes");
    if (threshold <= 0 || bytes <= threshold || bytes > kBroadcastReachFactor * threshold) continue;
    // The next power of two in MiB above the side, with a tenth of headroom (runs vary).
    int64_t value = kMiB;
    while (static_cast<double>(value) < 1.1 * static_cast<double>(bytes)) value *= 2;
    if (f.executor_memory_bytes > 0 &&
        static_cast<double>(value) >= kBroadcastMemoryFraction * static_cast<double>(f.executor_memory_bytes))
      continue;  // the memory guardrail would refuse it
    if (best.join.empty() || bytes < best.side_bytes) {
      best.join = n.target;
      best.side = n.Text("side");
      best.exchange = n.Text("exchange");
      best.side_bytes = bytes;
      best.threshold_bytes = threshold;
      best.value_bytes = value;
      const auto it = f.join_final_strategies.find(n.target);
      best.strategy = it != f.join_final_strategies.end() ? it->second : "";
    }
  }
  return best;
}

std::string RuntimeBroadcastReach::ThresholdText(const SqlConf& c) const {
  return c.adaptive_auto_broadcast_join_threshold_bytes
             ? "spark.sql.adaptive.autoBroadcastJoinThreshold " + FormatBytes(threshold_bytes)
             : "spark.sql.adaptive.autoBroadcastJoinThreshold (unset: spark.sql.autoBroadcastJoinThreshold " +
                   FormatBytes(threshold_bytes) + ")";
}

std::string SparkByteString(int64_t bytes) {
  if (bytes > 0 && bytes % (1LL << 30) == 0) return std::to_string(bytes >> 30) + "g";
  if (bytes > 0 && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + "m";
  if (bytes > 0 && bytes % 1024 == 0) return std::to_string(bytes / 1024) + "k";
  return std::to_string(bytes);
}

std::string Recommendation::SparkDefaults() const {
  std::string out;
  for (const ConfLine& l : lines) out += "# " + l.reason + "\n" + l.key + " " + l.value + "\n";
  return out;
}

bool Recommendation::Sets(const std::string& key) const {
  return std::any_of(lines.begin(), lines.end(), [&](const ConfLine& l) { return l.key == key; });
}

bool IsSizeSkewed(const ShuffleFacts& s, int64_t advisory_bytes) {
  if (s.true_max_bytes <= advisory_bytes) return false;  // small partitions are never the bottleneck
  return static_cast<double>(s.true_max_bytes) >=
         kSeveritySevere * static_cast<double>(std::max<int64_t>(s.true_median_bytes, 1));
}

bool IsSlowedBySkew(const ShuffleFacts& s, int64_t advisory_bytes) {
  return IsSizeSkewed(s, advisory_bytes) &&
         std::max(s.read_skew_ratio_aqe_off, s.read_skew_ratio_aqe_on) >= kSeveritySevere;
}

namespace {

// The diagnosis of a skewed run: the shuffle whose readers stay unbalanced with AQE on; when AQE
// already evens every skewed shuffle out (its skew join split them), that it does, and what
// limits the AQE-on run now — not the side AQE split.
std::string SkewDiagnosis(const TuningFacts& f, const std::vector<const ShuffleFacts*>& skewed) {
  auto times = [](const ShuffleFacts& s) {
    return Fixed(static_cast<double>(s.true_max_bytes) /
                     static_cast<double>(std::max<int64_t>(s.true_median_bytes, 1)),
                 1) +
           "×";
  };
  const ShuffleFacts* still = nullptr;
  for (const ShuffleFacts* s : skewed)
    if (!f.has_aqe_on || s->read_skew_ratio_aqe_on >= kSeveritySevere) {
      still = s;
      break;
    }
  if (still != nullptr) {
    const double ratio = f.has_aqe_on ? still->read_skew_ratio_aqe_on : still->read_skew_ratio_aqe_off;
    const std::string severity = std::string(SeverityName(SeverityOf(ratio))) + "ly unbalanced (" +
                                 Fixed(ratio, 1) + "× the median task" +
                                 (f.has_aqe_on && f.has_aqe_off ? ", AQE on" : "") + ")";
    if (f.has_aqe_on && still->aqe_on_split_tasks > 0 && still->aqe_on_largest_task_bytes > 0) {
      // AQE split the hot partitions: what limits the readers now is the largest task left.
      const SqlConf& c = f.conf;
      const int64_t cut = std::max<int64_t>(
          c.skewed_partition_threshold_bytes,
          static_cast<int64_t>(static_cast<double>(still->seen_median_bytes) * c.skewed_partition_factor));
      std::string what = still->aqe_on_largest_task_split
                             ? "a piece of a split partition (OptimizeSkewedJoin splits by map output "
                               "ranges: a single map's "
                               "share of a hot key stays in one piece)"
                             : "a whole partition";
      if (!still->aqe_on_largest_task_split && still->aqe_on_largest_task_bytes <= cut)
        what += " under the skew threshold " + FormatBytes(cut) + " (max(skewedPartitionThresholdInBytes " +
                FormatBytes(c.skewed_partition_threshold_bytes) + ", skewedPartitionFactor " +
                FactorString(c.skewed_partition_factor) + " × the median " +
                FormatBytes(still->seen_median_bytes) + ")), which is never split";
      return "Skew: " + still->id + "'s largest partition is " + times(*still) +
             " its median (true sizes) and AQE's skew join split it (" +
             std::to_string(still->aqe_on_split_tasks) + " of its " +
             std::to_string(still->aqe_on_read_tasks) +
             " tasks read split pieces), yet the tasks reading it stay " + severity +
             ": the largest task now reads " + FormatBytes(still->aqe_on_largest_task_bytes) + ", " +
             Fixed(static_cast<double>(still->aqe_on_largest_task_bytes) /
                       static_cast<double>(std::max<int64_t>(still->aqe_on_median_task_bytes, 1)),
                   1) +
             "× the median task's, " + what + ".";
    }
    return "Skew: " + still->id + "'s largest partition is " + times(*still) +
           " its median (true sizes), and the tasks reading it are " + severity + "." +
           UnsplittableText(SkewAqeCannotSplit(f.not_applied, still->id));
  }
  const ShuffleFacts& s = *skewed.front();
  std::string d =
      "Skew that AQE already handles: " + s.id + "'s largest partition is " + times(s) +
      " its median (true sizes); without AQE the tasks reading it are " +
      std::string(SeverityName(SeverityOf(s.read_skew_ratio_aqe_off))) + "ly unbalanced (" +
      Fixed(s.read_skew_ratio_aqe_off, 1) + "×), with AQE on" +
      (f.skew_splits_aqe_on > 0 ? " (" + Counted(f.skew_splits_aqe_on, "skewed partition") + " split)"
                                : std::string()) +
      " within " + Fixed(s.read_skew_ratio_aqe_on, 1) + "×.";
  if (SeverityOf(f.worst_aqe_on_skew_ratio) >= Severity::kModerate)
    d += " What stays uneven with AQE on: " + f.worst_aqe_on_stage + ", slowest task " +
         Fixed(f.worst_aqe_on_skew_ratio, 1) + "× the median.";
  else if (!f.longest_aqe_on_stage.empty())
    d += " With AQE on no stage is uneven; the longest is " + f.longest_aqe_on_stage + ", " +
         Fixed(f.longest_aqe_on_seconds, 1) + " s.";
  return d;
}

}  // namespace

Recommendation Recommend(const TuningFacts& f) {
  Recommendation r;
  const SqlConf& c = f.conf;
  const int64_t advisory = c.advisory_partition_size_bytes;
  if (!f.conf_known)
    r.notes.push_back("The input does not carry its Spark configuration: Spark's defaults are assumed.");

  // Rule 1 — AQE itself: on when the adaptive run beats the static plan.
  const bool aqe_helps =
      f.has_aqe_off && f.has_aqe_on && f.makespan_seconds_aqe_on < kAqeGainRatio * f.makespan_seconds_aqe_off;
  if (!c.adaptive_enabled && aqe_helps) {
    AddLine(&r, "spark.sql.adaptive.enabled", "true",
            "AQE cuts the makespan from " + Fixed(f.makespan_seconds_aqe_off, 1) + " s to " +
                Fixed(f.makespan_seconds_aqe_on, 1) + " s");
  }
  const bool adaptive = c.adaptive_enabled || r.Sets("spark.sql.adaptive.enabled");

  // Rule 2 — skew: the lever is AQE's skew join, never the partition count.
  std::vector<const ShuffleFacts*> skewed;
  for (const ShuffleFacts& s : f.shuffles) {
    if (IsSlowedBySkew(s, advisory)) skewed.push_back(&s);
  }
  for (const ShuffleFacts* s : skewed) {
    // An aggregate's hot key: no skew-join key splits it (the advice below says what does), so
    // none is recommended nor simulated.
    if (!SkewAqeCannotSplit(f.not_applied, s->id).empty()) continue;
    const std::string sizes = s->id + " (largest partition " + FormatBytes(s->true_max_bytes) + ", median " +
                              FormatBytes(s->true_median_bytes) + ")";
    if (!adaptive) {
      AddLine(&r, "spark.sql.adaptive.enabled", "true",
              "skewed shuffle " + sizes + ": AQE's skew join splits it");
    }
    if (!c.skew_join_enabled) {
      AddLine(&r, "spark.sql.adaptive.skewJoin.enabled", "true",
              "skewed shuffle " + sizes + ": OptimizeSkewedJoin splits the hot partitions");
    } else if (adaptive && f.skew_splits_aqe_on > 0 &&
               std::find_if(r.notes.begin(), r.notes.end(), [](const std::string& n) {
                 return n.rfind("Keep spark.sql.adaptive.skewJoin.enabled", 0) == 0;
               }) == r.notes.end()) {
      r.notes.push_back(
          "Keep spark.sql.adaptive.skewJoin.enabled on (Spark's default): OptimizeSkewedJoin split " +
          Counted(f.skew_splits_aqe_on, "skewed partition") + " in the AQE run.");
    }
    if (s->read_skew_ratio_aqe_on < kSeveritySevere) continue;  // AQE already evens the tasks out
    // Why not split? The driver does not see it (below), or the thresholds are too high.
    const bool invisible = IsHighlyCompressed(*s, c) &&
                           SparkWouldSplit(s->true_max_bytes, s->true_median_bytes, c) &&
                           !SparkWouldSplit(s->seen_max_bytes, s->seen_median_bytes, c);
    if (invisible) continue;  // handled by the MapStatus guardrail
    // A partition is skewed above max(threshold, factor x median): only the larger of the two
    // bounds moves the cut, so only that one is worth lowering.
    const double factor_cut = static_cast<double>(s->seen_median_bytes) * c.skewed_partition_factor;
    if (static_cast<double>(c.skewed_partition_threshold_bytes) > factor_cut) {
      const int64_t threshold =
          RoundUpTo(std::max<int64_t>(advisory, static_cast<int64_t>(factor_cut)), kMiB);
      if (threshold < c.skewed_partition_threshold_bytes) {
        AddLine(&r, "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", SparkByteString(threshold),
                "tasks of " + s->id + " stay skewed with AQE (max÷median " +
                    Fixed(s->read_skew_ratio_aqe_on, 2) + "): partitions under the " +
                    FormatBytes(c.skewed_partition_threshold_bytes) + " threshold are never split");
      }
    } else if (c.skewed_partition_factor > 2.0) {
      AddLine(&r, "spark.sql.adaptive.skewJoin.skewedPartitionFactor",
              FactorString(std::max(2.0, c.skewed_partition_factor / 2)),
              "tasks of " + s->id + " stay skewed with AQE (max÷median " +
                  Fixed(s->read_skew_ratio_aqe_on, 2) +
                  "): a lower factor splits the moderately large partitions too");
    }
  }

  // Rule 3 — partitions too large (no skew): more initial partitions, AQE coalesces back.
  // Only shuffles whose count follows the configuration move with it: a count the job fixes
  // gets a note instead, and a configured shuffle that a shuffle join ties to a fixed one
  // forbids the setting altogether (the join's sides would get different counts).
  bool partitions_too_large = false;
  if (skewed.empty()) {
    int64_t want = 0;
    const ShuffleFacts* widest = nullptr;
    for (const ShuffleFacts& s : f.shuffles) {
      if (s.num_partitions <= 0 || IsSizeSkewed(s, advisory)) continue;
      const bool large =
          static_cast<double>(s.true_median_bytes) > kLargePartitionFactor * static_cast<double>(advisory);
      const bool spills =
          (s.read_spill_bytes_aqe_off + s.read_spill_bytes_aqe_on) > 0 && s.true_median_bytes > advisory;
      if (!large && !spills) continue;
      int64_t p = (s.true_total_bytes + advisory - 1) / advisory;
      p = RoundUpTo(p, std::max(f.total_cores, 1));
      if (p <= s.num_partitions) continue;
      partitions_too_large = true;
      if (s.partitions_fixed.value_or(false)) {
        r.notes.push_back("The partition count of " + s.id + " (" + std::to_string(s.num_partitions) +
                          ") is set by the job itself (repartition(n) or an RDD's numPartitions), not by "
                          "spark.sql.shuffle.partitions: raise it there to " +
                          std::to_string(p) + ".");
        continue;
      }
      if (p > want) {
        want = p;
        widest = &s;
      }
    }
    const ShuffleFacts* pinned = nullptr;
    for (const ShuffleFacts& s : f.shuffles)
      if (pinned == nullptr && !s.pinned_by.empty()) pinned = &s;
    if (widest && pinned) {
      r.notes.push_back("Not raising spark.sql.shuffle.partitions to " + std::to_string(want) + " for " +
                        widest->id + ": " + pinned->id + " is joined with " + pinned->pinned_by +
                        ", whose partition count the job fixes, and a shuffle join needs both sides' counts "
                        "equal; change " +
                        pinned->pinned_by + "'s count in the job together with the setting.");
      widest = nullptr;
    }
    if (widest) {
      const int64_t limit = c.min_num_partitions_to_highly_compress;
      if (want > limit && (widest->true_total_bytes + limit - 1) / limit <= 2 * advisory) {
        r.notes.push_back("The partition count is kept at spark.shuffle.minNumPartitionsToHighlyCompress (" +
                          std::to_string(limit) +
                          ") so that the driver keeps seeing per-block sizes (within 10 %) instead of "
                          "HighlyCompressedMapStatus's average.");
        want = limit;
      } else if (want > limit) {
        r.warnings.push_back(std::to_string(want) +
                             " partitions is above spark.shuffle.minNumPartitionsToHighlyCompress (" +
                             std::to_string(limit) +
                             "): map outputs become HighlyCompressedMapStatus and the driver sees "
                             "average sizes for blocks under spark.shuffle.accurateBlockThreshold; set "
                             "spark.shuffle.accurateBlockSkewedFactor if skew appears.");
      }
      const std::string why =
          widest->id + " moves " + FormatBytes(widest->true_total_bytes) + " through " +
          std::to_string(widest->num_partitions) + " partitions (median " +
          FormatBytes(widest->true_median_bytes) + ", " +
          (widest->read_spill_bytes_aqe_off + widest->read_spill_bytes_aqe_on > 0 ? "spilling" : "no spill") +
          "); about " + FormatBytes(advisory) + " per partition needs " + std::to_string(want) +
          (adaptive ? ", and AQE coalesces what turns out small" : "");
      AddLine(&r, "spark.sql.shuffle.partitions", std::to_string(want), why);
      if (c.initial_partition_num)
        AddLine(&r, "spark.sql.adaptive.coalescePartitions.initialPartitionNum", std::to_string(want), why);
      // Without the plan, a count other than the configured one is taken as the job's own.
      if (!widest->partitions_fixed && widest->num_partitions != c.InitialShufflePartitions()) {
        r.notes.push_back("The partition count of " + widest->id + " (" +
                          std::to_string(widest->num_partitions) +
                          ") is set by the job itself (repartition(n) or an RDD's numPartitions), not by "
                          "spark.sql.shuffle.partitions: raise it there to " +
                          std::to_string(want) + " as well.");
      }
    }
  }

  // Rule 4 — a join side within reach of the runtime broadcast threshold: AQE's JoinSelection
  // compares a materialized side with spark.sql.adaptive.autoBroadcastJoinThreshold (falling back
  // to spark.sql.autoBroadcastJoinThreshold); the runtime key moves only that decision, not static
  // planning on estimates.
  const RuntimeBroadcastReach reach = adaptive ? RuntimeBroadcastWithinReach(f) : RuntimeBroadcastReach{};
  if (!reach.join.empty()) {
    AddLine(&r, "spark.sql.adaptive.autoBroadcastJoinThreshold", SparkByteString(reach.value_bytes),
            "broadcasts " + reach.exchange + " (" + reach.join + "'s " + reach.side + " side, " +
                FormatBytes(reach.side_bytes) + " at run time) instead of " + StrategyPhrase(reach.strategy) +
                ": AQE's join selection compares it with " + reach.ThresholdText(c));
  }

  // Guardrail — MapStatus: above minNumPartitionsToHighlyCompress the driver may not see skew.
  for (const ShuffleFacts& s : f.shuffles) {
    if (!IsHighlyCompressed(s, c) || !SkewAqeCannotSplit(f.not_applied, s.id).empty()) continue;
    if (!SparkWouldSplit(s.true_max_bytes, s.true_median_bytes, c)) continue;
    if (SparkWouldSplit(s.seen_max_bytes, s.seen_median_bytes, c)) continue;
    r.warnings.push_back(s.id + " has " + std::to_string(s.num_partitions) +
                         " partitions, more than spark.shuffle.minNumPartitionsToHighlyCompress (" +
                         std::to_string(c.min_num_partitions_to_highly_compress) +
                         "): the driver sees averaged block sizes (largest " + FormatBytes(s.seen_max_bytes) +
                         ", truly " + FormatBytes(s.true_max_bytes) + ") and cannot detect the skew.");
    if (c.accurate_block_skewed_factor <= 0) {
      AddLine(&r, "spark.shuffle.accurateBlockSkewedFactor", FactorString(c.skewed_partition_factor),
              "makes HighlyCompressedMapStatus record the skewed blocks of " + s.id +
                  " apart from its average (to within 10 %), so AQE can see and split them");
    }
  }

  // Guardrail — broadcasts near executor memory.
  if (f.executor_memory_bytes > 0) {
    const double limit = kBroadcastMemoryFraction * static_cast<double>(f.executor_memory_bytes);
    for (const BroadcastFacts& b : f.broadcasts) {
      if (static_cast<double>(b.build_bytes) >= limit) {
        r.warnings.push_back(
            "The broadcast build side of " + b.join + " is " + FormatBytes(b.build_bytes) + ", " +
            Fixed(100.0 * static_cast<double>(b.build_bytes) / static_cast<double>(f.executor_memory_bytes),
                  0) +
            "% of executor memory (" + FormatBytes(f.executor_memory_bytes) +
            "); every executor holds it, as a hash relation larger than the data: risk of OutOfMemoryError.");
      }
    }
    for (const auto& [key, bytes] : {std::pair<std::string, int64_t>{"spark.sql.autoBroadcastJoinThreshold",
                                                                     c.auto_broadcast_join_threshold_bytes},
                                     {"spark.sql.adaptive.autoBroadcastJoinThreshold",
                                      c.adaptive_auto_broadcast_join_threshold_bytes.value_or(-1)}}) {
      if (bytes > 0 && static_cast<double>(bytes) >= limit) {
        r.warnings.push_back(
            key + " (" + FormatBytes(bytes) + ") lets build sides of up to " +
            Fixed(100.0 * static_cast<double>(bytes) / static_cast<double>(f.executor_memory_bytes), 0) +
            "% of executor memory be broadcast: risk of OutOfMemoryError.");
      }
    }
  }

  // Guardrail — never more partitions when the slowness is skew.
  if (!skewed.empty()) {
    r.lines.erase(std::remove_if(r.lines.begin(), r.lines.end(),
                                 [](const ConfLine& l) { return IsPartitionKey(l.key); }),
                  r.lines.end());
    r.notes.push_back(
        "Not recommending more shuffle partitions: the slow tasks read hot keys, and a key's rows stay in "
        "one partition whatever spark.sql.shuffle.partitions is.");
  }

  // Uneven task times that are the executors' start-up, not the data (models/engine/task_spread.h).
  if (SeverityOf(f.worst_startup_skew_ratio) >= Severity::kSevere)
    r.notes.push_back(
        "The uneven task times of " + f.worst_startup_stage + " (slowest task " +
        Fixed(f.worst_startup_skew_ratio, 1) +
        "× the median) are executor start-up, not skew: its slowest tasks are the first on their "
        "executors (a fresh JVM, the stage's code not yet compiled), and against tasks of the same warmth "
        "the "
        "slowest is " +
        Fixed(f.worst_startup_data_ratio, 1) + "× the median; no partition setting changes them.");

  // Why AQE did not act where the user can do something about it (docs/aqe-behaviour.md §16).
  for (std::string& a : WhyNotAdvice(f.not_applied)) r.notes.push_back(std::move(a));

  if (!skewed.empty()) {
    r.diagnosis = SkewDiagnosis(f, skewed);
  } else if (!reach.join.empty()) {
    r.diagnosis =
        "A join side within reach of the runtime broadcast threshold: " + reach.exchange + " (" + reach.join +
        "'s " + reach.side + " side) is " + FormatBytes(reach.side_bytes) + " at run time, " +
        Fixed(static_cast<double>(reach.side_bytes) / static_cast<double>(reach.threshold_bytes), 1) + "× " +
        reach.ThresholdText(c) + ", so " + reach.join + " stays " + StrategyPhrase(reach.strategy) + "." +
        (partitions_too_large ? " Its shuffle's partitions are also far above the advisory size." : "");
  } else if (partitions_too_large) {
    r.diagnosis = "Partitions too large: the shuffle's partitions are far above the advisory size.";
  } else if (r.Sets("spark.sql.adaptive.enabled")) {
    r.diagnosis = "The static plan: AQE would re-plan it at run time.";
  } else if (r.lines.empty() && r.warnings.empty() &&
             (SeverityOf(f.worst_stage_skew_ratio) >= Severity::kSevere || f.spill_bytes > 0)) {
    // No shuffle rule fired, yet the stages are uneven or spill: say what they show.
    const std::string what =
        (f.worst_stage.empty() ? std::string("a stage") : f.worst_stage) + "'s slowest task takes " +
        Fixed(f.worst_stage_skew_ratio, 1) + "× its median (" +
        std::string(SeverityName(SeverityOf(f.worst_stage_skew_ratio))) + ")" +
        (f.spill_bytes > 0 ? ", and the run spills " + FormatBytes(f.spill_bytes) : std::string());
    r.diagnosis =
        f.shuffles.empty()
            ? "Slow tasks: " + what +
                  "; this input has no partition sizes to say why: report on the scenario, "
                  "or on a run with AQE on."
            : "Uneven tasks no shuffle explains: " + what +
                  "; its input is uneven before any shuffle (e.g. scan splits of different sizes), which AQE "
                  "does not re-plan.";
  } else if (r.lines.empty() && r.warnings.empty()) {
    r.diagnosis = "Nothing to change: no skew, spill or oversized partitions.";
  } else {
    r.diagnosis = "See the warnings.";
  }
  return r;
}

Recommendation RecommendFromSweep(const sweep::SweepDocument& doc, SweepBest* best) {
  Recommendation r;
  *best = SweepBest{};
  const sweep::SweepInfo& info = doc.info;
  std::vector<std::string> keys;
  for (const sweep::GridAxis& a : info.grid) keys.push_back(a.key);
  const int64_t executor_memory = info.cluster ? info.cluster->executor_memory_bytes : 0;
  auto value_of = [&](const sweep::SweepRow& row, const std::string& key) -> std::string {
    for (size_t i = 0; i < keys.size() && i < row.values.size(); ++i)
      if (keys[i] == key) return row.values[i];
    return "";
  };
  auto as_number = [](const std::string& s) -> std::optional<double> {
    if (auto b = ParseByteString(s)) return static_cast<double>(*b);
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (end && *end == '\0' && !s.empty()) return d;
    return std::nullopt;
  };
  // The scenario's value of a key; for a key it leaves unset, Spark's default (for the keys
  // people sweep most; others stay unknown).
  static const std::map<std::string, std::string> kDefaults = {
      {"spark.sql.shuffle.partitions", "200"},
      {"spark.sql.adaptive.coalescePartitions.initialPartitionNum", "200"},
      {"spark.sql.adaptive.advisoryPartitionSizeInBytes", "64m"},
      {"spark.sql.adaptive.coalescePartitions.minPartitionSize", "1m"},
      {"spark.sql.adaptive.skewJoin.skewedPartitionFactor", "5.0"},
      {"spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "256m"},
      {"spark.sql.autoBroadcastJoinThreshold", "10m"},
      {"spark.sql.adaptive.autoBroadcastJoinThreshold", "10m"},  // unset: the static threshold
      {"spark.shuffle.minNumPartitionsToHighlyCompress", "2000"},
      {"spark.shuffle.accurateBlockThreshold", "100m"},
  };
  // The scenario's own value of a key it may not sweep: its --conf, then its conf.
  auto scenario_value = [&](const std::string& key) -> std::optional<std::string> {
    std::optional<std::string> v;
    if (info.scenario_conf)
      if (auto it = info.scenario_conf->find(key); it != info.scenario_conf->end()) v = it->second;
    for (const std::string& kv : info.conf)
      if (kv.rfind(key + "=", 0) == 0) v = kv.substr(key.size() + 1);
    return v;
  };
  auto baseline_value = [&](const std::string& key) -> std::optional<std::string> {
    if (auto it = info.baseline.find(key); it != info.baseline.end()) return it->second;
    // Unset, AQE's runtime broadcast threshold is the static one.
    if (key == "spark.sql.adaptive.autoBroadcastJoinThreshold") {
      if (std::optional<std::string> v = scenario_value("spark.sql.autoBroadcastJoinThreshold")) return v;
      return kDefaults.at("spark.sql.autoBroadcastJoinThreshold");
    }
    // Unset, CoalesceShufflePartitions' minimum is the default parallelism under parallelismFirst
    // (spark.default.parallelism, else the cluster's cores), 1 otherwise: the value the probe grid
    // writes as the scenario's own, so that a pick holding it is no change.
    if (key == "spark.sql.adaptive.coalescePartitions.minPartitionNum") {
      if (SweptFalse(info, "spark.sql.adaptive.coalescePartitions.parallelismFirst", "true")) return "1";
      if (std::optional<std::string> v = scenario_value("spark.default.parallelism")) return v;
      if (info.cluster && info.cluster->executors > 0 && info.cluster->executor_cores > 0)
        return std::to_string(info.cluster->executors * info.cluster->executor_cores);
      return std::nullopt;
    }
    auto it = kDefaults.find(key);
    if (it != kDefaults.end()) return it->second;
    return SparkDefaultOf(key);
  };
  auto baseline_number = [&](const std::string& key) -> std::optional<double> {
    const std::optional<std::string> v = baseline_value(key);
    return v ? as_number(*v) : std::nullopt;
  };
  auto same_as_baseline = [&](const std::string& key, const std::string& v) {
    const std::optional<std::string> b = baseline_value(key);
    if (!b) return false;
    if (*b == v) return true;
    const std::optional<double> x = as_number(v), y = as_number(*b);
    return x && y && *x == *y;
  };
  // The AQE-on makespan of a point that ran (every candidate below has metrics).
  auto makespan = [](const sweep::SweepRow& row) { return row.metrics->makespan_seconds_aqe_on; };

  // Candidates: points that ran without failures.
  std::vector<const sweep::SweepRow*> ok;
  std::vector<double> skew_ratios;
  for (const sweep::SweepRow& row : doc.rows) {
    if (!row.metrics) continue;
    if (row.metrics->failures > 0) continue;
    ok.push_back(&row);
    skew_ratios.push_back(row.metrics->max_task_skew_ratio);
  }
  if (ok.empty()) {
    r.diagnosis = "No point of the sweep ran without failures.";
    return r;
  }
  // The point at the scenario's own values, when the grid has it.
  const sweep::SweepRow* baseline_row = nullptr;
  for (const sweep::SweepRow* row : ok) {
    bool match = true;
    for (const std::string& k : keys) match = match && same_as_baseline(k, value_of(*row, k));
    if (match) {
      baseline_row = row;
      best->baseline_point = row->point;
      best->baseline_makespan_seconds = makespan(*row);
      break;
    }
  }
  std::sort(skew_ratios.begin(), skew_ratios.end());
  const double typical_skew = skew_ratios[skew_ratios.size() / 2];
  // Skew limits the job when the tasks stay unbalanced even with AQE, or when AQE has to split
  // skewed partitions at most points (then the static plan is slow because of skew).
  size_t points_with_splits = 0;
  for (const sweep::SweepRow* row : ok) points_with_splits += row->metrics->skew_splits > 0;
  const bool splits_typical = 2 * points_with_splits > ok.size();
  const bool skewed = typical_skew >= kSeveritySevere || splits_typical;

  // Guardrails as filters, each noted once.
  std::set<std::string> excluded_why;
  auto passes = [&](const sweep::SweepRow& row) {
    for (const std::string& k : keys) {
      const std::optional<double> v = as_number(value_of(row, k));
      if (!v) continue;
      if (skewed && IsPartitionKey(k)) {
        const std::optional<double> base = baseline_number(k);
        if (base && *v > *base) {
          excluded_why.insert("Points with more " + k +
                              " than the scenario's were left out: the slowness is skew (" +
                              (splits_typical ? "AQE splits skewed partitions at most points"
                                              : "typical max÷median " + Fixed(typical_skew, 2)) +
                              "), and more partitions do not split a hot key.");
          return false;
        }
      }
      if ((k == "spark.sql.autoBroadcastJoinThreshold" ||
           k == "spark.sql.adaptive.autoBroadcastJoinThreshold") &&
          executor_memory > 0 && *v >= kBroadcastMemoryFraction * static_cast<double>(executor_memory)) {
        excluded_why.insert("Points whose " + k + " reaches " + Fixed(100 * kBroadcastMemoryFraction, 0) +
                            "% of executor memory were left out (risk of OutOfMemoryError).");
        return false;
      }
    }
    return true;
  };
  std::vector<const sweep::SweepRow*> passing;
  for (const sweep::SweepRow* row : ok)
    if (passes(*row)) passing.push_back(row);
  for (const std::string& why : excluded_why) r.notes.push_back(why);
  if (passing.empty()) {
    r.diagnosis = "Every point was excluded by the guardrails.";
    return r;
  }
  const sweep::SweepRow* fastest = passing.front();
  for (const sweep::SweepRow* row : passing)
    if (makespan(*row) < makespan(*fastest)) fastest = row;
  // A key that does not matter: among points equal in every other key, each of its values gives
  // the same makespan within kSameMakespan. Said once; never recommended (the region below then
  // holds its baseline value, which changes less).
  for (size_t k = 0; k < keys.size(); ++k) {
    std::map<std::vector<std::string>, std::pair<double, double>> range;  // other keys' values → min, max
    std::map<std::vector<std::string>, size_t> count;
    for (const sweep::SweepRow* row : passing) {
      std::vector<std::string> others = row->values;
      if (k < others.size()) others.erase(others.begin() + static_cast<std::ptrdiff_t>(k));
      auto [it, fresh] = range.emplace(others, std::make_pair(makespan(*row), makespan(*row)));
      it->second.first = std::min(it->second.first, makespan(*row));
      it->second.second = std::max(it->second.second, makespan(*row));
      ++count[others];
    }
    bool compared = false, matters = false;
    for (const auto& [others, mm] : range) {
      if (count[others] < 2) continue;
      compared = true;
      matters |= mm.second > (1 + kSameMakespan) * mm.first;
    }
    if (compared && !matters)
      r.notes.push_back(keys[k] +
                        " does not matter here: each of its values gives the same makespan (within " +
                        Fixed(100 * kSameMakespan, 1) + "%) whatever the other keys are.");
  }
  // The near-best region: the points within 2% of the fastest. Inside it, the scenario's own
  // values win; then the fewest keys changed from them, then the fewest away from Spark's
  // defaults, then the smallest change (the sum of |log(value ÷ baseline)|), then the fastest.
  std::vector<const sweep::SweepRow*> region;
  for (const sweep::SweepRow* row : passing)
    if (makespan(*row) * kAqeGainRatio <= makespan(*fastest)) region.push_back(row);
  const bool flat = region.size() == passing.size() && passing.size() > 1;
  auto changed = [&](const sweep::SweepRow& row) {
    int n = 0;
    for (const std::string& k : keys) n += !same_as_baseline(k, value_of(row, k));
    return n;
  };
  auto off_default = [&](const sweep::SweepRow& row) {
    int n = 0;
    for (const std::string& k : keys) {
      auto it = kDefaults.find(k);
      n += it == kDefaults.end() ||
           !(it->second == value_of(row, k) || (as_number(it->second) && as_number(value_of(row, k)) &&
                                                *as_number(it->second) == *as_number(value_of(row, k))));
    }
    return n;
  };
  auto distance = [&](const sweep::SweepRow& row) {
    double d = 0;
    for (const std::string& k : keys) {
      const std::optional<double> v = as_number(value_of(row, k)), b = baseline_number(k);
      if (v && b && *v > 0 && *b > 0) d += std::fabs(std::log(*v / *b));
    }
    return d;
  };
  const sweep::SweepRow* winner = region.front();
  for (const sweep::SweepRow* row : region) {
    const auto rank = [&](const sweep::SweepRow* x) {
      return std::make_tuple(x != baseline_row, changed(*x), off_default(*x), distance(*x), makespan(*x),
                             x->point);
    };
    if (rank(row) < rank(winner)) winner = row;
  }
  if (flat) {
    r.notes.push_back("The grid does not matter here: every point is within 2% of the fastest (" +
                      Fixed(makespan(*fastest), 2) + " s), so no swept key is worth changing.");
  } else if (winner == baseline_row && fastest != baseline_row) {
    const std::string point = std::to_string(fastest->point);
    r.notes.push_back(
        makespan(*fastest) >= *best->baseline_makespan_seconds
            ? "No point is faster than the scenario's own values (point " + point + " ties at " +
                  Fixed(makespan(*fastest), 2) + " s): no change recommended for the swept keys."
            : "The fastest point (" + point + ", " + Fixed(makespan(*fastest), 2) +
                  " s) is within 2% of the scenario's own values: no change recommended for the "
                  "swept keys.");
  } else if (winner != fastest) {
    r.notes.push_back("Point " + std::to_string(winner->point) + " is within 2% of the fastest (point " +
                      std::to_string(fastest->point) + ", " + Fixed(makespan(*fastest), 2) +
                      " s) and changes less: it is the one recommended.");
  }
  if (flat && baseline_row) winner = baseline_row;
  best->point = winner->point;
  best->makespan_seconds = makespan(*winner);
  const std::string gain = best->baseline_makespan_seconds
                               ? " (makespan " + Fixed(*best->baseline_makespan_seconds, 2) + " s → " +
                                     Fixed(best->makespan_seconds, 2) + " s)"
                               : " (makespan " + Fixed(best->makespan_seconds, 2) + " s)";
  const std::string why_point = winner == fastest
                                    ? "the fastest point of the sweep" + gain
                                    : "within 2% of the sweep's fastest, with the fewest changes" + gain;
  // The sweep runs every point with AQE on (and off for reference): a scenario that has it off
  // gets it on when the chosen point beats the scenario's own static plan by 2%.
  if (SweptWithAqeOff(info) && baseline_row &&
      best->makespan_seconds < kAqeGainRatio * baseline_row->metrics->makespan_seconds_aqe_off) {
    AddLine(&r, "spark.sql.adaptive.enabled", "true",
            "AQE cuts the makespan from " + Fixed(baseline_row->metrics->makespan_seconds_aqe_off, 2) +
                " s (AQE off, the scenario's own values) to " + Fixed(best->makespan_seconds, 2) + " s");
  }
  for (const std::string& k : keys) {
    const std::string v = value_of(*winner, k);
    best->values.push_back(v);
    if (flat || same_as_baseline(k, v)) continue;
    std::string key = k;
    if (k == "cluster.executors")
      key = "spark.executor.instances";
    else if (k == "cluster.executorCores")
      key = "spark.executor.cores";
    else if (k == "cluster.executorMemory")
      key = "spark.executor.memory";
    else if (k.rfind("cost.", 0) == 0 || k.rfind("simulation.", 0) == 0 || k.rfind("cluster.", 0) == 0) {
      r.notes.push_back("The best point has " + k + " = " + v + " (a model parameter, not a Spark setting).");
      continue;
    }
    if (key == "spark.executor.memory") {
      if (auto b = as_number(v)) {
        if (*b >= 1024) {
          AddLine(&r, key, SparkByteString(static_cast<int64_t>(*b)), why_point);
          continue;
        }
      }
    }
    AddLine(&r, key, v, why_point);
  }
  // Cluster sweeps: the fastest point is often the biggest cluster; name the cheapest point
  // (executor-core seconds) that is within 10% of it.
  const bool sweeps_cluster = std::any_of(keys.begin(), keys.end(), [](const std::string& k) {
    return k == "cluster.executors" || k == "cluster.executorCores";
  });
  if (sweeps_cluster) {
    const double executors0 = info.cluster ? info.cluster->executors : 1.0;
    const double cores0 = info.cluster ? info.cluster->executor_cores : 1.0;
    auto core_seconds = [&](const sweep::SweepRow& row) {
      double e = executors0, c = cores0;
      if (auto v = as_number(value_of(row, "cluster.executors"))) e = *v;
      if (auto v = as_number(value_of(row, "cluster.executorCores"))) c = *v;
      return makespan(row) * e * c;
    };
    const sweep::SweepRow* cheapest = nullptr;
    for (const sweep::SweepRow* row : ok) {
      if (!passes(*row) || makespan(*row) > 1.1 * best->makespan_seconds) continue;
      if (!cheapest || core_seconds(*row) < core_seconds(*cheapest)) cheapest = row;
    }
    if (cheapest && cheapest != winner && core_seconds(*cheapest) < 0.95 * core_seconds(*winner)) {
      std::string values;
      for (const std::string& k : keys)
        values += (values.empty() ? "" : ", ") + k + " = " + value_of(*cheapest, k);
      r.notes.push_back("Cheaper within 10% of the fastest: point " + std::to_string(cheapest->point) + " (" +
                        values + "), " + Fixed(makespan(*cheapest), 2) + " s for " +
                        Fixed(core_seconds(*cheapest) / 3600, 2) + " core-hours instead of " +
                        Fixed(core_seconds(*winner) / 3600, 2) + ".");
    }
  }
  if (skewed) {
    // Spark's default already has the skew join on: a note, not a line to set.
    r.notes.push_back("Keep spark.sql.adaptive.skewJoin.enabled on (Spark's default): " +
                      (splits_typical
                           ? "AQE splits skewed partitions at " + std::to_string(points_with_splits) +
                                 " of " + std::to_string(ok.size()) +
                                 " points; the skew join is what evens the tasks out."
                           : "the tasks stay skewed (typical max÷median " + Fixed(typical_skew, 2) + ")."));
    r.notes.push_back(
        "The slowness is skew: its levers are spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes "
        "(or skewedPartitionFactor, when factor × median partition is above the threshold), not the "
        "partition count.");
  }
  const bool changes =
      std::any_of(r.lines.begin(), r.lines.end(), [&](const ConfLine& l) { return l.reason == why_point; });
  r.diagnosis = flat       ? "The swept keys do not matter here: every point is within 2% of the fastest."
                : !changes ? "The scenario's own values are (within 2%) the fastest of the sweep."
                           : (winner == fastest ? "The fastest point of the sweep"
                                                : "A point within 2% of the fastest") +
                                 gain + ".";
  if (r.Sets("spark.sql.adaptive.enabled"))
    r.diagnosis += " AQE beats the scenario's static plan: turn it on.";
  if (skewed) {
    r.diagnosis[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(r.diagnosis[0])));
    r.diagnosis = "Skew limits the static plan; " + r.diagnosis;
  }
  return r;
}

namespace {

// A decision's message without its reasons, for one short clause: parentheses, a " — " note and
// anything after a second ": " go ("j: SortMergeJoin → BroadcastHashJoin BuildRight (runtime size
// ...)" → "j: SortMergeJoin → BroadcastHashJoin BuildRight").
std::string ShortDecision(const std::string& message) {
  std::string out;
  int depth = 0;
  for (size_t i = 0; i < message.size(); ++i) {
    const char c = message[i];
    if (c == '(') ++depth;
    if (depth == 0) out += c;
    if (c == ')' && depth > 0) --depth;
  }
  if (const size_t dash = out.find(" — "); dash != std::string::npos) out.resize(dash);
  if (const size_t colon = out.find(": "); colon != std::string::npos)
    if (const size_t second = out.find(": ", colon + 2); second != std::string::npos) out.resize(second);
  std::string squeezed;  // the spaces and commas the parentheses left
  for (const char c : out) {
    if (c == ' ' && (squeezed.empty() || squeezed.back() == ' ')) continue;
    if (c == ',' && !squeezed.empty() && squeezed.back() == ' ') squeezed.pop_back();
    squeezed += c;
  }
  while (!squeezed.empty() && (squeezed.back() == ' ' || squeezed.back() == ',')) squeezed.pop_back();
  return squeezed;
}

}  // namespace

std::string DecisionsChanged(const std::vector<Decision>& before, const std::vector<Decision>& after) {
  // A decision is matched by rule and target; its message, shortened, is what changed.
  const auto key = [](const Decision& d) { return d.rule + " " + DecisionTarget(d); };
  std::vector<std::string> out;
  for (const Decision& d : after) {
    if (d.rule == "EnsureRequirements" || DecisionTarget(d).empty()) continue;
    const auto b =
        std::find_if(before.begin(), before.end(), [&](const Decision& x) { return key(x) == key(d); });
    const std::string now = ShortDecision(d.message);
    if (b == before.end()) {
      out.push_back(now);
    } else if (const std::string was = ShortDecision(b->message); was != now) {
      const size_t colon = was.find(": ");  // the target is said once
      out.push_back(now + " instead of " + (colon == std::string::npos ? was : was.substr(colon + 2)));
    }
  }
  for (const Decision& b : before) {
    if (b.rule == "EnsureRequirements" || DecisionTarget(b).empty()) continue;
    if (std::none_of(after.begin(), after.end(), [&](const Decision& x) { return key(x) == key(b); }))
      out.push_back("no longer " + ShortDecision(b.message));
  }
  if (out.empty()) return "";
  std::string text = out[0];
  if (out.size() > 1) text += "; " + out[1];
  if (out.size() > 2) text += "; and " + Counted(static_cast<int64_t>(out.size() - 2), "other change");
  return text;
}

void CheckBySimulation(Recommendation* r, double current_seconds, const MakespanWith& makespan_with,
                       const GuardrailsWith& guardrails_with) {
  if (r->lines.empty() || !makespan_with) return;
  const auto keys_of = [](const std::vector<ConfLine>& lines) {
    std::string keys;
    for (const ConfLine& l : lines) keys += (keys.empty() ? "" : ", ") + l.key + " " + l.value;
    return keys;
  };
  // The current configuration as simulated: its seconds with their band, as `run` prints them.
  const SimulatedMakespan now = makespan_with({});
  const std::string current = now.seconds && *now.seconds == current_seconds
                                  ? TrustedSeconds(now)
                                  : TrustedSeconds(current_seconds, std::nullopt, false);
  const SimulatedMakespan simulated = makespan_with(r->lines);
  const std::string keys = keys_of(r->lines);
  if (!simulated.seconds) {
    // A setting the scenario cannot run with is not recommended, whatever the rules said.
    r->notes.push_back("The scenario does not run with " + keys + " (" + simulated.error +
                       "), so nothing is recommended.");
    r->lines.clear();
    return;
  }
  const double keep_ratio = 1 - kMinGain;
  const std::string min_gain = Fixed(100 * kMinGain, 0) + "%";
  if (!(*simulated.seconds < keep_ratio * current_seconds)) {
    r->notes.push_back("Simulated with " + keys + ": " + TrustedSeconds(simulated) + " against " + current +
                       " now, less than a " + min_gain +
                       " gain (aqesim tune's least gain too), so nothing is recommended.");
    r->lines.clear();
    return;
  }
  if (guardrails_with) {  // as tune judges it: no loss on any copy, and the gain on average
    const std::optional<GuardrailWorst> worst = guardrails_with(r->lines);
    const std::string copies =
        " now, but on the copies aqesim tune also judges a change on (seed+1, data ×0.5 and ×2, a hotter "
        "and a flatter skew) ";
    if (worst && worst->ratio > 1 + tune::kLossTolerance) {
      r->notes.push_back("Simulated with " + keys + ": " + TrustedSeconds(simulated) + " against " + current +
                         copies + "it loses " + Fixed(100 * (worst->ratio - 1), 1) + "% on " + worst->label +
                         ", so nothing is recommended.");
      r->lines.clear();
      return;
    }
    if (worst && !(worst->mean_ratio < keep_ratio)) {
      r->notes.push_back("Simulated with " + keys + ": " + TrustedSeconds(simulated) + " against " + current +
                         copies + "it gains " + Fixed(100 * (1 - worst->mean_ratio), 1) +
                         "% on average (least " + Fixed(100 * (1 - worst->ratio), 1) + "%, on " +
                         worst->label + "), less than a " + min_gain + " gain, so nothing is recommended.");
      r->lines.clear();
      return;
    }
  }
  // Each line must earn its place: taken out (in order), the others alone must lose at least
  // kMinGain, or it goes, like tune's minimal diff. The kept ones say what each gives alone.
  SimulatedMakespan with = simulated;
  for (size_t i = 0; r->lines.size() > 1 && i < r->lines.size();) {
    std::vector<ConfLine> others = r->lines;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
    const SimulatedMakespan without = makespan_with(others);
    if (without.seconds && !(*with.seconds < keep_ratio * *without.seconds)) {
      r->notes.push_back("Not recommending " + r->lines[i].key + " " + r->lines[i].value + ": without it " +
                         TrustedSeconds(without) + " against " + TrustedSeconds(with) +
                         " with it, less than a " + min_gain + " gain.");
      r->lines = std::move(others);
      with = without;
    } else {
      ++i;
    }
  }
  // Each kept line names the decision it changes (applied alone against the scenario as it is).
  for (ConfLine& l : r->lines) {
    const SimulatedMakespan alone = makespan_with({l});
    if (!alone.seconds) continue;
    if (r->lines.size() > 1) l.reason += "; alone: makespan " + current + " → " + TrustedSeconds(alone);
    if (now.seconds) {
      const std::string changed = DecisionsChanged(now.decisions, alone.decisions);
      if (!changed.empty()) l.reason = "changes " + changed + "; " + l.reason;
    }
  }
  r->notes.push_back("Checked by simulation: with " + keys_of(r->lines) + " the makespan goes from " +
                     current + " to " + TrustedSeconds(with) + ".");
}

}  // namespace aqesim::report
