#include "models/aqe/rules/join_selection.h"

#include <cstdio>
#include <optional>
#include <string>

#include "models/plan/join_selection_helper.h"
#include "models/plan/plan_queries.h"
#include "models/plan/planned_properties.h"

namespace aqesim {

namespace {

struct SideStats {
  int64_t size_bytes = 0;
  bool runtime = false;  // statistics of a materialized stage
};

SideStats StatsOf(const ExecNode& side) {
  if (IsMaterializedShuffle(side)) return {side.shuffle->data->data_size_bytes, true};
  return {side.estimated_bytes, false};
}

/// The threshold a side is compared with, named as a user sets it: on runtime statistics AQE's
/// own key, which falls back to the static one while unset (docs/aqe-behaviour.md §8.3).
std::string ThresholdText(const SqlConf& conf, bool runtime, int64_t threshold) {
  if (!runtime) return "spark.sql.autoBroadcastJoinThreshold " + FormatBytes(threshold);
  return "adaptive broadcast threshold " + FormatBytes(threshold) +
         " (spark.sql.adaptive.autoBroadcastJoinThreshold" +
         (conf.adaptive_auto_broadcast_join_threshold_bytes
              ? ""
              : ", unset: spark.sql.autoBroadcastJoinThreshold") +
         ")";
}

std::string Ratio(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

/// Why a sort-merge / shuffled hash join was not turned into a broadcast hash join: the type
/// builds no side, a MERGE hint, the threshold disabled, DynamicJoinSelection's demotion of a
/// side small enough, or the smallest buildable side above the threshold (by how much).
NotApplied WhyNoBroadcast(const RuleContext& ctx, const ExecNode& n, const SideStats sides[2]) {
  const SqlConf& conf = ctx.conf;
  const PlanNode& p = *n.source;
  const JoinState& j = *n.join;
  NotApplied out;
  out.rule = "JoinSelection";
  out.target = n.id;
  out.at = ctx.now;
  const std::string type(JoinTypeName(p.join_type));
  const bool can[2] = {CanBuildBroadcastLeft(p.join_type), CanBuildBroadcastRight(p.join_type)};
  const char* side_name[2] = {"left", "right"};
  if (p.left_hint == JoinHint::kMerge || p.right_hint == JoinHint::kMerge) {
    out.reason = "mergeHint";
    out.message = n.id + ": a MERGE hint keeps the sort-merge join";
    return out;
  }
  if (!can[0] && !can[1]) {
    out.reason = "joinTypeCannotBuild";
    out.message = n.id + ": a " + type + " join cannot broadcast either side";
    out.numbers = {{"joinType", type}};
    return out;
  }
  // The smallest side that may build (the right on a tie, as getSmallerSide).
  int b = can[1] ? 1 : 0;
  if (can[0] && can[1] && sides[0].size_bytes < sides[1].size_bytes) b = 0;
  const SideStats& s = sides[b];
  const bool runtime = s.runtime;
  const int64_t threshold =
      runtime ? conf.RuntimeBroadcastThresholdBytes() : conf.auto_broadcast_join_threshold_bytes;
  const std::string key = runtime && conf.adaptive_auto_broadcast_join_threshold_bytes
                              ? "spark.sql.adaptive.autoBroadcastJoinThreshold"
                              : "spark.sql.autoBroadcastJoinThreshold";
  const std::string side = std::string(side_name[b]) + " (" + n.child(b).id + ", " +
                           (runtime ? "runtime " : "estimated ") + FormatBytes(s.size_bytes) + ")";
  // A smaller side the join type cannot build.
  std::string other;
  if (!can[1 - b] && sides[1 - b].size_bytes < s.size_bytes)
    other = "; the " + std::string(side_name[1 - b]) + " side is smaller (" +
            FormatBytes(sides[1 - b].size_bytes) + ") but a " + type + " join cannot build it";
  out.numbers = {{"side", side_name[b]}, {"exchange", n.child(b).id},   {"bytes", s.size_bytes},
                 {"runtime", runtime},   {"thresholdBytes", threshold}, {"thresholdKey", key}};
  if (threshold < 0) {
    out.reason = "broadcastDisabled";
    out.message = n.id + ": broadcast disabled (" + key + " = -1); smallest buildable side " + side + other;
    return out;
  }
  const RuntimeHint hint = b == 0 ? j.left_runtime_hint : j.right_runtime_hint;
  if (s.size_bytes <= threshold &&
      (hint == RuntimeHint::kNoBroadcastHash || hint == RuntimeHint::kShuffleHash)) {
    // DynamicJoinSelection demoted it: most partitions of one side are empty.
    const ExecNode& me = n.child(b);
    const ExecNode& sparse = IsMaterializedShuffle(me) ? me : n.child(1 - b);
    int64_t non_empty = 0, total = 0;
    if (IsMaterializedShuffle(sparse))
      for (int64_t x : sparse.shuffle->data->reported->BytesByPartitionId()) non_empty += x > 0, ++total;
    out.reason = "demotedByEmptyPartitions";
    out.message = n.id + ": " + side + " fits " + ThresholdText(conf, runtime, threshold) +
                  " but DynamicJoinSelection demoted it: " + std::to_string(non_empty) + " of " +
                  std::to_string(total) + " partitions of " + sparse.id +
                  " are non-empty, under spark.sql.adaptive.nonEmptyPartitionRatioForBroadcastJoin " +
                  Ratio(conf.non_empty_partition_ratio_for_broadcast_join);
    out.numbers["nonEmptyPartitions"] = non_empty;
    out.numbers["partitions"] = total;
    out.numbers["nonEmptyPartitionRatioForBroadcastJoin"] = conf.non_empty_partition_ratio_for_broadcast_join;
    return out;
  }
  out.reason = "aboveBroadcastThreshold";
  out.message =
      n.id + ": smallest buildable side " + side + " > " + ThresholdText(conf, runtime, threshold) + " (by " +
      FormatBytes(s.size_bytes - threshold) +
      (threshold > 0 ? ", " + Ratio(static_cast<double>(s.size_bytes) / static_cast<double>(threshold)) + "×"
                     : std::string()) +
      ")" + other;
  return out;
}

}  // namespace

bool JoinSelection::Enabled(const SqlConf&) const { return true; }

RuleOutcome JoinSelection::Apply(const RuleContext& ctx, ExecNode* plan) const {
  RuleOutcome outcome;
  const SqlConf& conf = ctx.conf;
  for (ExecNode* n : JoinsNotYetRunning(plan)) {
    JoinState& j = *n->join;
    const PlanNode& p = *n->source;
    if (j.strategy != JoinStrategy::kSortMerge && j.strategy != JoinStrategy::kShuffledHash) continue;
    const SideStats ls = StatsOf(n->child(0)), rs = StatsOf(n->child(1));
    if (p.left_hint == JoinHint::kMerge || p.right_hint == JoinHint::kMerge) {
      const SideStats both[2] = {ls, rs};
      outcome.not_applied.push_back(WhyNoBroadcast(ctx, *n, both));
      continue;
    }
    auto can_broadcast_by_size = [&](const SideStats& s, RuntimeHint hint, JoinHint user) {
      if (user == JoinHint::kBroadcast) return true;
      if (hint == RuntimeHint::kNoBroadcastHash || hint == RuntimeHint::kShuffleHash) return false;
      return CanBroadcastBySize(s.size_bytes, s.runtime ? conf.RuntimeBroadcastThresholdBytes()
                                                        : conf.auto_broadcast_join_threshold_bytes);
    };
    const std::optional<BuildSide> broadcast_side = ChooseBuildSide(
        CanBuildBroadcastLeft(p.join_type) && can_broadcast_by_size(ls, j.left_runtime_hint, p.left_hint),
        CanBuildBroadcastRight(p.join_type) && can_broadcast_by_size(rs, j.right_runtime_hint, p.right_hint),
        ls.size_bytes, rs.size_bytes);
    if (!broadcast_side) {
      const SideStats both[2] = {ls, rs};
      outcome.not_applied.push_back(WhyNoBroadcast(ctx, *n, both));
    }
    JoinStrategy to = JoinStrategy::kSortMerge;
    BuildSide build = BuildSide::kRight;
    std::string why;
    if (broadcast_side) {
      to = JoinStrategy::kBroadcastHash;
      build = *broadcast_side;
      const SideStats& b = build == BuildSide::kLeft ? ls : rs;
      why = std::string(b.runtime ? "runtime size " : "estimated size ") + FormatBytes(b.size_bytes) +
            " <= " + (b.runtime ? "adaptive broadcast threshold " : "spark.sql.autoBroadcastJoinThreshold ") +
            FormatBytes(b.runtime ? conf.RuntimeBroadcastThresholdBytes()
                                  : conf.auto_broadcast_join_threshold_bytes);
    } else {
      auto shj_ok = [&](const SideStats& me, const SideStats& other, RuntimeHint hint, JoinHint user) {
        if (user == JoinHint::kShuffleHash || hint == RuntimeHint::kShuffleHash ||
            hint == RuntimeHint::kPreferShuffleHash)
          return true;
        return !conf.prefer_sort_merge_join &&
               static_cast<double>(me.size_bytes) <
                   static_cast<double>(conf.auto_broadcast_join_threshold_bytes) * conf.shuffle_partitions &&
               static_cast<double>(me.size_bytes) * conf.shuffled_hash_join_factor <=
                   static_cast<double>(other.size_bytes);
      };
      const std::optional<BuildSide> hash_side = ChooseBuildSide(
          CanBuildShuffledHashLeft(p.join_type) && shj_ok(ls, rs, j.left_runtime_hint, p.left_hint),
          CanBuildShuffledHashRight(p.join_type) && shj_ok(rs, ls, j.right_runtime_hint, p.right_hint),
          ls.size_bytes, rs.size_bytes);
      if (hash_side) {
        to = JoinStrategy::kShuffledHash;
        build = *hash_side;
        why = "shuffled hash join preferred";
      }
    }
    const JoinStrategy from = j.strategy;
    if (to == from && (to == JoinStrategy::kSortMerge || j.build_side == build)) continue;
    if (to == JoinStrategy::kSortMerge) continue;  // never demote a runtime choice back
    j.strategy = to;
    j.build_side = build;
    if (to == JoinStrategy::kBroadcastHash) {
      // No co-partitioning needed: shuffles below that have not started are dropped.
      DropCoPartitioningShuffles(n);
      RecomputeUpToExchange(n, conf);
    }
    Decision d;
    d.rule = std::string(name());
    d.message = n->id + ": " + std::string(JoinStrategyName(from)) + " → " +
                std::string(JoinStrategyName(to)) + " " + std::string(BuildSideName(build)) + " (" + why +
                ")";
    d.at = ctx.now;
    d.fields = {{"join", n->id},
                {"from", JoinStrategyName(from)},
                {"to", JoinStrategyName(to)},
                {"buildSide", BuildSideName(build)}};
    outcome.decisions.push_back(std::move(d));
    outcome.changed = true;
  }
  return outcome;
}

}  // namespace aqesim
