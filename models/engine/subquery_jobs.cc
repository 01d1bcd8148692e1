#include "models/engine/subquery_jobs.h"

#include <algorithm>
#include <map>
#include <utility>

#include "models/plan/stage_walk.h"

namespace aqesim {

namespace {

/// The scans of the main job: the plan's operators but broadcast build sides (each a job of its
/// own), through every exchange.
void CollectMainJobScans(const ExecNode& n, std::set<std::string>* out) {
  if (n.op == PlanOp::kScan) out->insert(n.id);
  if (n.is_broadcast_join() && n.join && n.join->build_side) {
    const size_t build = *n.join->build_side == BuildSide::kLeft ? 0 : 1;
    for (size_t i = 0; i < n.children.size(); ++i)
      if (i != build) CollectMainJobScans(*n.children[i], out);
    return;
  }
  for (const auto& c : n.children) CollectMainJobScans(*c, out);
}

/// A stage of a broadcast's job: the broadcast stage, or one whose readers all are.
bool InBroadcastJob(const QueryStage& st) {
  if (st.kind == StageKind::kBroadcast) return true;
  if (st.children.empty()) return false;
  for (const QueryStage* c : st.children)
    if (!InBroadcastJob(*c)) return false;
  return true;
}

/// A broadcast join of `plan` with id `id`.
bool IsBroadcastJoin(const ExecNode& plan, const std::string& id) {
  for (const ExecNode* n : PreOrder(&plan))
    if (n->id == id) return n->is_broadcast_join();
  return false;
}

}  // namespace

SubqueryJobs::SubqueryJobs(const Scenario& s, const SqlConf& conf, const ExecNode& query_plan, Engine engine)
    : s_(s), conf_(conf), engine_(std::move(engine)) {
  for (const Subquery& q : s.subqueries) {
    Job j;
    j.spec = &q;
    if (q.plan) {
      j.planned = PlanStatically(s, *q.plan, conf);
    } else if (q.reuses_broadcast) {
      j.dropped = !IsBroadcastJoin(query_plan, *q.reuses_broadcast);
    }
    jobs_.push_back(std::move(j));
  }
  if (!conf.adaptive_enabled) CollectMainJobScans(query_plan, &main_job_scans_);
}

void SubqueryJobs::StartAll() {
  for (size_t j = 0; j < jobs_.size(); ++j)
    if (jobs_[j].spec->plan) Start(j);
}

void SubqueryJobs::Start(size_t index) {
  Job& j = jobs_[index];
  if (j.started) return;
  j.started = true;
  j.start = engine_.sim->Now();
  const std::string result_name = j.spec->id + " result";
  const int subquery = static_cast<int>(index);
  for (Decision& d : j.planned.decisions) engine_.result->AddDecisions({std::move(d)});
  for (std::string& w : j.planned.warnings) engine_.result->AddWarning(std::move(w));
  if (conf_.adaptive_enabled) {
    j.planner = std::make_unique<AdaptivePlanner>(
        *engine_.sim, conf_, engine_.default_parallelism, engine_.replan_seconds, engine_.graph,
        engine_.result, engine_.submit, engine_.next_stage_id, subquery, result_name);
    j.planner->Start(std::move(j.planned.root));
    return;
  }
  j.static_root = std::move(j.planned.root);
  const size_t first = engine_.graph->stages().size();
  engine_.graph->CreateStaticStages(j.static_root.get(), result_name, subquery);
  std::vector<QueryStage*> ready;
  for (size_t i = first; i < engine_.graph->stages().size(); ++i) {
    QueryStage& st = engine_.graph->stages()[i];
    if (st.parents_pending == 0) ready.push_back(&st);
  }
  for (QueryStage* st : ready) engine_.submit(st);
}

std::vector<size_t> SubqueryJobs::GatesOf(const QueryStage& st) const {
  std::vector<size_t> out;
  if (st.subquery >= 0 || jobs_.empty()) return out;
  std::set<std::string> stage_scans;
  const std::set<std::string>* scans = &main_job_scans_;
  if (conf_.adaptive_enabled || InBroadcastJob(st)) {
    VisitStageOperators(static_cast<const ExecNode*>(st.subtree), [&](const ExecNode* n) {
      if (n->op == PlanOp::kScan) stage_scans.insert(n->id);
    });
    scans = &stage_scans;
  }
  for (size_t j = 0; j < jobs_.size(); ++j) {
    if (jobs_[j].dropped) continue;
    for (const std::string& g : jobs_[j].spec->gates)
      if (scans->count(g)) {
        out.push_back(j);
        break;
      }
  }
  return out;
}

bool SubqueryJobs::Open(const Job& j) const {
  if (j.spec->plan) return j.done;
  const QueryStage* b = engine_.graph->BroadcastStageOfJoin(*j.spec->reuses_broadcast);
  return b != nullptr && b->done;
}

bool SubqueryJobs::Admit(QueryStage* st, SimTime* not_before) {
  if (st->subquery >= 0) {
    *not_before = std::max(*not_before, jobs_[static_cast<size_t>(st->subquery)].start);
    return true;
  }
  const std::vector<size_t> gates = GatesOf(*st);
  bool open = true;
  for (size_t g : gates) {
    if (jobs_[g].spec->plan) Start(g);
    open = open && Open(jobs_[g]);
  }
  if (!open) {
    if (std::find(held_.begin(), held_.end(), st) == held_.end()) held_.push_back(st);
    return false;
  }
  for (size_t g : gates) {
    Job& j = jobs_[g];
    const SimTime done =
        j.spec->plan ? j.complete : engine_.graph->BroadcastStageOfJoin(*j.spec->reuses_broadcast)->complete;
    *not_before = std::max(*not_before, done);
    if (std::find(j.gated_stages.begin(), j.gated_stages.end(), st->id) == j.gated_stages.end())
      j.gated_stages.push_back(st->id);
  }
  return true;
}

std::vector<QueryStage*> SubqueryJobs::OnStageDone(const QueryStage& st) {
  if (st.subquery >= 0 && st.kind == StageKind::kResult) {
    Job& j = jobs_[static_cast<size_t>(st.subquery)];
    j.done = true;
    j.complete = st.complete;
  }
  std::vector<QueryStage*> released, still;
  for (QueryStage* h : held_) {
    bool open = true;
    for (size_t g : GatesOf(*h)) open = open && Open(jobs_[g]);
    (open ? released : still).push_back(h);
  }
  held_.swap(still);
  return released;
}

AdaptivePlanner* SubqueryJobs::PlannerOf(const QueryStage& st, AdaptivePlanner* query) {
  if (st.subquery < 0) return query;
  return jobs_[static_cast<size_t>(st.subquery)].planner.get();
}

void SubqueryJobs::Summarize(const StageGraph& graph, RunResult* run) const {
  std::map<int, StageResult*> by_id;
  for (StageResult& s : run->stages) by_id[s.id] = &s;
  for (size_t i = 0; i < jobs_.size(); ++i) {
    const Job& j = jobs_[i];
    SubqueryRun q;
    q.id = j.spec->id;
    q.kind = std::string(SubqueryKindName(j.spec->kind));
    q.gates = j.spec->gates;
    q.reuses_broadcast = j.spec->reuses_broadcast.value_or("");
    q.dropped = j.dropped;
    if (j.spec->plan) {
      for (const QueryStage& st : graph.stages()) {
        if (st.subquery != static_cast<int>(i)) continue;
        q.stages.push_back(st.id);
        if (auto it = by_id.find(st.id); it != by_id.end()) it->second->subquery = q.id;
      }
      if (j.started) q.start_seconds = j.start.seconds();
      if (j.done) q.complete_seconds = j.complete.seconds();
    } else if (const QueryStage* b = graph.BroadcastStageOfJoin(q.reuses_broadcast);
               b != nullptr && !j.dropped) {
      q.stages.push_back(b->id);
      q.start_seconds = b->submit.seconds();
      q.complete_seconds = b->done ? b->complete.seconds() : 0;
    }
    std::sort(q.stages.begin(), q.stages.end());
    q.gated_stages = j.gated_stages;
    std::sort(q.gated_stages.begin(), q.gated_stages.end());
    for (int g : q.gated_stages)
      if (auto it = by_id.find(g); it != by_id.end()) it->second->gated_by.push_back(q.id);
    run->subqueries.push_back(std::move(q));
  }
}

}  // namespace aqesim
