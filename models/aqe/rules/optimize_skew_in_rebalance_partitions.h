// OptimizeSkewInRebalancePartitions — mirrors
// sql/core/src/main/scala/org/apache/spark/sql/execution/adaptive/OptimizeSkewInRebalancePartitions.scala.
// Query-stage rule (docs/aqe-behaviour.md §7): splits every REBALANCE partition larger than the advisory size
// by mapper ranges. Switch: spark.sql.adaptive.optimizeSkewsInRebalancePartitions.enabled.
// Why not (NotApplied, docs/aqe-behaviour.md §16), per REBALANCE read: rebalanceSkewDisabled
// (the switch is off: what it would split), belowAdvisorySize (no partition above the advisory
// size: the largest), singleMapPartition (partitions above it, none whose map outputs split).
#ifndef AQESIM_MODELS_AQE_RULES_OPTIMIZE_SKEW_IN_REBALANCE_PARTITIONS_H_
#define AQESIM_MODELS_AQE_RULES_OPTIMIZE_SKEW_IN_REBALANCE_PARTITIONS_H_

#include "models/aqe/rule.h"

namespace aqesim {

class OptimizeSkewInRebalancePartitions final : public AqeRule {
 public:
  std::string_view name() const override { return "OptimizeSkewInRebalancePartitions"; }
  bool Enabled(const SqlConf& conf) const override;
  RuleOutcome Apply(const RuleContext& ctx, ExecNode* plan) const override;
  /// rebalanceSkewDisabled entries: the reads it would have split.
  std::vector<NotApplied> WhatDisabledSkips(const RuleContext& ctx, ExecNode* plan) const override;

 private:
  RuleOutcome Run(const RuleContext& ctx, ExecNode* plan) const;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_OPTIMIZE_SKEW_IN_REBALANCE_PARTITIONS_H_
