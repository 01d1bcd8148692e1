#include "models/engine/adaptive_planner.h"

#include <algorithm>
#include <string>
#include <utility>

#include "models/engine/map_output.h"
#include "models/plan/join_selection_helper.h"
#include "models/plan/stage_walk.h"
#include "models/shuffle/size_matrix_resample.h"
#include "sim/task_scheduler.h"

namespace aqesim {

namespace {

/// Tier of the adaptive driver step: after all task completions of the same instant
/// ("drain all other completion events already queued", AdaptiveSparkPlanExec's event loop).
constexpr int kDriverTier = TaskScheduler::kDispatchTier - 1;

}  // namespace

AdaptivePlanner::AdaptivePlanner(Simulator& sim, const SqlConf& conf,
                                 std::function<int()> default_parallelism, double replan_seconds,
                                 StageGraph* graph, RunResultBuilder* result,
                                 std::function<void(QueryStage*)> submit, int* next_stage_id, int subquery,
                                 std::string result_name)
    : sim_(sim),
      conf_(conf),
      default_parallelism_(std::move(default_parallelism)),
      replan_seconds_(replan_seconds),
      graph_(graph),
      result_(result),
      submit_(std::move(submit)),
      next_stage_id_(next_stage_id),
      subquery_(subquery),
      result_name_(std::move(result_name)) {}

void AdaptivePlanner::Start(std::unique_ptr<ExecNode> plan) {
  plans_.push_back(std::move(plan));
  sim_.ScheduleAt(sim_.Now(), kDriverTier, [this] { Step(); });
}

void AdaptivePlanner::OnStageMaterialized(double driver_seconds) {
  materialized_since_step_ = true;
  if (step_pending_) return;
  step_pending_ = true;
  sim_.ScheduleIn(SimTime::Seconds(replan_seconds_ + driver_seconds), kDriverTier, [this] {
    step_pending_ = false;
    Step();
  });
}

RuleContext AdaptivePlanner::Context(bool final_stage) const {
  RuleContext ctx{conf_};
  ctx.default_parallelism = default_parallelism_();
  ctx.is_final_stage = final_stage;
  ctx.now = sim_.Now();
  return ctx;
}

void AdaptivePlanner::OptimizeQueryStage(bool final_stage, ExecNode* subtree) {
  std::vector<NotApplied> not_applied;
  std::vector<Decision> decisions =
      optimizer_.OptimizeQueryStage(Context(final_stage), subtree, &not_applied);
  result_->AddNotApplied(std::move(not_applied));
  result_->AddDecisions(std::move(decisions));
}

void AdaptivePlanner::Step() {
  if (materialized_since_step_) {
    materialized_since_step_ = false;
    AqeOptimizer::Reoptimized re = optimizer_.ReOptimize(Context(false), *current());
    result_->AddNotApplied(std::move(re.not_applied));
    result_->AddDecisions(std::move(re.decisions));
    if (re.plan) plans_.push_back(std::move(re.plan));
  }
  std::vector<QueryStage*> created;
  const bool ready = CreateQueryStages(current(), &created);
  // Broadcast stages are submitted before shuffle stages.
  std::stable_sort(created.begin(), created.end(), [](QueryStage* a, QueryStage* b) {
    return (a->kind == StageKind::kBroadcast) > (b->kind == StageKind::kBroadcast);
  });
  for (QueryStage* st : created) {
    st->id = (*next_stage_id_)++;
    st->subquery = subquery_;
    submit_(st);
  }
  if (!ready || result_stage_) return;
  ExecNode* root = current();
  if (conf_.apply_final_stage_shuffle_optimizations) OptimizeQueryStage(true, root);
  result_->AddNotApplied(optimizer_.FinalStageSkewWhyNot(Context(true), root));
  result_stage_ = graph_->Add(StageKind::kResult, nullptr, root, result_name_);
  graph_->LinkParents(result_stage_);
  result_stage_->num_tasks = StageTaskCount(*root);
  result_stage_->id = (*next_stage_id_)++;
  result_stage_->subquery = subquery_;
  result_->RecordReads(*result_stage_);
  submit_(result_stage_);
}

bool AdaptivePlanner::CreateQueryStages(ExecNode* n, std::vector<QueryStage*>* created) {
  if (n->is_exchange()) {
    ShuffleData& d = *n->shuffle->data;
    if (d.stage) return d.stage->done;
    ExecNode* child = &n->child(0);
    if (!CreateQueryStages(child, created)) return false;
    OptimizeQueryStage(false, child);
    // A re-planned child (e.g. a join converted to broadcast) may plan another number of
    // partitions than the matrix was given for.
    if (d.planned.num_maps() != child->planned_partitions) {
      result_->AddWarning(n->id + ": rows resampled from " + std::to_string(d.planned.num_maps()) + " to " +
                          std::to_string(child->planned_partitions) + " after the plan below it changed");
      CheckMaterializable(*n, "resampling its rows",
                          std::max(d.planned.num_maps(), child->planned_partitions), d.num_reducers);
      d.planned = ResampleMaps(d.planned.ToDense(), child->planned_partitions);
    }
    // A range exchange's sampling jobs first (the map stage waits for them).
    for (QueryStage* sample : graph_->AddSampleStages(n)) created->push_back(sample);
    QueryStage* st = graph_->Add(StageKind::kShuffleMap, n, child, n->id + " map");
    graph_->LinkParents(st);
    st->num_tasks = StageTaskCount(*child);
    result_->RecordReads(*st);
    created->push_back(st);
    return false;
  }
  if (n->is_broadcast_join()) {
    // Children in plan order, as Spark's createQueryStages maps over them; the build child
    // is the BroadcastExchangeExec.
    const size_t build_index = BuildChildIndex(*n->join->build_side);
    bool all = true;
    for (size_t i = 0; i < n->children.size(); ++i) {
      ExecNode* c = n->children[i].get();
      if (i != build_index) {
        all = CreateQueryStages(c, created) && all;
        continue;
      }
      if (const QueryStage* b = graph_->BroadcastStageOf(*n)) {
        all = b->done && all;
        continue;
      }
      all = false;
      if (CreateQueryStages(c, created)) {
        OptimizeQueryStage(false, c);
        QueryStage* b = graph_->Add(StageKind::kBroadcast, n, c, n->id + " broadcast");
        graph_->LinkParents(b);
        b->num_tasks = StageTaskCount(*c);
        created->push_back(b);
      }
    }
    return all;
  }
  bool all = true;
  for (auto& c : n->children) all = CreateQueryStages(c.get(), created) && all;
  return all;
}

}  // namespace aqesim
