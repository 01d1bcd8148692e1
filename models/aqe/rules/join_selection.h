// JoinSelection — mirrors sql/core/src/main/scala/org/apache/spark/sql/execution/SparkStrategies.scala
// (JoinSelection) and sql/catalyst/.../optimizer/joins.scala (JoinSelectionHelper). Re-planning of joins with
// runtime statistics (docs/aqe-behaviour.md §8.3–8.4): broadcast by size with the adaptive threshold on
// materialized sides, shuffled hash by hint or size, else sort-merge; a converted join loses the shuffles not
// yet started below it. Why a join stayed a shuffle join (NotApplied): joinTypeCannotBuild, mergeHint,
// broadcastDisabled, demotedByEmptyPartitions (DynamicJoinSelection), aboveBroadcastThreshold (by how much).
#ifndef AQESIM_MODELS_AQE_RULES_JOIN_SELECTION_H_
#define AQESIM_MODELS_AQE_RULES_JOIN_SELECTION_H_

#include "models/aqe/rule.h"

namespace aqesim {

class JoinSelection final : public AqeRule {
 public:
  std::string_view name() const override { return "JoinSelection"; }
  bool Enabled(const SqlConf& conf) const override;
  RuleOutcome Apply(const RuleContext& ctx, ExecNode* plan) const override;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_JOIN_SELECTION_H_
