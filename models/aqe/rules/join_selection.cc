#include "models/aqe/rules/join_selection.h"

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

}  // namespace

bool JoinSelection::Enabled(const SqlConf&) const { return true; }

RuleOutcome JoinSelection::Apply(const RuleContext& ctx, ExecNode* plan) const {
  RuleOutcome outcome;
  const SqlConf& conf = ctx.conf;
  for (ExecNode* n : JoinsNotYetRunning(plan)) {
    JoinState& j = *n->join;
    const PlanNode& p = *n->source;
    if (j.strategy != JoinStrategy::kSortMerge && j.strategy != JoinStrategy::kShuffledHash) continue;
    if (p.left_hint == JoinHint::kMerge || p.right_hint == JoinHint::kMerge) continue;
    const SideStats ls = StatsOf(n->child(0)), rs = StatsOf(n->child(1));
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
