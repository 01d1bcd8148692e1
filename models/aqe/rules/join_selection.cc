#include "models/aqe/rules/join_selection.h"

#include <string>

#include "models/aqe/plan_queries.h"
#include "models/engine/static_planner.h"

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
      const int64_t threshold =
          s.runtime ? conf.RuntimeBroadcastThresholdBytes() : conf.auto_broadcast_join_threshold_bytes;
      return s.size_bytes >= 0 && s.size_bytes <= threshold;
    };
    const bool bl =
        CanBuildBroadcastLeft(p.join_type) && can_broadcast_by_size(ls, j.left_runtime_hint, p.left_hint);
    const bool br =
        CanBuildBroadcastRight(p.join_type) && can_broadcast_by_size(rs, j.right_runtime_hint, p.right_hint);
    JoinStrategy to = JoinStrategy::kSortMerge;
    BuildSide build = BuildSide::kRight;
    std::string why;
    if (bl || br) {
      to = JoinStrategy::kBroadcastHash;
      build = (bl && br) ? (ls.size_bytes < rs.size_bytes ? BuildSide::kLeft : BuildSide::kRight)
                         : (bl ? BuildSide::kLeft : BuildSide::kRight);
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
      const bool hl =
          CanBuildShuffledHashLeft(p.join_type) && shj_ok(ls, rs, j.left_runtime_hint, p.left_hint);
      const bool hr =
          CanBuildShuffledHashRight(p.join_type) && shj_ok(rs, ls, j.right_runtime_hint, p.right_hint);
      if (hl || hr) {
        to = JoinStrategy::kShuffledHash;
        build = (hl && hr) ? (ls.size_bytes < rs.size_bytes ? BuildSide::kLeft : BuildSide::kRight)
                           : (hl ? BuildSide::kLeft : BuildSide::kRight);
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
      for (auto& c : n->children) {
        if (c->is_exchange() && !HasStage(*c) && c->origin() == ShuffleOrigin::kEnsureRequirements) {
          std::unique_ptr<ExecNode> grand = std::move(c->children[0]);
          grand->parent = n;
          c = std::move(grand);
        }
      }
      RecomputeUpToExchange(n, conf);
    }
    Decision d;
    d.rule = std::string(name());
    d.message = n->id + ": " + std::string(JoinStrategyName(from)) + " → " +
                std::string(JoinStrategyName(to)) + " " + std::string(BuildSideName(build)) + " (" + why +
                ")";
    d.at_seconds = ctx.now_seconds;
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
