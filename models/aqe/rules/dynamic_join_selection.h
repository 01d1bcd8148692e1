// DynamicJoinSelection — mirrors
// sql/core/src/main/scala/org/apache/spark/sql/execution/adaptive/DynamicJoinSelection.scala. AQE logical
// rule (docs/aqe-behaviour.md §8.2): hints NO_BROADCAST_HASH on a mostly-empty side, PREFER_SHUFFLE_HASH when
// every partition fits maxShuffledHashJoinLocalMapThreshold. Excludable via
// spark.sql.adaptive.optimizer.excludedRules.
#ifndef AQESIM_MODELS_AQE_RULES_DYNAMIC_JOIN_SELECTION_H_
#define AQESIM_MODELS_AQE_RULES_DYNAMIC_JOIN_SELECTION_H_

#include "models/aqe/rule.h"

namespace aqesim {

class DynamicJoinSelection final : public AqeRule {
 public:
  std::string_view name() const override { return "DynamicJoinSelection"; }
  bool Enabled(const SqlConf& conf) const override;
  RuleOutcome Apply(const RuleContext& ctx, ExecNode* plan) const override;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_DYNAMIC_JOIN_SELECTION_H_
