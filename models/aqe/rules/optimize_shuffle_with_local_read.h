// OptimizeShuffleWithLocalRead — mirrors
// sql/core/src/main/scala/org/apache/spark/sql/execution/adaptive/OptimizeShuffleWithLocalRead.scala.
// Query-stage rule (docs/aqe-behaviour.md §9): reads a broadcast build side, or a broadcast hash join's probe
// side, by mapper (local shuffle read). Reverted when an operator above needs the shuffle's partitioning.
// Switch: spark.sql.adaptive.localShuffleReader.enabled. Not applied to a broadcast hash join's probe
// side (NotApplied): localReadDisabled, probeNotLocalReadable (its origin or coalesced read),
// partitioningRequiredAbove (an operator above needs the partitioning: a shuffle would be introduced).
#ifndef AQESIM_MODELS_AQE_RULES_OPTIMIZE_SHUFFLE_WITH_LOCAL_READ_H_
#define AQESIM_MODELS_AQE_RULES_OPTIMIZE_SHUFFLE_WITH_LOCAL_READ_H_

#include "models/aqe/rule.h"

namespace aqesim {

class OptimizeShuffleWithLocalRead final : public AqeRule {
 public:
  std::string_view name() const override { return "OptimizeShuffleWithLocalRead"; }
  bool Enabled(const SqlConf& conf) const override;
  RuleOutcome Apply(const RuleContext& ctx, ExecNode* plan) const override;
  std::vector<NotApplied> WhatDisabledSkips(const RuleContext& ctx, ExecNode* plan) const override;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_OPTIMIZE_SHUFFLE_WITH_LOCAL_READ_H_
