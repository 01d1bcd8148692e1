#include "models/aqe/rules/las_skew_join_agg_window_sides.h"

namespace aqesim {

ExecNode* AggWindowSideExchange(const ExecNode& side) {
  const bool grouped_aggregate = side.op == PlanOp::kAggregate && (!side.source || side.source->grouped);
  if ((!grouped_aggregate && side.op != PlanOp::kWindow) || side.children.size() != 1) return nullptr;
  ExecNode& child = side.child(0);
  return child.is_exchange() ? &child : nullptr;
}

}  // namespace aqesim
