// Which recorded stage ran which node of a SQL execution's plans. A plan node names its SQL
// metrics by accumulator id (unique per application); the tasks of the stage that ran it
// report updates of those ids. AQE re-plans an execution several times
// (SQLAdaptiveExecutionUpdate) and the node that ran is the one in the latest plan whose metric
// tasks updated: Twin() finds it for a node of the initial plan, matched by normalised
// simpleString and occurrence.
#ifndef AQESIM_TOOLS_EVENTLOG_SQL_STAGE_INDEX_H_
#define AQESIM_TOOLS_EVENTLOG_SQL_STAGE_INDEX_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

class SqlStageIndex {
 public:
  /// Normalised simpleString -> the plan's nodes with it, in pre-order.
  using PlanIndex = std::unordered_map<std::string, std::vector<const SqlPlanNode*>>;

  SqlStageIndex(const RecordedApplication& app, const RecordedSqlExecution& execution);

  /// The submitted stages of the execution's jobs, ascending.
  const std::vector<int>& submitted_stages() const { return submitted_stages_; }
  /// The index of the initial plan (plans[0]).
  const PlanIndex& initial_plan_index() const { return index_.front(); }

  /// Whether a successful task reported an update of metric `id`.
  bool MetricRan(int64_t id) const { return stages_of_metric_.count(id) > 0; }
  /// The node that actually ran `n` (an initial-plan node): the same node in the latest plan
  /// whose `metric` (or any metric, when empty) was updated by tasks.
  const SqlPlanNode* Twin(const SqlPlanNode& n, const std::string& metric) const;
  /// The submitted stage that updated metric `id` the most tasks (ties: lowest id), other than
  /// `exclude`.
  const RecordedStage* StageOfMetric(std::optional<int64_t> id,
                                     std::optional<int> exclude = std::nullopt) const;
  /// Every submitted stage that updated metric `id`, ascending.
  std::vector<int> StagesOfMetric(std::optional<int64_t> id) const;
  /// Sum of the successful tasks' updates of metric `id` in `stage`.
  int64_t MetricTotal(std::optional<int64_t> id, int stage) const;
  /// Sum of the successful tasks' updates of metric `id` over every stage; nullopt when no
  /// task updated it.
  std::optional<int64_t> MetricTotalAllStages(std::optional<int64_t> id) const;
  /// The exchange node (any plan of the execution, latest first) whose "shuffle bytes
  /// written" is `id`.
  const SqlPlanNode* ExchangeByWriteMetric(int64_t id) const;
  /// The stage that read the exchange writing metric `write_id`, nullptr if none ran.
  const RecordedStage* ReadStageOfWriteMetric(std::optional<int64_t> write_id) const;

 private:
  const RecordedApplication& app_;
  const RecordedSqlExecution& execution_;
  std::vector<int> submitted_stages_;
  std::unordered_map<int64_t, std::vector<int>> stages_of_metric_;
  std::map<std::pair<int64_t, int>, int64_t> metric_totals_;
  std::vector<PlanIndex> index_;                            // one per plan
  std::unordered_map<const SqlPlanNode*, int> occurrence_;  // initial-plan node -> its rank among equals
};

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_SQL_STAGE_INDEX_H_
