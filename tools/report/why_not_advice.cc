#include "tools/report/why_not_advice.h"

#include <cmath>
#include <cstdint>

#include "models/aqe/decision.h"
#include "tools/text/table_text.h"

namespace aqesim::report {

namespace {

std::string Advice(const NotApplied& n) {
  const std::string& r = n.reason;
  if (r == "notAJoin")
    return "No configuration key helps: AQE splits skewed partitions of joins only. Salt the key (add a "
           "random "
           "suffix, aggregate, then aggregate again without it), pre-aggregate before the shuffle, or split "
           "the hot "
           "key out and aggregate it separately.";
  if (r == "rangePartitioned")
    return "No configuration key helps: a range partitioner keeps a key's rows in one partition and AQE "
           "only coalesces a sort's partitions. Salt the sort key (sort by the key and a random salt where "
           "the order within a key does not matter), or sort the hot key's rows apart and union them.";
  if (r == "bucketedScan")
    return n.message.find("(bucketed scan read by join") != std::string::npos
               ? "No configuration key spreads one key: its rows stay in one bucket and, read unbucketed, "
                 "in one shuffle partition. Salt the key (a random suffix on this side, the other side's "
                 "matching rows replicated), or split the hot key out (join its rows separately, the other "
                 "side's matching rows broadcast, and union the results). With "
                 "spark.sql.sources.bucketing.enabled=false for this query the join shuffles the table and "
                 "OptimizeSkewedJoin can split the hot partition by map ranges (at the price of the shuffle "
                 "the bucketing saved)."
               : "No configuration key helps: one key's rows stay in one bucket, and in one partition of any "
                 "shuffle on the key, so neither re-bucketing nor more partitions spreads them. Salt the key "
                 "(add a random suffix, aggregate, then aggregate again without it), pre-aggregate, or split "
                 "the hot key out and aggregate it separately.";
  if (r == "joinTypeCannotSplit")
    return "No configuration key helps: Spark cannot split this side for this join type. Split the hot key "
           "out "
           "(join its rows separately, e.g. with the other side's matching rows broadcast, and union the "
           "results), or salt the key on the skewed side and replicate the other side's matching rows.";
  if (r == "singleMapPartition")
    return "Splitting works by map ranges and one map task wrote the partition: more map tasks upstream "
           "(more "
           "input splits, or a repartition before the join) give AQE ranges to split, or salt the key.";
  if (r == "hiddenByMapStatus")
    return "Set spark.shuffle.accurateBlockSkewedFactor (e.g. 5) so that HighlyCompressedMapStatus keeps the "
           "skewed blocks out of its average (each recorded to within 10 %), or keep the partition count at "
           "most "
           "spark.shuffle.minNumPartitionsToHighlyCompress (CompressedMapStatus: every block to within 10 "
           "%).";
  if (r == "needsExtraShuffle")
    return "spark.sql.adaptive.forceOptimizeSkewedJoin=true accepts the extra shuffle (check by simulation "
           "that "
           "it pays off).";
  if (r == "skewJoinDisabled") return "Set spark.sql.adaptive.skewJoin.enabled=true.";
  if (r == "coalescingDisabled") return "Set spark.sql.adaptive.coalescePartitions.enabled=true.";
  if (r == "localReadDisabled") return "Set spark.sql.adaptive.localShuffleReader.enabled=true.";
  if (r == "userSpecifiedPartitions")
    return "Change the count where the job sets it (repartition(n)), or let AQE choose: repartition by "
           "columns "
           "only, or a REBALANCE hint.";
  if (r == "demotedByEmptyPartitions")
    return "Lower spark.sql.adaptive.nonEmptyPartitionRatioForBroadcastJoin below the side's non-empty ratio "
           "to "
           "broadcast it anyway (a broadcast of mostly empty partitions may still be cheaper).";
  if (r == "aboveBroadcastThreshold") {
    const int64_t bytes = n.Integer("bytes"), threshold = n.Integer("thresholdBytes");
    // Within reach of the threshold: raising it is a real option; far above, it is not.
    if (threshold <= 0 || bytes > kBroadcastReachFactor * threshold) return "";
    // Runtime statistics meet AQE's threshold, which falls back to the static one: its own key
    // moves only the decision at run time.
    if (n.Flag("runtime"))
      return "Raising spark.sql.adaptive.autoBroadcastJoinThreshold (AQE's join selection on runtime sizes; "
             "unset, it is spark.sql.autoBroadcastJoinThreshold) above " +
             FormatBytes(bytes) +
             " would broadcast it at run time (every executor then holds it: mind executor memory).";
    const std::string key = n.Text("thresholdKey").empty() ? "the threshold" : n.Text("thresholdKey");
    return "Raising " + key + " above " + FormatBytes(bytes) +
           " would broadcast it (every executor then holds it: mind executor memory).";
  }
  return "";
}

}  // namespace

std::string SkewAqeCannotSplit(const std::vector<NotApplied>& not_applied, const std::string& exchange) {
  for (const NotApplied& n : not_applied) {
    if ((n.reason == "notAJoin" || n.reason == "rangePartitioned") && n.target == exchange) return n.reason;
    // A join's skewed side its type cannot split: the entry names the join, its numbers the side's exchange.
    const auto side = n.numbers.find("exchange");
    if (n.reason == "joinTypeCannotSplit" && side != n.numbers.end() && side->is_string() &&
        side->get<std::string>() == exchange)
      return n.reason;
  }
  return "";
}

std::vector<std::string> WhyNotAdvice(const std::vector<NotApplied>& not_applied) {
  std::vector<std::string> out;
  for (const NotApplied& n : not_applied) {
    const std::string advice = Advice(n);
    if (advice.empty()) continue;
    out.push_back(n.rule + " did not act on " + n.message + ". " + advice);
  }
  return out;
}

}  // namespace aqesim::report
