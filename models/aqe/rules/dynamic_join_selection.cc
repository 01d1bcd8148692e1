#include "models/aqe/rules/dynamic_join_selection.h"

#include <string>

#include "models/plan/join_selection_helper.h"
#include "models/plan/plan_queries.h"

namespace aqesim {

namespace {

bool ManyEmptyPartitions(const std::vector<int64_t>& bytes, double ratio) {
  const size_t n = bytes.size();
  size_t non_zero = 0;
  for (int64_t b : bytes) non_zero += b > 0;
  return n > 0 && non_zero > 0 && static_cast<double>(non_zero) / static_cast<double>(n) < ratio;
}

bool AllPartitionsWithin(const std::vector<int64_t>& bytes, int64_t limit) {
  for (int64_t b : bytes)
    if (b > limit) return false;
  return true;
}

}  // namespace

bool DynamicJoinSelection::Enabled(const SqlConf&) const { return true; }

RuleOutcome DynamicJoinSelection::Apply(const RuleContext& ctx, ExecNode* plan) const {
  RuleOutcome outcome;
  const SqlConf& conf = ctx.conf;
  for (ExecNode* n : JoinsNotYetRunning(plan)) {
    JoinState& j = *n->join;
    const PlanNode& p = *n->source;
    const RuntimeHint old_hints[2] = {j.left_runtime_hint, j.right_runtime_hint};
    j.left_runtime_hint = RuntimeHint::kNone;
    j.right_runtime_hint = RuntimeHint::kNone;
    for (int side = 0; side < 2; ++side) {
      const ExecNode& me = n->child(side);
      const ExecNode& other = n->child(1 - side);
      const JoinHint user_hint = side == 0 ? p.left_hint : p.right_hint;
      if (user_hint != JoinHint::kNone || !IsMaterializedShuffle(me)) continue;
      const std::vector<int64_t>& bytes = me.shuffle->data->reported->BytesByPartitionId();
      const bool can_broadcast_this =
          side == 0 ? CanBuildBroadcastLeft(p.join_type) : CanBuildBroadcastRight(p.join_type);
      const bool outer_like = p.join_type == JoinType::kLeftOuter || p.join_type == JoinType::kRightOuter ||
                              p.join_type == JoinType::kLeftAnti;
      bool demote = false;
      std::string why;
      if (ManyEmptyPartitions(bytes, conf.non_empty_partition_ratio_for_broadcast_join) &&
          can_broadcast_this) {
        demote = !outer_like;
        why = "most partitions of this side are empty";
      } else if (IsMaterializedShuffle(other) &&
                 ManyEmptyPartitions(other.shuffle->data->reported->BytesByPartitionId(),
                                     conf.non_empty_partition_ratio_for_broadcast_join) &&
                 can_broadcast_this) {
        demote = outer_like;
        why = "most partitions of the other side are empty";
      }
      const bool prefer_shj =
          conf.advisory_partition_size_bytes <= conf.max_shuffled_hash_join_local_map_threshold_bytes &&
          AllPartitionsWithin(bytes, conf.max_shuffled_hash_join_local_map_threshold_bytes);
      RuntimeHint hint = RuntimeHint::kNone;
      if (demote && prefer_shj) {
        hint = RuntimeHint::kShuffleHash;
      } else if (demote) {
        hint = RuntimeHint::kNoBroadcastHash;
      } else if (prefer_shj) {
        hint = RuntimeHint::kPreferShuffleHash;
        why = "every partition fits spark.sql.adaptive.maxShuffledHashJoinLocalMapThreshold";
      }
      if (hint == RuntimeHint::kNone) continue;
      (side == 0 ? j.left_runtime_hint : j.right_runtime_hint) = hint;
      if (old_hints[side] == hint) continue;  // decided at an earlier re-optimization
      Decision d;
      d.rule = std::string(name());
      d.message = n->id + ": " + std::string(RuntimeHintName(hint)) + " on the " +
                  (side == 0 ? "left" : "right") + " side (" + me.id + "): " + why;
      d.at = ctx.now;
      d.fields = {{"join", n->id}, {"side", side == 0 ? "left" : "right"}, {"hint", RuntimeHintName(hint)}};
      outcome.decisions.push_back(std::move(d));
    }
  }
  return outcome;
}

}  // namespace aqesim
