#include "models/aqe/rules/las_multiple_skewed_joins_in_stage.h"

#include "models/aqe/rules/las_skew_join_agg_window_sides.h"
#include "models/plan/plan_queries.h"
#include "models/shuffle/skew_join_split.h"

namespace aqesim {
namespace {

bool UsableInput(const ExecNode& ex, bool allow_read_specs) {
  return IsMaterializedShuffle(ex) && ex.origin() == ShuffleOrigin::kEnsureRequirements &&
         (allow_read_specs || !ex.shuffle->read_specs);
}

class Collector {
 public:
  Collector(const VariantSwitches& v, bool allow_read_specs) : v_(v), allow_(allow_read_specs) {}

  /// Adds `n`'s inputs; false when the shape is not one the enabled variants take.
  bool Add(ExecNode* n, bool splittable, bool is_top) {
    if (n->is_exchange()) {
      if (!UsableInput(*n, allow_)) return false;
      unit_.inputs.push_back({n, nullptr, splittable});
      return true;
    }
    if (IsShuffledJoin(*n) && !n->executing_stage && n->children.size() == 2) {
      if (!is_top) {
        if (!v_.las_multiple_skewed_joins_in_stage) return false;
        nested_ = true;
      }
      const JoinType type = n->source->join_type;
      if (!Add(&n->child(0), splittable && CanSplitLeftSide(type), false)) return false;
      if (!Add(&n->child(1), splittable && CanSplitRightSide(type), false)) return false;
      unit_.joins.push_back(n);
      return true;
    }
    if (ExecNode* ex = AggWindowSideExchange(*n)) {
      if (is_top || !v_.las_skew_join_agg_window_sides || !UsableInput(*ex, allow_)) return false;
      unit_.inputs.push_back({ex, n, false});
      agg_ = true;
      return true;
    }
    return false;
  }

  SkewJoinUnit Take(ExecNode* top) {
    unit_.top = top;
    if (agg_) unit_.variants.push_back("las.skewJoinAggWindowSides");
    if (nested_) unit_.variants.push_back("las.multipleSkewedJoinsInStage");
    return std::move(unit_);
  }

 private:
  const VariantSwitches& v_;
  const bool allow_;
  bool nested_ = false, agg_ = false;
  SkewJoinUnit unit_;
};

}  // namespace

bool IsShuffledJoin(const ExecNode& n) {
  return n.is_join() &&
         (n.join->strategy == JoinStrategy::kSortMerge || n.join->strategy == JoinStrategy::kShuffledHash);
}

std::optional<SkewJoinUnit> CollectSkewJoinUnit(ExecNode* top, const VariantSwitches& variants,
                                                bool allow_read_specs) {
  if (!IsShuffledJoin(*top) || top->executing_stage) return std::nullopt;
  Collector c(variants, allow_read_specs);
  if (!c.Add(top, true, true)) return std::nullopt;
  return c.Take(top);
}

}  // namespace aqesim
