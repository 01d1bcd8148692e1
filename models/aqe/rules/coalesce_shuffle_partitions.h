// CoalesceShufflePartitions — mirrors
// sql/core/src/main/scala/org/apache/spark/sql/execution/adaptive/CoalesceShufflePartitions.scala.
// Query-stage rule (docs/aqe-behaviour.md §5): coalesces the reads of each coalesce group of a new stage to
// the group target size; keeps skew specs (coalesceWithSkew). Switch:
// spark.sql.adaptive.coalescePartitions.enabled. Not applied (NotApplied): coalescingDisabled (what it
// would have done), userSpecifiedPartitions (a REPARTITION_BY_NUM shuffle in the group), alreadyAtTarget
// (no two adjacent partitions fit the target), skewSplitKept (skew-split reads, nothing between the
// splits fits).
#ifndef AQESIM_MODELS_AQE_RULES_COALESCE_SHUFFLE_PARTITIONS_H_
#define AQESIM_MODELS_AQE_RULES_COALESCE_SHUFFLE_PARTITIONS_H_

#include "models/aqe/rule.h"

namespace aqesim {

class CoalesceShufflePartitions final : public AqeRule {
 public:
  std::string_view name() const override { return "CoalesceShufflePartitions"; }
  bool Enabled(const SqlConf& conf) const override;
  RuleOutcome Apply(const RuleContext& ctx, ExecNode* plan) const override;
  std::vector<NotApplied> WhatDisabledSkips(const RuleContext& ctx, ExecNode* plan) const override;

 private:
  /// The rule; `assign` false: decide only, and report coalescable groups as coalescingDisabled.
  RuleOutcome Run(const RuleContext& ctx, ExecNode* plan, bool assign) const;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_COALESCE_SHUFFLE_PARTITIONS_H_
