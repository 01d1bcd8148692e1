// The AQE rule interface: one Spark rule per file under models/aqe/rules/, named after
// Spark's class (optimize_skewed_join.{h,cc} ...), all applied by the ordered pipelines in
// aqe_optimizer.h.
#ifndef AQESIM_MODELS_AQE_RULE_H_
#define AQESIM_MODELS_AQE_RULE_H_

#include <string>
#include <string_view>
#include <vector>

#include "models/aqe/decision.h"
#include "models/aqe/not_applied.h"
#include "models/conf/spark_conf.h"
#include "models/plan/exec_node.h"
#include "sim/units.h"

namespace aqesim {

struct RuleContext {
  const SqlConf& conf;
  /// SparkContext.defaultParallelism: spark.default.parallelism, else total executor cores.
  int default_parallelism = 1;
  /// True when the rule runs on the final (result) stage.
  bool is_final_stage = false;
  /// Simulated time (stamped on decisions).
  SimTime now = SimTime::Zero();
};

struct RuleOutcome {
  bool changed = false;
  /// What the rule decided, one entry per decision a user can read.
  std::vector<Decision> decisions;
  /// Why the rule left a stage, exchange or join as it was (its first early-out there).
  std::vector<NotApplied> not_applied;
};

/// A rule rewrites the plan in place. Deterministic; never throws on any plan the engine
/// builds. `plan` is the subtree the rule runs on (a new stage's subtree, the final stage, or
/// the whole plan for re-optimization rules).
class AqeRule {
 public:
  virtual ~AqeRule() = default;
  /// Spark's rule name.
  virtual std::string_view name() const = 0;
  /// The rule's enable switch (e.g. spark.sql.adaptive.skewJoin.enabled).
  virtual bool Enabled(const SqlConf& conf) const = 0;
  virtual RuleOutcome Apply(const RuleContext& ctx, ExecNode* plan) const = 0;
  /// With the rule disabled: what it would have changed on `plan` and its switch
  /// (NotApplied entries; `plan` is not modified). Default: nothing.
  virtual std::vector<NotApplied> WhatDisabledSkips(const RuleContext& /*ctx*/, ExecNode* /*plan*/) const {
    return {};
  }
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_AQE_RULE_H_
