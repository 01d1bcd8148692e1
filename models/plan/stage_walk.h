// Walks over one query stage's operators — the ONE place that knows where a stage ends: at
// an exchange (a read: the stage below wrote it) and at a broadcast join's build side (another
// stage broadcasts it). Stage creation, the rules, the work model, locality and the results
// all walk a stage through these.
#ifndef AQESIM_MODELS_PLAN_STAGE_WALK_H_
#define AQESIM_MODELS_PLAN_STAGE_WALK_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/plan/exec_node.h"

namespace aqesim {

/// Visits the operators of the stage whose subtree is `root`, pre-order, left to right:
/// exchanges are visited but not entered (they are the stage's reads), and a broadcast join's
/// build side is skipped (only its streamed child is entered).
void VisitStageOperators(ExecNode* root, const std::function<void(ExecNode*)>& visit);
void VisitStageOperators(const ExecNode* root, const std::function<void(const ExecNode*)>& visit);

/// The exchange reads of a stage, left to right.
std::vector<ExecNode*> StageReads(ExecNode* root);
/// True when a stage's tasks read a shuffle.
bool StageReadsShuffle(const ExecNode& root);

/// How many tasks the stage rooted at `n` runs: a read's specs (one per reducer by default),
/// a scan's splits, the sum over a union's children, a broadcast join's streamed side, the
/// product of a cartesian product's sides, otherwise the (first) child's.
int StageTaskCount(const ExecNode& n);

/// Which task of which child task `task` of a union runs, and the union's output partitions
/// before that child's (a union's partitions are its children's, concatenated); nullopt when
/// `task` is beyond the union's tasks.
struct UnionTask {
  size_t child = 0;
  int task = 0;
  int partition_offset = 0;
};
std::optional<UnionTask> UnionTaskOf(const ExecNode& union_node, int task);
/// The (left task, right task) pair task `task` of a cartesian product combines.
std::pair<int, int> CartesianTaskOf(const ExecNode& join, int task);

/// The stage's operators, top-down, with ids: "HashAggregate agg(SortMergeJoin j1(read e1,
/// read e2))"; a broadcast build side shows as "broadcast".
std::string DescribeStageOperators(const ExecNode& root);
/// The same without ids — the stage's generated code: "aggregate(SortMergeJoin(read, read))".
/// Two stages with the same key run the same code, which an executor compiles and loads once.
std::string StageCodeKey(const ExecNode& root);

}  // namespace aqesim

#endif  // AQESIM_MODELS_PLAN_STAGE_WALK_H_
