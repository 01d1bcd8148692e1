#include "tools/eventlog/sql_stage_index.h"

#include <algorithm>
#include <functional>
#include <set>

namespace aqesim::eventlog {
namespace {

void IndexPlan(const SqlPlanNode& n, SqlStageIndex::PlanIndex* index) {
  (*index)[NormalizeSimpleString(n.simple_string)].push_back(&n);
  for (const auto& c : n.children) IndexPlan(c, index);
}

}  // namespace

SqlStageIndex::SqlStageIndex(const RecordedApplication& app, const RecordedSqlExecution& ex)
    : app_(app), execution_(ex) {
  // Which stages updated which SQL metric (successful tasks of submitted stages of this
  // execution's jobs; the metric ids are unique per application).
  std::set<int> stage_ids;
  for (int job : ex.job_ids) {
    auto it = app.jobs.find(job);
    if (it == app.jobs.end()) continue;
    for (int s : it->second.stage_ids) stage_ids.insert(s);
  }
  for (int s : stage_ids) {
    const RecordedStage* st = app.stage(s);
    if (st == nullptr || !st->submitted) continue;
    submitted_stages_.push_back(s);
    for (const RecordedTask& t : st->tasks) {
      if (!t.successful) continue;
      for (const auto& [id, v] : t.sql_metric_updates) {
        auto& stages = stages_of_metric_[id];
        if (std::find(stages.begin(), stages.end(), s) == stages.end()) stages.push_back(s);
        metric_totals_[{id, s}] += v;
      }
    }
  }
  // Pre-order index of every plan: normalised simpleString -> nodes in order.
  index_.resize(ex.plans.size());
  for (size_t p = 0; p < ex.plans.size(); ++p) IndexPlan(ex.plans[p], &index_[p]);
  // Each initial-plan node's rank among the nodes with its simpleString.
  std::unordered_map<std::string, int> count;
  Walk(ex.plans.front(),
       [&](const SqlPlanNode& n) { occurrence_[&n] = count[NormalizeSimpleString(n.simple_string)]++; });
}

const SqlPlanNode* SqlStageIndex::Twin(const SqlPlanNode& n, const std::string& metric) const {
  auto ran = [&](const SqlPlanNode& c) {
    for (const auto& m : c.metrics) {
      if ((metric.empty() || m.name == metric) && MetricRan(m.accumulator_id)) return true;
    }
    return false;
  };
  const std::string key = NormalizeSimpleString(n.simple_string);
  auto occ = occurrence_.find(&n);
  const int k = occ == occurrence_.end() ? 0 : occ->second;
  for (size_t p = index_.size(); p-- > 0;) {
    auto it = index_[p].find(key);
    if (it == index_[p].end() || static_cast<int>(it->second.size()) <= k) continue;
    if (ran(*it->second[k])) return it->second[k];
  }
  return ran(n) ? &n : nullptr;
}

std::vector<int> SqlStageIndex::StagesOfMetric(std::optional<int64_t> id) const {
  if (!id) return {};
  auto it = stages_of_metric_.find(*id);
  if (it == stages_of_metric_.end()) return {};
  std::vector<int> out = it->second;
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

const RecordedStage* SqlStageIndex::StageOfMetric(std::optional<int64_t> id,
                                                  std::optional<int> exclude) const {
  if (!id) return nullptr;
  auto it = stages_of_metric_.find(*id);
  if (it == stages_of_metric_.end()) return nullptr;
  const RecordedStage* best = nullptr;
  for (int s : it->second) {
    if (exclude && s == *exclude) continue;
    const RecordedStage* st = app_.stage(s);
    if (st != nullptr && (best == nullptr || st->successful_tasks > best->successful_tasks)) best = st;
  }
  return best;
}

int64_t SqlStageIndex::MetricTotal(std::optional<int64_t> id, int stage) const {
  if (!id) return 0;
  auto it = metric_totals_.find({*id, stage});
  return it == metric_totals_.end() ? 0 : it->second;
}

std::optional<int64_t> SqlStageIndex::MetricTotalAllStages(std::optional<int64_t> id) const {
  if (!id) return std::nullopt;
  auto it = stages_of_metric_.find(*id);
  if (it == stages_of_metric_.end()) return std::nullopt;
  int64_t total = 0;
  for (int stage : std::set<int>(it->second.begin(), it->second.end()))
    total = SaturatingAdd(total, MetricTotal(id, stage));
  return total;
}

const SqlPlanNode* SqlStageIndex::ExchangeByWriteMetric(int64_t id) const {
  const SqlPlanNode* found = nullptr;
  std::function<void(const SqlPlanNode&)> walk = [&](const SqlPlanNode& n) {
    if (found != nullptr) return;
    if (IsExchangeNode(BaseNodeName(n.node_name)) && n.MetricId("shuffle bytes written") == id) {
      found = &n;
      return;
    }
    for (const auto& c : n.children) walk(c);
  };
  for (auto it = execution_.plans.rbegin(); it != execution_.plans.rend() && found == nullptr; ++it)
    walk(*it);
  return found;
}

const RecordedStage* SqlStageIndex::ReadStageOfWriteMetric(std::optional<int64_t> write_id) const {
  if (!write_id) return nullptr;
  const SqlPlanNode* exchange = ExchangeByWriteMetric(*write_id);
  const RecordedStage* map_stage = StageOfMetric(write_id);
  if (exchange == nullptr || map_stage == nullptr) return nullptr;
  for (const char* m : {"remote bytes read", "local bytes read", "records read"}) {
    if (const RecordedStage* st = StageOfMetric(exchange->MetricId(m), map_stage->stage_id)) return st;
  }
  return nullptr;
}

}  // namespace aqesim::eventlog
