// CoalesceShufflePartitions — mirrors
// sql/core/src/main/scala/org/apache/spark/sql/execution/adaptive/CoalesceShufflePartitions.scala.
// Query-stage rule (docs/aqe-behaviour.md §5): coalesces the reads of each coalesce group of a new stage to
// the group target size; keeps skew specs (coalesceWithSkew). Switch:
// spark.sql.adaptive.coalescePartitions.enabled.
#ifndef AQESIM_MODELS_AQE_RULES_COALESCE_SHUFFLE_PARTITIONS_H_
#define AQESIM_MODELS_AQE_RULES_COALESCE_SHUFFLE_PARTITIONS_H_

#include "models/aqe/rule.h"

namespace aqesim {

class CoalesceShufflePartitions final : public AqeRule {
 public:
  std::string_view name() const override { return "CoalesceShufflePartitions"; }
  bool Enabled(const SqlConf& conf) const override;
  RuleOutcome Apply(const RuleContext& ctx, ExecNode* plan) const override;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULES_COALESCE_SHUFFLE_PARTITIONS_H_
