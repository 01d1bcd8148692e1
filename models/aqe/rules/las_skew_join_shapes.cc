#include "models/aqe/rules/las_skew_join_shapes.h"

#include <functional>
#include <string>

#include "models/aqe/rules/las_multiple_skewed_joins_in_stage.h"
#include "models/aqe/rules/las_skew_join_view.h"
#include "models/shuffle/las_skew_split_sides.h"

namespace aqesim {
namespace {

/// Pre-order over the shuffled joins of `n`; `take` returning true skips the join's subtree.
void WalkJoins(ExecNode* n, const std::function<bool(ExecNode*)>& take) {
  if (IsShuffledJoin(*n) && take(n)) return;
  for (auto& c : n->children) WalkJoins(c.get(), take);
}

std::string Join(const std::vector<std::string>& v, const char* sep = ", ") {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

/// What Spark's rule does with the unit: its top is not a candidate (a side is not a shuffle
/// stage), and a nested join it splits is withdrawn by the extra-shuffle check.
std::string SparkNote(const SkewJoinUnit& u, const RuleContext& ctx, const SkewJoinParams& params) {
  std::vector<std::string> parts;
  const ExecNode& top = *u.top;
  for (size_t i = 0; i < 2; ++i) {
    const ExecNode& c = top.child(i);
    if (c.is_exchange()) continue;
    parts.push_back(top.id + " is not a candidate (its " + (i == 0 ? "left" : "right") + " side is " +
                    std::string(PlanOpName(c.op)) + " " + c.id + ", not a sort over a shuffle stage)");
    break;
  }
  for (const ExecNode* j : u.joins) {
    if (j == u.top || !j->child(0).is_exchange() || !j->child(1).is_exchange()) continue;
    const VariantSkewJoinDecision d = SplitSkewedJoinWithVariants(
        j->source->join_type, *j->child(0).shuffle->data, *j->child(1).shuffle->data, params,
        ctx.conf.variants, ctx.conf.accurate_block_threshold_bytes);
    if (d.result.specs)
      parts.push_back("splitting " + j->id + " alone would need an extra shuffle, so no join is split");
  }
  return Join(parts, "; ");
}

Decision UnitDecision(const RuleContext& ctx, const SkewJoinUnit& u, const SkewSplitSidesResult& res,
                      const SkewJoinParams& params) {
  std::vector<std::string> split, whole, stats, join_ids;
  nlohmann::json splits = nlohmann::json::array(), replicated = nlohmann::json::array();
  for (size_t i = 0; i < u.inputs.size(); ++i) {
    const SkewJoinUnitInput& in = u.inputs[i];
    const SkewSplitSidesResult::Side& s = res.sides[i];
    if (s.splits.empty()) {
      whole.push_back(in.exchange->id + (in.agg_or_window
                                             ? " under " + std::string(PlanOpName(in.agg_or_window->op)) +
                                                   " " + in.agg_or_window->id
                                             : std::string()));
      replicated.push_back(in.exchange->id);
      continue;
    }
    std::vector<std::string> pieces;
    for (const auto& x : s.splits) {
      pieces.push_back(std::to_string(x.reducer) + "→" + std::to_string(x.num_pieces));
      splits.push_back({{"exchange", in.exchange->id}, {"reducer", x.reducer}, {"pieces", x.num_pieces}});
    }
    split.push_back(in.exchange->id + " " + Join(pieces));
    stats.push_back(in.exchange->id + " threshold " + FormatBytes(s.stats.threshold) + ", target " +
                    FormatBytes(s.stats.target));
  }
  for (const ExecNode* j : u.joins) join_ids.push_back(j->id);
  Decision d;
  d.rule = "OptimizeSkewedJoin";
  d.message = u.top->id + ": split " + Join(split, "; ") +
              (u.joins.size() > 1 ? " across joins " + Join(join_ids) : std::string()) + " (" + Join(whole) +
              " read whole by every piece), " + std::to_string(res.num_tasks()) + " tasks (" +
              Join(stats, "; ") + ") — variant " + Join(u.variants) +
              " changed this decision (Spark: " + SparkNote(u, ctx, params) + ")";
  d.at = ctx.now;
  const int reducers = u.inputs[0].exchange->shuffle->data->num_reducers;
  d.fields = {{"join", u.top->id},        {"joins", join_ids},        {"splits", splits},
              {"replicated", replicated}, {"tasks", res.num_tasks()}, {"variants", u.variants},
              {"sparkTasks", reducers}};
  return d;
}

}  // namespace

bool SkewShapeVariantsOn(const VariantSwitches& v) {
  return v.las_skew_join_agg_window_sides || v.las_multiple_skewed_joins_in_stage;
}

PreviousUnitSplits UndoSkewJoinUnits(ExecNode* plan, const VariantSwitches& variants) {
  PreviousUnitSplits out;
  if (!SkewShapeVariantsOn(variants)) return out;
  WalkJoins(plan, [&](ExecNode* n) {
    if (!n->join->is_skew_join || n->executing_stage) return false;
    const std::optional<SkewJoinUnit> u = CollectSkewJoinUnit(n, variants, /*allow_read_specs=*/true);
    if (!u || u->variants.empty()) return false;
    std::vector<std::vector<ShufflePartitionSpec>> specs;
    for (const SkewJoinUnitInput& in : u->inputs) {
      specs.push_back(in.exchange->shuffle->ReadSpecsOrDefault());
      in.exchange->shuffle->read_specs.reset();
    }
    for (ExecNode* j : u->joins) j->join->is_skew_join = false;
    out[n] = std::move(specs);
    return true;
  });
  return out;
}

SkewJoinUnitsOutcome SplitSkewJoinUnits(const RuleContext& ctx, ExecNode* plan, const SkewJoinParams& params,
                                        PreviousUnitSplits* previous) {
  SkewJoinUnitsOutcome out;
  const VariantSwitches& v = ctx.conf.variants;
  if (!SkewShapeVariantsOn(v)) return out;
  WalkJoins(plan, [&](ExecNode* n) {
    if (n->join->is_skew_join) return false;
    const std::optional<SkewJoinUnit> u = CollectSkewJoinUnit(n, v);
    if (!u || u->variants.empty()) return false;
    std::vector<SkewSplitSide> sides;
    for (const SkewJoinUnitInput& in : u->inputs) {
      const ShuffleData& d = *in.exchange->shuffle->data;
      sides.push_back({in.exchange->id, SkewDecisionBytes(d, v),
                       SkewDecisionMapSizes(d, v, ctx.conf.accurate_block_threshold_bytes), in.splittable});
    }
    const SkewSplitSidesResult res = SplitSkewedSides(sides, params);
    if (!res.split()) return false;  // left to Spark's loop (and smaller units below)
    for (size_t i = 0; i < u->inputs.size(); ++i) u->inputs[i].exchange->shuffle->read_specs = res.specs[i];
    for (ExecNode* j : u->joins) {
      j->join->is_skew_join = true;
      out.handled.insert(j);
    }
    out.split_tops.push_back(n);
    auto prev = previous->find(n);
    const bool same = prev != previous->end() && prev->second == res.specs;
    if (prev != previous->end()) previous->erase(prev);
    if (!same) {
      out.differs = true;
      out.decisions.push_back(UnitDecision(ctx, *u, res, params));
    }
    return true;
  });
  return out;
}

void WithdrawSkewJoinUnit(ExecNode* top, const VariantSwitches& variants) {
  const std::optional<SkewJoinUnit> u = CollectSkewJoinUnit(top, variants, /*allow_read_specs=*/true);
  if (!u) return;
  for (const SkewJoinUnitInput& in : u->inputs) in.exchange->shuffle->read_specs.reset();
  for (ExecNode* j : u->joins) j->join->is_skew_join = false;
}

}  // namespace aqesim
