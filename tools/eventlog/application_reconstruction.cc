#include "tools/eventlog/application_reconstruction.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "models/conf/property_value.h"
#include "models/plan/planned_properties.h"
#include "tools/eventlog/sql_plan_info.h"

namespace aqesim::eventlog {

namespace {

/// A stage whose Stage Info said "Number of Tasks": 0 but whose tasks ran: Spark computes one
/// task per partition index (TaskSetManager), so the count is the highest index seen + 1.
void CountTasksOfZeroTaskStage(RecordedStage* st, std::vector<std::string>* warnings) {
  int64_t seen = 0;
  for (const RecordedTask& t : st->tasks)
    if (t.index >= 0 && t.index < kMaxPlannedTasks) seen = std::max<int64_t>(seen, int64_t{t.index} + 1);
  if (seen == 0) return;  // no task ran: an empty stage
  const auto tasks = [](int64_t n) { return std::to_string(n) + (n == 1 ? " task" : " tasks"); };
  const std::string said = st->zero_tasks_at + ": stage " + std::to_string(st->stage_id) +
                           ": Number of Tasks 0, but tasks with indexes up to " + std::to_string(seen - 1) +
                           " ran (TaskEnd)";
  if (st->num_tasks >= seen) {
    warnings->push_back(said + ": imported with the " + tasks(st->num_tasks) + " its other events say");
    return;
  }
  st->num_tasks = static_cast<int>(seen);
  warnings->push_back(said + ": imported with " + tasks(seen));
}

}  // namespace

void ReconstructStages(RecordedApplication* app, std::vector<std::string>* warnings) {
  for (auto& [id, st] : app->stages) {
    if (!st.zero_tasks_at.empty()) CountTasksOfZeroTaskStage(&st, warnings);
    st.map_output_bytes.assign(static_cast<size_t>(std::max(st.num_tasks, 0)), 0);
    std::vector<bool> seen(st.map_output_bytes.size(), false);
    std::set<int> successful_indexes;
    for (const RecordedTask& t : st.tasks) {
      if (t.task_type == "ShuffleMapTask") st.shuffle_map = true;
      if (!t.successful) continue;
      // A second success of the same index is a losing speculative copy or a re-run after
      // a fetch failure: count the partition once (the first success is what was used).
      if (!successful_indexes.insert(t.index).second) continue;
      ++st.successful_tasks;
      // Saturating: a corrupt log's huge metrics must not wrap the totals.
      st.input_bytes = SaturatingAdd(st.input_bytes, t.input_bytes);
      st.shuffle_read_bytes = SaturatingAdd(st.shuffle_read_bytes, t.shuffle_bytes_read());
      st.shuffle_write_bytes = SaturatingAdd(st.shuffle_write_bytes, t.shuffle_bytes_written);
      st.result_bytes = SaturatingAdd(st.result_bytes, t.result_size_bytes);
      st.shuffle_records_written = SaturatingAdd(st.shuffle_records_written, t.shuffle_records_written);
      st.executor_run_time_ms = SaturatingAdd(st.executor_run_time_ms, t.executor_run_time_ms);
      if (t.task_type == "ShuffleMapTask" && t.index >= 0 &&
          static_cast<size_t>(t.index) < st.map_output_bytes.size()) {
        st.map_output_bytes[t.index] = t.shuffle_bytes_written;
        seen[t.index] = true;
      }
    }
    if (st.submitted && st.shuffle_map) {
      for (size_t i = 0; i < seen.size(); ++i) {
        if (!seen[i]) st.missing_map_indexes.push_back(static_cast<int>(i));
      }
    }
    if (st.submitted && st.successful_tasks < st.num_tasks && !st.tasks.empty()) {
      warnings->push_back(app->path + ": stage " + std::to_string(id) + " logged " +
                          std::to_string(st.successful_tasks) + " successful tasks of " +
                          std::to_string(st.num_tasks) + " (event loss, failure or truncated log)");
    }
    if (st.submitted && !st.completion_time_ms) {
      warnings->push_back(app->path + ": stage " + std::to_string(id) + " has no StageCompleted");
    }
  }
  // Skipped stages -> the executed stage with the same RDDs (exact set first, else the
  // executed stage containing the skipped stage's last RDD).
  std::unordered_map<int64_t, int> stage_of_rdd;
  std::map<std::vector<int64_t>, int> stage_of_set;
  for (const auto& [id, st] : app->stages) {
    if (!st.submitted) continue;
    std::vector<int64_t> key = st.rdd_ids;
    std::sort(key.begin(), key.end());
    stage_of_set.emplace(key, id);
    for (int64_t r : st.rdd_ids) stage_of_rdd.emplace(r, id);
  }
  for (auto& [id, st] : app->stages) {
    if (st.submitted || st.rdd_ids.empty()) continue;
    std::vector<int64_t> key = st.rdd_ids;
    std::sort(key.begin(), key.end());
    if (auto it = stage_of_set.find(key); it != stage_of_set.end()) {
      st.executed_as = it->second;
    } else if (auto jt = stage_of_rdd.find(key.back()); jt != stage_of_rdd.end()) {
      st.executed_as = jt->second;
    }
  }
}

void ReconstructCluster(RecordedApplication* app, const std::string& master_where) {
  SparkMaster master;  // no spark.master: a cluster
  if (auto it = app->spark_properties.find("spark.master"); it != app->spark_properties.end()) {
    std::string error;
    std::optional<SparkMaster> parsed = ParseSparkMaster(it->second, &error);
    if (!parsed) throw EventLogError(master_where + ": Spark Properties: spark.master: " + error);
    master = *parsed;
  }
  app->local_mode = master.local;
  if (app->local_mode) {
    app->max_concurrent_executors = 1;
    int cores = master.local_threads.value_or(0);
    if (cores == 0) {  // local[*]: the driver executor's cores
      for (const auto& ex : app->executors) cores = std::max(cores, ex.total_cores);
    }
    app->executor_cores = std::max(cores, 1);
    return;
  }
  std::vector<std::pair<int64_t, int>> timeline;  // (time, +1/-1); removals first at ties
  std::map<int, int> cores_count;
  for (const auto& ex : app->executors) {
    if (ex.executor_id == "driver") continue;
    timeline.emplace_back(ex.added_time_ms, +1);
    if (ex.removed_time_ms) timeline.emplace_back(*ex.removed_time_ms, -1);
    ++cores_count[ex.total_cores];
  }
  std::sort(timeline.begin(), timeline.end());
  int live = 0, peak = 0;
  for (const auto& [t, d] : timeline) {
    live += d;
    peak = std::max(peak, live);
  }
  app->max_concurrent_executors = peak;
  int mode = 0, mode_count = 0;
  for (const auto& [c, n] : cores_count) {
    if (n > mode_count) {
      mode = c;
      mode_count = n;
    }
  }
  app->executor_cores = mode;
}

void ReconstructAdaptiveExecutions(RecordedApplication* app) {
  for (auto& entry : app->executions) {
    // Named references, not a structured binding: lambdas below capture them (clang < 16).
    const int64_t id = entry.first;
    RecordedSqlExecution& ex = entry.second;
    if (ex.plans.empty()) continue;
    const SqlPlanNode& first = ex.plans.front();
    const SqlPlanNode& last = ex.plans.back();
    Walk(last, [&](const SqlPlanNode& n) {
      if (n.node_name != "AQEShuffleRead" && n.node_name != "CustomShuffleReader") return;
      RecordedShuffleRead r;
      r.execution_id = id;
      r.node_name = n.node_name;
      r.simple_string = n.simple_string;
      r.coalesced = n.simple_string.find("coalesced") != std::string::npos;
      r.skewed = n.simple_string.find("skewed") != std::string::npos;
      r.local = n.simple_string.find("local") != std::string::npos;
      auto last_value = [&](const char* metric) -> std::optional<int64_t> {
        auto mid = n.MetricId(metric);
        if (!mid) return std::nullopt;
        auto it = ex.driver_updates.find(*mid);
        if (it == ex.driver_updates.end() || it->second.empty()) return std::nullopt;
        return it->second.back();
      };
      r.num_partitions = last_value("number of partitions");
      r.num_coalesced_partitions = last_value("number of coalesced partitions");
      r.num_skewed_partitions = last_value("number of skewed partitions");
      r.num_skewed_splits = last_value("number of skewed partition splits");
      if (auto mid = n.MetricId("partition data size")) {
        if (auto it = ex.driver_updates.find(*mid); it != ex.driver_updates.end())
          r.partition_data_sizes_bytes = it->second;
      }
      for (const auto& c : n.children) {
        if (const SqlPlanNode* exch = FindFirst(c, "Exchange")) {
          r.exchange_simple_string = exch->simple_string;
          r.exchange_write_metric_id = exch->MetricId("shuffle bytes written");
          break;
        }
      }
      app->shuffle_reads.push_back(std::move(r));
    });
    if (ex.plans.size() < 2 && !ex.adaptive()) continue;
    std::vector<const SqlPlanNode*> first_joins, last_joins;
    Walk(first, [&](const SqlPlanNode& n) {
      if (IsJoinNode(BaseNodeName(n.node_name))) first_joins.push_back(&n);
    });
    Walk(last, [&](const SqlPlanNode& n) {
      if (IsJoinNode(BaseNodeName(n.node_name))) last_joins.push_back(&n);
    });
    std::vector<bool> used(last_joins.size(), false);
    for (const SqlPlanNode* j : first_joins) {
      RecordedJoin rj;
      rj.execution_id = id;
      rj.key = JoinKey(*j);
      rj.initial_strategy = BaseNodeName(j->node_name);
      rj.final_strategy = rj.initial_strategy;
      for (size_t k = 0; k < last_joins.size(); ++k) {
        if (used[k] || JoinKey(*last_joins[k]) != rj.key) continue;
        used[k] = true;
        rj.final_strategy = BaseNodeName(last_joins[k]->node_name);
        rj.is_skew_join = last_joins[k]->node_name.find("skew=true") != std::string::npos ||
                          last_joins[k]->simple_string.find("isSkewJoin=true") != std::string::npos;
        break;
      }
      app->joins.push_back(std::move(rj));
    }
  }
}

}  // namespace aqesim::eventlog
