#include "models/aqe/aqe_optimizer.h"

#include <algorithm>
#include <functional>
#include <tuple>

#include "models/aqe/rules/coalesce_shuffle_partitions.h"
#include "models/aqe/rules/dynamic_join_selection.h"
#include "models/aqe/rules/join_selection.h"
#include "models/aqe/rules/optimize_shuffle_with_local_read.h"
#include "models/aqe/rules/optimize_skew_in_rebalance_partitions.h"
#include "models/aqe/rules/optimize_skewed_join.h"
#include "models/aqe/rules/skew_join_why_not.h"
#include "models/conf/did_you_mean.h"

namespace aqesim {

const std::vector<std::string>& AqeOptimizerRuleNames() {
  // AQEOptimizer's batches (docs/aqe-behaviour.md §8.1), by the names excludedRules matches on.
  static const std::vector<std::string> names = {
      "org.apache.spark.sql.execution.adaptive.AQEPropagateEmptyRelation",
      "org.apache.spark.sql.catalyst.optimizer.ConvertToLocalRelation",
      "org.apache.spark.sql.catalyst.optimizer.UpdateAttributeNullability",
      "org.apache.spark.sql.execution.adaptive.DynamicJoinSelection",
      "org.apache.spark.sql.catalyst.optimizer.EliminateLimits",
      "org.apache.spark.sql.catalyst.optimizer.OptimizeOneRowPlan",
  };
  return names;
}

std::vector<std::string> CheckExcludedRules(const SqlConf& conf) {
  static const std::vector<std::pair<std::string, std::string>> kPhysical = {
      {"CoalesceShufflePartitions", "spark.sql.adaptive.coalescePartitions.enabled"},
      {"OptimizeSkewedJoin", "spark.sql.adaptive.skewJoin.enabled"},
      {"OptimizeShuffleWithLocalRead", "spark.sql.adaptive.localShuffleReader.enabled"},
      {"OptimizeSkewInRebalancePartitions", "spark.sql.adaptive.optimizeSkewsInRebalancePartitions.enabled"},
  };
  std::vector<std::string> simple;
  for (const std::string& n : AqeOptimizerRuleNames()) simple.push_back(n.substr(n.rfind('.') + 1));
  std::vector<std::string> out;
  for (const std::string& e : conf.optimizer_excluded_rules) {
    const std::string short_name = e.substr(e.rfind('.') == std::string::npos ? 0 : e.rfind('.') + 1);
    if (std::find(simple.begin(), simple.end(), short_name) != simple.end()) continue;
    bool physical = false;
    for (const auto& [rule, key] : kPhysical) {
      if (short_name == rule) {
        out.push_back("spark.sql.adaptive.optimizer.excludedRules: " + e +
                      " is not an adaptive optimizer rule and is not excluded; set " + key +
                      "=false to disable it");
        physical = true;
      }
    }
    if (!physical) {
      out.push_back("spark.sql.adaptive.optimizer.excludedRules: unknown rule " + e +
                    DidYouMeanSuffix(short_name, simple));
    }
  }
  return out;
}

namespace {

bool Excluded(const SqlConf& conf, std::string_view rule) {
  for (const std::string& e : conf.optimizer_excluded_rules) {
    if (e == rule) return true;
    // Spark matches the fully qualified rule name; accept the simple name too.
    const size_t dot = e.rfind('.');
    if (dot != std::string::npos && e.substr(dot + 1) == rule) return true;
  }
  return false;
}

/// Only AQEOptimizer's logical rules can be excluded (the physical rules have their own
/// enable switches).
bool IsLogicalOptimizerRule(std::string_view rule) { return rule == "DynamicJoinSelection"; }

std::vector<Decision> RunRule(const AqeRule& rule, const RuleContext& ctx, ExecNode* plan, bool* changed,
                              std::vector<NotApplied>* not_applied) {
  if (!rule.Enabled(ctx.conf)) {
    if (not_applied)
      for (NotApplied& n : rule.WhatDisabledSkips(ctx, plan)) not_applied->push_back(std::move(n));
    return {};
  }
  if (IsLogicalOptimizerRule(rule.name()) && Excluded(ctx.conf, rule.name())) return {};
  RuleOutcome out = rule.Apply(ctx, plan);
  if (changed) *changed |= out.changed;
  if (not_applied)
    for (NotApplied& n : out.not_applied) not_applied->push_back(std::move(n));
  return std::move(out.decisions);
}

}  // namespace

AqeOptimizer::AqeOptimizer() {
  // Order matters (see header).
  query_stage_rules_.push_back(std::make_unique<OptimizeSkewInRebalancePartitions>());
  query_stage_rules_.push_back(std::make_unique<CoalesceShufflePartitions>());
  query_stage_rules_.push_back(std::make_unique<OptimizeShuffleWithLocalRead>());
  // Logical (DynamicJoinSelection) before physical planning (JoinSelection); skew splitting
  // runs in the preparation rules on the new physical plan.
  reoptimization_rules_.push_back(std::make_unique<DynamicJoinSelection>());
  reoptimization_rules_.push_back(std::make_unique<JoinSelection>());
  reoptimization_rules_.push_back(std::make_unique<OptimizeSkewedJoin>());
}

AqeOptimizer::~AqeOptimizer() = default;

std::vector<Decision> AqeOptimizer::OptimizeQueryStage(const RuleContext& ctx, ExecNode* subtree,
                                                       std::vector<NotApplied>* not_applied) const {
  std::vector<Decision> out;
  for (const auto& rule : query_stage_rules_) {
    for (auto& d : RunRule(*rule, ctx, subtree, nullptr, not_applied)) out.push_back(std::move(d));
  }
  return out;
}

PlanCost EvaluatePlanCost(const ExecNode& plan) {
  PlanCost c;
  std::function<void(const ExecNode&)> walk = [&](const ExecNode& n) {
    if (n.is_exchange() && n.shuffle->data->stage) return;  // a query stage: a leaf
    if (n.is_exchange()) c.shuffles++;
    if (n.is_join() && n.join->is_skew_join && !n.executing_stage) c.skew_joins++;
    for (const auto& ch : n.children) walk(*ch);
  };
  walk(plan);
  return c;
}

AqeOptimizer::Reoptimized AqeOptimizer::ReOptimize(const RuleContext& ctx, const ExecNode& plan) const {
  Reoptimized out;
  std::unique_ptr<ExecNode> candidate = ClonePlan(plan);
  bool changed = false;
  std::vector<Decision> decisions;
  for (const auto& rule : reoptimization_rules_) {
    for (auto& d : RunRule(*rule, ctx, candidate.get(), &changed, &out.not_applied))
      decisions.push_back(std::move(d));
  }
  if (!changed) {
    out.decisions = std::move(decisions);  // hints and "not applied" notes
    return out;
  }
  // Cost gate (simpleCosting.scala): adopt if cheaper, or equal and different.
  const PlanCost old_cost = EvaluatePlanCost(plan), new_cost = EvaluatePlanCost(*candidate);
  bool adopt;
  if (ctx.conf.force_optimize_skewed_join) {
    adopt = std::make_tuple(-new_cost.skew_joins, new_cost.shuffles) <=
            std::make_tuple(-old_cost.skew_joins, old_cost.shuffles);
  } else {
    adopt = new_cost.shuffles <= old_cost.shuffles;
  }
  if (!adopt) {
    Decision d;
    d.rule = "CostEvaluator";
    d.message = "re-optimized plan rejected: " + std::to_string(new_cost.shuffles) + " shuffles vs " +
                std::to_string(old_cost.shuffles);
    d.at = ctx.now;
    out.decisions.push_back(std::move(d));
    return out;
  }
  out.plan = std::move(candidate);
  out.decisions = std::move(decisions);
  return out;
}

std::vector<NotApplied> AqeOptimizer::FinalStageSkewWhyNot(const RuleContext& ctx, ExecNode* plan) const {
  return SkewedAggregateInputs(ctx, plan, SkewParamsOf(ctx.conf));
}

}  // namespace aqesim
