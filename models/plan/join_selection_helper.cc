#include "models/plan/join_selection_helper.h"

#include <memory>
#include <utility>

#include "models/plan/plan_queries.h"

namespace aqesim {

ExecNode& StreamedChild(const ExecNode& join) {
  return join.child(StreamedChildIndex(*join.join->build_side));
}
ExecNode& BuildChild(const ExecNode& join) { return join.child(BuildChildIndex(*join.join->build_side)); }

bool CanBuildBroadcastLeft(JoinType t) {
  return t == JoinType::kInner || t == JoinType::kCross || t == JoinType::kRightOuter;
}
bool CanBuildBroadcastRight(JoinType t) {
  return t == JoinType::kInner || t == JoinType::kCross || t == JoinType::kLeftOuter ||
         t == JoinType::kLeftSemi || t == JoinType::kLeftAnti;
}
bool CanBuildShuffledHashLeft(JoinType t) {
  return t == JoinType::kInner || t == JoinType::kCross || t == JoinType::kLeftOuter ||
         t == JoinType::kRightOuter || t == JoinType::kFullOuter;
}
bool CanBuildShuffledHashRight(JoinType) { return true; }

bool CanBroadcastBySize(int64_t size_bytes, int64_t threshold_bytes) {
  return size_bytes >= 0 && size_bytes <= threshold_bytes;
}

std::optional<BuildSide> ChooseBuildSide(bool left_may_build, bool right_may_build, int64_t left_bytes,
                                         int64_t right_bytes) {
  if (left_may_build && right_may_build)
    return left_bytes < right_bytes ? BuildSide::kLeft : BuildSide::kRight;
  if (left_may_build) return BuildSide::kLeft;
  if (right_may_build) return BuildSide::kRight;
  return std::nullopt;
}

BuildSide DefaultBroadcastBuildSide(JoinType t) {
  return CanBuildBroadcastRight(t) ? BuildSide::kRight : BuildSide::kLeft;
}

void DropCoPartitioningShuffles(ExecNode* join) {
  for (auto& c : join->children) {
    if (c->is_exchange() && !HasStage(*c) && c->origin() == ShuffleOrigin::kEnsureRequirements) {
      std::unique_ptr<ExecNode> grand = std::move(c->children[0]);
      grand->parent = join;
      c = std::move(grand);
    }
  }
}

}  // namespace aqesim
