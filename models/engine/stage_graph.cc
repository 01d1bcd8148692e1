#include "models/engine/stage_graph.h"

#include <algorithm>
#include <functional>
#include <utility>

#include "models/plan/join_selection_helper.h"
#include "models/plan/stage_walk.h"

namespace aqesim {

namespace {

void AddParent(QueryStage* st, QueryStage* p) {
  if (!p || std::find(st->parents.begin(), st->parents.end(), p) != st->parents.end()) return;
  st->parents.push_back(p);
  p->children.push_back(st);
  if (!p->done) st->parents_pending++;
}

}  // namespace

QueryStage* StageGraph::Add(StageKind kind, ExecNode* output, ExecNode* subtree, std::string name) {
  stages_.emplace_back();
  QueryStage* st = &stages_.back();
  runs_.try_emplace(st);
  st->id = static_cast<int>(stages_.size()) - 1;
  st->kind = kind;
  st->output = output;
  st->subtree = subtree;
  st->name = std::move(name);
  if (kind == StageKind::kShuffleMap) output->shuffle->data->stage = st;
  if (kind == StageKind::kBroadcast) broadcast_stage_by_join_[output->id] = st;
  return st;
}

void StageGraph::LinkParents(QueryStage* st) {
  VisitStageOperators(st->subtree, [&](ExecNode* n) {
    if (n->is_exchange()) {  // a read: the boundary of the stage
      AddParent(st, n->shuffle->data->stage);
      return;
    }
    n->executing_stage = st;
    if (n->is_broadcast_join()) AddParent(st, broadcast_stage_by_join_.at(n->id));
  });
  if (st->kind != StageKind::kShuffleMap) return;
  if (auto it = last_sample_stage_by_exchange_.find(st->output->id);
      it != last_sample_stage_by_exchange_.end())
    AddParent(st, it->second);
}

std::vector<QueryStage*> StageGraph::AddSampleStages(ExecNode* exchange) {
  const std::shared_ptr<const RangeSampling>& range = exchange->shuffle->data->range;
  if (!range || !range->has_sample_job()) return {};
  ExecNode* child = &exchange->child(0);
  QueryStage* sketch = Add(StageKind::kSample, exchange, child, exchange->id + " sample");
  LinkParents(sketch);
  sketch->num_tasks = StageTaskCount(*child);
  std::vector<QueryStage*> out = {sketch};
  if (!range->imbalanced_partitions.empty()) {
    QueryStage* resample = Add(StageKind::kSample, exchange, child, exchange->id + " sample 2");
    LinkParents(resample);
    AddParent(resample, sketch);
    resample->num_tasks = static_cast<int>(range->imbalanced_partitions.size());
    run(*resample).partitions = range->imbalanced_partitions;
    out.push_back(resample);
  }
  last_sample_stage_by_exchange_[exchange->id] = out.back();
  return out;
}

QueryStage* StageGraph::BroadcastStageOf(const ExecNode& join) const { return BroadcastStageOfJoin(join.id); }

QueryStage* StageGraph::BroadcastStageOfJoin(const std::string& join_id) const {
  auto it = broadcast_stage_by_join_.find(join_id);
  return it == broadcast_stage_by_join_.end() ? nullptr : it->second;
}

void StageGraph::CreateStaticStages(ExecNode* plan, const std::string& result_name, int subquery) {
  const size_t first = stages_.size();
  // Broadcast jobs first (BroadcastExchangeExec starts them while the query is prepared:
  // SparkPlan.prepare() prepares the children in order, then the node), then the main job;
  // stage ids in DAGScheduler creation order (parents first).
  std::function<void(ExecNode*, bool)> make = [&](ExecNode* n, bool broadcast_pass) {
    if (n->is_broadcast_join()) {
      const size_t build_index = BuildChildIndex(*n->join->build_side);
      for (size_t i = 0; i < n->children.size(); ++i) {
        ExecNode* c = n->children[i].get();
        if (i != build_index) {
          make(c, broadcast_pass);
        } else if (broadcast_pass && !BroadcastStageOf(*n)) {
          make(c, true);   // broadcasts nested in the build side first
          make(c, false);  // then the broadcast job's own map stages
          LinkParents(Add(StageKind::kBroadcast, n, c, n->id + " broadcast"));
        }
      }
      return;
    }
    for (auto& c : n->children) make(c.get(), broadcast_pass);
    if (!broadcast_pass && n->is_exchange() && !n->shuffle->data->stage) {
      AddSampleStages(n);  // a range exchange's sampling jobs run before its map stage
      LinkParents(Add(StageKind::kShuffleMap, n, &n->child(0), n->id + " map"));
    }
  };
  make(plan, true);
  make(plan, false);
  LinkParents(Add(StageKind::kResult, nullptr, plan, result_name));
  for (size_t i = first; i < stages_.size(); ++i) {
    QueryStage& st = stages_[i];
    st.subquery = subquery;
    if (st.kind != StageKind::kSample) st.num_tasks = StageTaskCount(*st.subtree);
  }
}

}  // namespace aqesim
