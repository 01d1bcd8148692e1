#include "models/aqe/rules/optimize_skewed_join.h"

#include <functional>
#include <map>
#include <set>
#include <string>

#include "models/aqe/rules/las_skew_join_shapes.h"
#include "models/aqe/rules/las_skew_join_view.h"
#include "models/aqe/rules/las_skew_joins_under_union.h"
#include "models/aqe/rules/skew_join_why_not.h"
#include "models/plan/plan_queries.h"
#include "models/plan/planned_properties.h"
#include "models/plan/stage_walk.h"
#include "models/shuffle/skew_join_split.h"

namespace aqesim {

namespace {

bool IsCandidate(const ExecNode& n) {
  if (!n.is_join() || n.executing_stage || n.join->is_skew_join) return false;
  if (n.join->strategy != JoinStrategy::kSortMerge && n.join->strategy != JoinStrategy::kShuffledHash)
    return false;
  for (const auto& c : n.children) {
    if (!IsMaterializedShuffle(*c) || c->origin() != ShuffleOrigin::kEnsureRequirements ||
        c->shuffle->read_specs)
      return false;
  }
  return true;
}

void PostOrder(ExecNode* n, const std::function<void(ExecNode*)>& f) {
  for (auto& c : n->children) PostOrder(c.get(), f);
  f(n);
}

/// Inserts the shuffle EnsureRequirements adds above a split join (forceOptimizeSkewedJoin):
/// its rows are the join's planned partitions, each spreading that partition's estimated
/// output evenly over the new reducers.
void InsertShuffleAbove(ExecNode* join, const SqlConf& conf) {
  ExecNode* parent = join->parent;
  auto ex = std::make_unique<ExecNode>();
  ex->op = PlanOp::kExchange;
  ex->id = join->id + "-skew-shuffle";
  ex->parent = parent;
  ex->shuffle = std::make_unique<ShuffleState>();
  ex->shuffle->inserted = true;
  ShuffleData& d = *ex->shuffle->data;
  d.num_reducers = conf.InitialShufflePartitions();
  const int rows = join->planned_partitions;
  const double sel = join->source ? join->source->selectivity : 1.0;
  std::vector<int64_t> out(rows, 0);
  for (ExecNode* c : StageReads(join)) {  // the join's two shuffles, or a unit's inputs
    const std::vector<int64_t> cols = c->shuffle->data->actual.PartitionBytes();
    for (int p = 0; p < rows && p < static_cast<int>(cols.size()); ++p)
      out[p] += static_cast<int64_t>(static_cast<double>(cols[p]) * sel);
  }
  d.planned = SizeMatrix(rows, d.num_reducers);
  for (int p = 0; p < rows; ++p) {
    auto row = d.planned.mutable_row(p);
    const int64_t base = out[p] / d.num_reducers, extra = out[p] % d.num_reducers;
    for (int r = 0; r < d.num_reducers; ++r) row[r] = base + (r < extra ? 1 : 0);
  }
  d.data_size_bytes = d.planned.TotalBytes();
  d.data_size_estimated = true;
  // Splice: parent -> ex -> join.
  for (auto& slot : parent->children) {
    if (slot.get() == join) {
      std::unique_ptr<ExecNode> j = std::move(slot);
      j->parent = ex.get();
      ex->children.push_back(std::move(j));
      slot = std::move(ex);
      ComputePlannedProperties(slot.get(), conf);
      break;
    }
  }
}

}  // namespace

bool OptimizeSkewedJoin::Enabled(const SqlConf& conf) const { return conf.skew_join_enabled; }

std::vector<NotApplied> OptimizeSkewedJoin::WhatDisabledSkips(const RuleContext& ctx, ExecNode* plan) const {
  const SkewJoinParams params = SkewParamsOf(ctx.conf);
  std::vector<NotApplied> out = SkewedAggregateInputs(ctx, plan, params);
  PostOrder(plan, [&](ExecNode* n) {
    if (!IsCandidate(*n)) return;
    const SkewJoinSplitResult res =
        SplitSkewedJoin(n->source->join_type, *n->child(0).shuffle->data->reported,
                        *n->child(1).shuffle->data->reported, params);
    if (!res.specs) return;
    NotApplied e;
    e.rule = std::string(name());
    e.target = n->id;
    e.reason = "skewJoinDisabled";
    e.message = n->id + ": spark.sql.adaptive.skewJoin.enabled=false: would split " +
                std::to_string(res.meta.num_skewed_left) + " left / " +
                std::to_string(res.meta.num_skewed_right) + " right skewed partitions into " +
                std::to_string(res.specs->left.size()) + " tasks";
    e.at = ctx.now;
    e.numbers = {{"numSkewedLeft", res.meta.num_skewed_left},
                 {"numSkewedRight", res.meta.num_skewed_right},
                 {"tasks", res.specs->left.size()}};
    out.push_back(std::move(e));
  });
  return out;
}

RuleOutcome OptimizeSkewedJoin::Apply(const RuleContext& ctx, ExecNode* plan) const {
  RuleOutcome outcome;
  const SkewJoinParams params = SkewParamsOf(ctx.conf);
  outcome.not_applied = SkewedAggregateInputs(ctx, plan, params);

  // Spark re-plans from the logical plan at every re-optimization, so a split decided earlier
  // for a join whose stage is not created yet is decided again, over the whole current plan
  // (the all-or-nothing check below may now reject it). Undo such splits first; remember them
  // so that re-deciding the same split is not reported as a change.
  // Unit splits of the ByteDance LAS shape variants first (las_skew_join_shapes.h).
  PreviousUnitSplits previous_units = UndoSkewJoinUnits(plan, ctx.conf.variants);
  struct PreviousSplit {
    std::vector<ShufflePartitionSpec> left, right;
  };
  std::map<const ExecNode*, PreviousSplit> previous;
  PostOrder(plan, [&](ExecNode* n) {
    if (!n->is_join() || n->executing_stage || !n->join->is_skew_join || n->children.size() != 2) return;
    ShuffleState* ls = n->child(0).shuffle.get();
    ShuffleState* rs = n->child(1).shuffle.get();
    if (!ls || !rs || !ls->read_specs || !rs->read_specs) return;
    previous[n] = {*ls->read_specs, *rs->read_specs};
    ls->read_specs.reset();
    rs->read_specs.reset();
    n->join->is_skew_join = false;
  });
  const bool input_had_splits = !previous.empty() || !previous_units.empty();

  SkewJoinUnitsOutcome units = SplitSkewJoinUnits(ctx, plan, params, &previous_units);
  std::vector<ExecNode*> rewritten = units.split_tops;
  std::vector<Decision> decisions = std::move(units.decisions);
  bool differs = units.differs;  // the rewritten plan differs from the plan handed in
  const std::set<const ExecNode*> unit_tops(units.split_tops.begin(), units.split_tops.end());
  PostOrder(plan, [&](ExecNode* n) {
    if (!IsCandidate(*n) || units.handled.count(n)) return;
    ExecNode& l = n->child(0);
    ExecNode& r = n->child(1);
    // Spark's decision, or the named variants' (las_skew_join_view.h) when some are on.
    const VariantSkewJoinDecision vd =
        SplitSkewedJoinWithVariants(n->source->join_type, *l.shuffle->data, *r.shuffle->data, params,
                                    ctx.conf.variants, ctx.conf.accurate_block_threshold_bytes);
    const SkewJoinSplitResult& res = vd.result;
    const std::string variant_note = VariantChangeNote(vd);
    if (!res.specs) {
      outcome.not_applied.push_back(SkewJoinWhyNot(ctx, *n, res, params));
      if (!variant_note.empty()) {
        Decision d;
        d.rule = std::string(name());
        d.message = n->id + ": not split (" + res.reason + ")" + variant_note;
        d.at = ctx.now;
        d.fields = {{"join", n->id}, {"applied", false}, {"variants", vd.changed_by}};
        decisions.push_back(std::move(d));
      }
      return;
    }
    l.shuffle->read_specs = res.specs->left;
    r.shuffle->read_specs = res.specs->right;
    n->join->is_skew_join = true;
    rewritten.push_back(n);
    auto prev = previous.find(n);
    if (prev != previous.end() && prev->second.left == res.specs->left &&
        prev->second.right == res.specs->right) {
      previous.erase(prev);  // the same split again: nothing new to report
      return;
    }
    if (prev != previous.end()) previous.erase(prev);
    differs = true;
    const SkewJoinMeta& m = res.meta;
    Decision d;
    d.rule = std::string(name());
    auto pieces = [](const std::vector<SkewJoinMeta::SplitReducer>& v) {
      std::string s;
      for (auto& x : v)
        s += (s.empty() ? "" : ", ") + std::to_string(x.reducer) + "→" + std::to_string(x.num_pieces);
      return s;
    };
    // "(left 0→11; right 3→2)", naming only the sides that were split.
    std::string which;
    if (!m.left_splits.empty()) which = "left " + pieces(m.left_splits);
    if (!m.right_splits.empty())
      which += (which.empty() ? "" : "; ") + std::string("right ") + pieces(m.right_splits);
    d.message = n->id + ": split " + std::to_string(m.num_skewed_left) + " left / " +
                std::to_string(m.num_skewed_right) + " right skewed partitions (" + which + "), " +
                std::to_string(res.specs->left.size()) + " tasks (left threshold " +
                FormatBytes(m.left_skew_threshold_bytes) + ", target " +
                FormatBytes(m.left_target_size_bytes) + "; right threshold " +
                FormatBytes(m.right_skew_threshold_bytes) + ", target " +
                FormatBytes(m.right_target_size_bytes) + ")" + variant_note;
    d.at = ctx.now;
    nlohmann::json ls = nlohmann::json::array(), rs = nlohmann::json::array();
    for (auto& x : m.left_splits) ls.push_back({{"reducer", x.reducer}, {"pieces", x.num_pieces}});
    for (auto& x : m.right_splits) rs.push_back({{"reducer", x.reducer}, {"pieces", x.num_pieces}});
    d.fields = {{"join", n->id},
                {"numSkewedLeft", m.num_skewed_left},
                {"numSkewedRight", m.num_skewed_right},
                {"leftSplits", ls},
                {"rightSplits", rs},
                {"leftMedianBytes", m.left_median_bytes},
                {"rightMedianBytes", m.right_median_bytes},
                {"leftSkewThresholdBytes", m.left_skew_threshold_bytes},
                {"rightSkewThresholdBytes", m.right_skew_threshold_bytes},
                {"leftTargetSizeBytes", m.left_target_size_bytes},
                {"rightTargetSizeBytes", m.right_target_size_bytes},
                {"tasks", res.specs->left.size()}};
    if (!vd.changed_by.empty()) {
      d.fields["variants"] = vd.changed_by;
      d.fields["sparkTasks"] =
          vd.spark->specs ? nlohmann::json(vd.spark->specs->left.size()) : nlohmann::json();
    }
    decisions.push_back(std::move(d));
  });
  // A split undone above and not decided again: the plan lost a skew join.
  if (!previous.empty() || !previous_units.empty()) differs = true;
  if (rewritten.empty()) {
    outcome.changed = differs;
    return outcome;
  }

  // Extra-shuffle check over the whole plan: skew-split reads have unknown partitioning.
  std::vector<ExecNode*> broken;
  for (ExecNode* j : rewritten)
    if (PartitioningRequiredAbove(*j)) broken.push_back(j);
  if (!broken.empty()) {
    if (!ctx.conf.force_optimize_skewed_join) {
      std::string ids;
      for (ExecNode* j : broken) ids += (ids.empty() ? "" : ",") + j->id;
      // Spark withdraws every split; las.skewJoinsUnderUnion only those of the broken joins'
      // union branches (las_skew_joins_under_union.h).
      const bool per_branch = ctx.conf.variants.las_skew_joins_under_union;
      const std::vector<ExecNode*> withdrawn =
          per_branch ? WithdrawnWithUnionBranches(rewritten, broken) : rewritten;
      std::set<std::string> withdrawn_ids;
      for (ExecNode* j : withdrawn) {
        withdrawn_ids.insert(j->id);
        if (unit_tops.count(j)) {
          WithdrawSkewJoinUnit(j, ctx.conf.variants);
        } else {
          j->child(0).shuffle->read_specs.reset();
          j->child(1).shuffle->read_specs.reset();
          j->join->is_skew_join = false;
        }
        NotApplied e;
        e.rule = std::string(name());
        e.target = j->id;
        e.reason = "needsExtraShuffle";
        e.message = j->id + ": splitting " + ids +
                    " would need an extra shuffle (an operator above needs the join's hash partitioning) and "
                    "spark.sql.adaptive.forceOptimizeSkewedJoin is false";
        e.at = ctx.now;
        e.numbers = {{"needsExtraShuffle", ids}};
        outcome.not_applied.push_back(std::move(e));
      }
      Decision d;
      d.rule = std::string(name());
      d.at = ctx.now;
      if (withdrawn.size() == rewritten.size()) {
        d.message =
            "not applied to any join: splitting " + ids +
            " would need an extra shuffle (set spark.sql.adaptive.forceOptimizeSkewedJoin=true to accept it)";
        d.fields = {
            {"applied", false}, {"joins", std::to_string(rewritten.size())}, {"needsExtraShuffle", ids}};
        outcome.decisions.push_back(std::move(d));
        // Splits decided at an earlier re-optimization are withdrawn: the plan changed.
        outcome.changed = input_had_splits;
        return outcome;
      }
      std::string kept;
      for (ExecNode* j : rewritten)
        if (!withdrawn_ids.count(j->id)) kept += (kept.empty() ? "" : ",") + j->id;
      d.message = "not applied to " + std::to_string(withdrawn.size()) + " of " +
                  std::to_string(rewritten.size()) + " joins: splitting " + ids +
                  " would need an extra shuffle; the other union branches keep theirs (" + kept +
                  ") — variant las.skewJoinsUnderUnion changed this decision (Spark: no join split)";
      d.fields = {{"applied", false},
                  {"joins", std::to_string(rewritten.size())},
                  {"needsExtraShuffle", ids},
                  {"kept", kept},
                  {"variants", nlohmann::json::array({"las.skewJoinsUnderUnion"})}};
      std::erase_if(decisions, [&](const Decision& x) {
        return x.fields.contains("join") && withdrawn_ids.count(x.fields.at("join").get<std::string>());
      });
      decisions.insert(decisions.begin(), std::move(d));
      for (auto& x : decisions) outcome.decisions.push_back(std::move(x));
      outcome.changed = input_had_splits || differs;
      return outcome;
    }
    for (ExecNode* j : broken) {
      InsertShuffleAbove(j, ctx.conf);
      Decision d;
      d.rule = std::string(name());
      d.message = j->id + ": extra shuffle " + j->parent->id +
                  " added above the split join (forceOptimizeSkewedJoin)";
      d.at = ctx.now;
      d.fields = {{"join", j->id}, {"extraShuffle", j->parent->id}};
      decisions.push_back(std::move(d));
    }
  }
  // Re-deciding the very same splits leaves the plan as it was (no change to adopt).
  outcome.changed = differs || !broken.empty();
  for (auto& d : decisions) outcome.decisions.push_back(std::move(d));
  return outcome;
}

}  // namespace aqesim
