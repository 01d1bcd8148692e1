// OptimizeSkewedJoin — mirrors
// sql/core/src/main/scala/org/apache/spark/sql/execution/adaptive/OptimizeSkewedJoin.scala. Re-optimization
// rule (docs/aqe-behaviour.md §6): splits skewed partitions of sort-merge and shuffled hash joins whose
// inputs are materialized; all-or-nothing when a split would need an extra shuffle (forceOptimizeSkewedJoin
// adds it). Switch: spark.sql.adaptive.skewJoin.enabled. Why a join was not split, and skewed inputs of
// aggregates, which the rule never splits: skew_join_why_not.h.
#ifndef AQESIM_MODELS_AQE_RULES_OPTIMIZE_SKEWED_JOIN_H_
#define AQESIM_MODELS_AQE_RULES_OPTIMIZE_SKEWED_JOIN_H_

#include "models/aqe/rule.h"

namespace aqesim {

class OptimizeSkewedJoin final : public AqeRule {
 public:
  std::string_view name() const override { return "OptimizeSkewedJoin"; }
  bool Enabled(const SqlConf& conf) const override;
  RuleOutcome Apply(const RuleContext& ctx, ExecNode* plan) const override;
  std::vector<NotApplied> WhatDisabledSkips(const RuleContext& ctx, ExecNode* plan) const override;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_OPTIMIZE_SKEWED_JOIN_H_
