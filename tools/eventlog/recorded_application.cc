#include "tools/eventlog/recorded_application.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "models/conf/property_value.h"
#include "tools/eventlog/line_reader.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

/// Integer value of a JSON number (a fraction truncated) or of a string of decimal digits
/// with an optional '-'; nullopt otherwise, and for values beyond int64.
std::optional<int64_t> AsInt(const json& v) {
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!(d > -9.2e18 && d < 9.2e18)) return std::nullopt;  // NaN, or beyond int64
    return static_cast<int64_t>(d);
  }
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    const size_t digits = !s.empty() && s[0] == '-' ? 1 : 0;
    if (s.size() == digits || s.find_first_not_of("0123456789", digits) != std::string::npos)
      return std::nullopt;
    return ParseLong(s);
  }
  return std::nullopt;
}

int64_t IntField(const json& obj, const char* key, int64_t fallback = 0) {
  if (!obj.is_object()) return fallback;
  auto it = obj.find(key);
  if (it == obj.end()) return fallback;
  return AsInt(*it).value_or(fallback);
}

std::optional<int64_t> OptIntField(const json& obj, const char* key) {
  if (!obj.is_object()) return std::nullopt;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  return AsInt(*it);
}

/// A finite JSON number (or a numeric string), nullopt otherwise.
std::optional<double> OptDoubleField(const json& obj, const char* key) {
  if (!obj.is_object()) return std::nullopt;
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  if (it->is_number()) {
    const double d = it->get<double>();
    return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
  }
  if (auto i = AsInt(*it)) return static_cast<double>(*i);
  return std::nullopt;
}

std::string StringField(const json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

bool BoolField(const json& obj, const char* key) {
  if (!obj.is_object()) return false;
  auto it = obj.find(key);
  return it != obj.end() && it->is_boolean() && it->get<bool>();
}

const json& Field(const json& obj, const char* key) {
  static const json kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

/// Events the reconstruction does not need but that are expected in a log (no warning).
bool IsKnownIgnoredEvent(std::string_view name) {
  static const std::set<std::string_view> kIgnored = {
      "SparkListenerTaskStart",
      "SparkListenerTaskGettingResult",
      "SparkListenerBlockManagerAdded",
      "SparkListenerBlockManagerRemoved",
      "SparkListenerBlockUpdated",
      "SparkListenerUnpersistRDD",
      "SparkListenerExecutorMetricsUpdate",
      "SparkListenerStageExecutorMetrics",
      "SparkListenerExecutorBlacklisted",
      "SparkListenerExecutorExcluded",
      "SparkListenerExecutorUnblacklisted",
      "SparkListenerExecutorUnexcluded",
      "SparkListenerNodeBlacklisted",
      "SparkListenerNodeExcluded",
      "SparkListenerNodeUnblacklisted",
      "SparkListenerNodeUnexcluded",
      "SparkListenerSpeculativeTaskSubmitted",
      "SparkListenerMiscellaneousProcessAdded",
      "SparkListenerSQLAdaptiveSQLMetricUpdates",
      "SparkListenerQueryExecutionMetrics",
      "DropTablePreEvent",
      "DropTableEvent",
      "CreateTablePreEvent",
      "CreateTableEvent",
      "AlterTableEvent",
      "AlterTablePreEvent",
      "CreateDatabasePreEvent",
      "CreateDatabaseEvent",
      "DropDatabasePreEvent",
      "DropDatabaseEvent",
      "SparkListenerResourceProfileAdded",
      "SparkListenerExecutorBlacklistedForStage",
      "SparkListenerExecutorExcludedForStage",
      "SparkListenerNodeBlacklistedForStage",
      "SparkListenerNodeExcludedForStage",
      "StreamingQueryListener.QueryStartedEvent",
  };
  return kIgnored.count(name) > 0;
}

/// "SortMergeJoin(skew=true)" -> "SortMergeJoin".
std::string BaseNodeName(const std::string& name) { return name.substr(0, name.find('(')); }

bool IsJoinNode(const std::string& base) {
  return base == "SortMergeJoin" || base == "ShuffledHashJoin" || base == "BroadcastHashJoin" ||
         base == "BroadcastNestedLoopJoin" || base == "CartesianProduct";
}

/// "[a#12], [b#14], Inner" from a join's simpleString (text after the node name up to the
/// join type).
std::string JoinKey(const SqlPlanNode& node) {
  std::string s = NormalizeSimpleString(node.simple_string);
  const size_t space = s.find(' ');
  s = space == std::string::npos ? "" : s.substr(space + 1);
  static const char* kTypes[] = {"Inner",     "Cross",    "LeftOuter", "RightOuter",
                                 "FullOuter", "LeftSemi", "LeftAnti",  "ExistenceJoin"};
  size_t best = std::string::npos, best_len = 0;
  for (const char* t : kTypes) {
    const size_t pos = s.find(std::string(", ") + t);
    if (pos != std::string::npos && (best == std::string::npos || pos < best)) {
      best = pos;
      best_len = std::string(t).size() + 2;
    }
  }
  if (best != std::string::npos) return s.substr(0, best + best_len);
  return s;
}

void Walk(const SqlPlanNode& node, const std::function<void(const SqlPlanNode&)>& fn) {
  fn(node);
  for (const auto& c : node.children) Walk(c, fn);
}

const SqlPlanNode* FindFirst(const SqlPlanNode& node, std::string_view name) {
  if (node.node_name == name) return &node;
  for (const auto& c : node.children) {
    if (const SqlPlanNode* f = FindFirst(c, name)) return f;
  }
  return nullptr;
}

class Parser {
 public:
  Parser(RecordedApplication* app, std::vector<std::string>* warnings) : app_(app), warnings_(warnings) {}

  void Consume(const json& e, const EventLogLine& line) {
    const std::string event_name = StringField(e, "Event");
    const std::string_view ev = EventShortName(event_name);
    ++app_->events;
    where_ = line.file + ":" + std::to_string(line.line_number);
    if (ev == "SparkListenerLogStart") {
      app_->spark_version = StringField(e, "Spark Version");
    } else if (ev == "SparkListenerApplicationStart") {
      app_->app_id = StringField(e, "App ID");
      app_->app_name = StringField(e, "App Name");
      app_->start_time_ms = OptIntField(e, "Timestamp");
    } else if (ev == "SparkListenerApplicationEnd") {
      app_->end_time_ms = OptIntField(e, "Timestamp");
    } else if (ev == "SparkListenerEnvironmentUpdate") {
      OnEnvironment(e);
    } else if (ev == "SparkListenerResourceProfileAdded") {
      const json& req = Field(e, "Executor Resource Requests");
      const json& task = Field(e, "Task Resource Requests");
      RecordedResourceProfile rp;
      rp.id = static_cast<int>(IntField(e, "Resource Profile Id", -1));
      if (auto c = OptIntField(Field(req, "cores"), "Amount")) rp.executor_cores = static_cast<int>(*c);
      rp.executor_memory_mib = OptIntField(Field(req, "memory"), "Amount");
      rp.executor_gpus = OptDoubleField(Field(req, "gpu"), "Amount");
      rp.task_cpus = OptDoubleField(Field(task, "cpus"), "Amount");
      rp.task_gpus = OptDoubleField(Field(task, "gpu"), "Amount");
      if (rp.id == 0) {
        app_->profile_executor_cores = rp.executor_cores;
        app_->profile_executor_memory_mib = rp.executor_memory_mib;
      }
      if (rp.id >= 0) app_->resource_profiles[rp.id] = rp;
    } else if (ev == "SparkListenerExecutorAdded") {
      RecordedExecutor ex;
      ex.executor_id = StringField(e, "Executor ID");
      ex.added_time_ms = IntField(e, "Timestamp");
      const json& info = Field(e, "Executor Info");
      ex.host = StringField(info, "Host");
      ex.total_cores = static_cast<int>(IntField(info, "Total Cores"));
      ex.resource_profile_id = static_cast<int>(IntField(info, "Resource Profile Id"));
      app_->executors.push_back(std::move(ex));
    } else if (ev == "SparkListenerExecutorRemoved") {
      const std::string id = StringField(e, "Executor ID");
      for (auto it = app_->executors.rbegin(); it != app_->executors.rend(); ++it) {
        if (it->executor_id == id && !it->removed_time_ms) {
          it->removed_time_ms = IntField(e, "Timestamp");
          it->removed_reason = StringField(e, "Removed Reason");
          break;
        }
      }
    } else if (ev == "SparkListenerJobStart") {
      OnJobStart(e);
    } else if (ev == "SparkListenerJobEnd") {
      const int id = static_cast<int>(IntField(e, "Job ID", -1));
      RecordedJob& job = app_->jobs[id];
      job.job_id = id;
      job.completion_time_ms = OptIntField(e, "Completion Time");
      job.result = StringField(Field(e, "Job Result"), "Result");
    } else if (ev == "SparkListenerStageSubmitted") {
      RecordedStage& st = StageFromInfo(Field(e, "Stage Info"));
      st.submitted = true;
      ++st.attempts;
      if (!st.submission_time_ms)
        st.submission_time_ms = OptIntField(Field(e, "Stage Info"), "Submission Time");
    } else if (ev == "SparkListenerStageCompleted") {
      const json& info = Field(e, "Stage Info");
      RecordedStage& st = StageFromInfo(info);
      st.submitted = true;
      if (!st.submission_time_ms) st.submission_time_ms = OptIntField(info, "Submission Time");
      st.completion_time_ms = OptIntField(info, "Completion Time");
      const std::string failure = StringField(info, "Failure Reason");
      if (!failure.empty()) st.failure_reason = failure.substr(0, failure.find('\n'));
    } else if (ev == "SparkListenerTaskEnd") {
      OnTaskEnd(e);
    } else if (ev == "SparkListenerSQLExecutionStart") {
      const int64_t id = IntField(e, "executionId", -1);
      RecordedSqlExecution& ex = app_->executions[id];
      ex.execution_id = id;
      ex.description = StringField(e, "description");
      ex.start_time_ms = OptIntField(e, "time");
      ex.plans.insert(ex.plans.begin(), ParseSparkPlanInfo(Field(e, "sparkPlanInfo")));
      ex.physical_descriptions.insert(ex.physical_descriptions.begin(),
                                      StringField(e, "physicalPlanDescription"));
    } else if (ev == "SparkListenerSQLAdaptiveExecutionUpdate") {
      const int64_t id = IntField(e, "executionId", -1);
      RecordedSqlExecution& ex = app_->executions[id];
      ex.execution_id = id;
      ex.plans.push_back(ParseSparkPlanInfo(Field(e, "sparkPlanInfo")));
      ex.physical_descriptions.push_back(StringField(e, "physicalPlanDescription"));
    } else if (ev == "SparkListenerDriverAccumUpdates") {
      const int64_t id = IntField(e, "executionId", -1);
      RecordedSqlExecution& ex = app_->executions[id];
      ex.execution_id = id;
      const json& updates = Field(e, "accumUpdates");
      if (updates.is_array()) {
        for (const json& u : updates) {
          if (!u.is_array() || u.size() != 2) continue;
          auto acc = AsInt(u[0]);
          auto val = AsInt(u[1]);
          if (acc && val) ex.driver_updates[*acc].push_back(*val);
        }
      }
    } else if (ev == "SparkListenerSQLExecutionEnd") {
      const int64_t id = IntField(e, "executionId", -1);
      RecordedSqlExecution& ex = app_->executions[id];
      ex.execution_id = id;
      ex.end_time_ms = OptIntField(e, "time");
    } else if (!IsKnownIgnoredEvent(ev)) {
      ++app_->unknown_events;
      if (unknown_seen_.insert(event_name).second) {
        warnings_->push_back(where_ + ": unknown event \"" + event_name + "\" ignored");
      }
    }
  }

  void Finish() {
    FinishStages();
    FinishCluster();
    FinishExecutions();
    if (!app_->end_time_ms) {
      warnings_->push_back(app_->path + ": no SparkListenerApplicationEnd: the log is incomplete");
    }
    for (const auto& [id, job] : app_->jobs) {
      if (!job.completion_time_ms)
        warnings_->push_back(app_->path + ": job " + std::to_string(id) + " has no JobEnd");
    }
  }

 private:
  void OnEnvironment(const json& e) {
    const json& props = Field(e, "Spark Properties");
    if (props.is_object()) {
      for (auto it = props.begin(); it != props.end(); ++it) {
        if (it.value().is_string()) SetProperty(it.key(), it.value().get<std::string>());
      }
    } else if (props.is_array()) {  // [[key, value], ...] (older writers)
      for (const json& kv : props) {
        if (kv.is_array() && kv.size() == 2 && kv[0].is_string() && kv[1].is_string()) {
          SetProperty(kv[0].get<std::string>(), kv[1].get<std::string>());
        }
      }
    }
  }

  void SetProperty(const std::string& key, const std::string& value) {
    app_->spark_properties[key] = value;
    if (key == "spark.master") master_where_ = where_;
  }

  RecordedStage& StageFromInfo(const json& info) {
    const int id = static_cast<int>(IntField(info, "Stage ID", -1));
    RecordedStage& st = app_->stages[id];
    st.stage_id = id;
    if (st.name.empty()) st.name = StringField(info, "Stage Name");
    if (auto n = OptIntField(info, "Number of Tasks")) st.num_tasks = static_cast<int>(*n);
    if (auto rp = OptIntField(info, "Resource Profile Id")) st.resource_profile_id = static_cast<int>(*rp);
    const json& parents = Field(info, "Parent IDs");
    if (parents.is_array() && st.parent_ids.empty()) {
      for (const json& p : parents) {
        if (auto v = AsInt(p)) st.parent_ids.push_back(static_cast<int>(*v));
      }
    }
    const json& rdds = Field(info, "RDD Info");
    if (rdds.is_array() && st.rdd_ids.empty()) {
      for (const json& r : rdds) {
        if (auto v = OptIntField(r, "RDD ID")) st.rdd_ids.push_back(*v);
      }
    }
    return st;
  }

  void OnJobStart(const json& e) {
    const int id = static_cast<int>(IntField(e, "Job ID", -1));
    RecordedJob& job = app_->jobs[id];
    job.job_id = id;
    job.submission_time_ms = OptIntField(e, "Submission Time");
    const json& props = Field(e, "Properties");
    if (auto ex = OptIntField(props, "spark.sql.execution.id")) job.execution_id = *ex;
    job.description = StringField(props, "spark.job.description");
    job.pool = StringField(props, "spark.scheduler.pool");
    const json& infos = Field(e, "Stage Infos");
    if (infos.is_array()) {
      for (const json& info : infos) {
        RecordedStage& st = StageFromInfo(info);
        job.stage_ids.push_back(st.stage_id);
        if (!st.job_id) {
          st.job_id = id;
          st.execution_id = job.execution_id;
        }
      }
    }
    const json& ids = Field(e, "Stage IDs");
    if (job.stage_ids.empty() && ids.is_array()) {
      for (const json& s : ids) {
        if (auto v = AsInt(s)) job.stage_ids.push_back(static_cast<int>(*v));
      }
    }
    if (job.execution_id) app_->executions[*job.execution_id].job_ids.push_back(id);
  }

  void OnTaskEnd(const json& e) {
    RecordedTask t;
    t.stage_id = static_cast<int>(IntField(e, "Stage ID", -1));
    t.stage_attempt = static_cast<int>(IntField(e, "Stage Attempt ID"));
    t.task_type = StringField(e, "Task Type");
    t.end_reason = StringField(Field(e, "Task End Reason"), "Reason");
    const json& info = Field(e, "Task Info");
    t.task_id = IntField(info, "Task ID");
    t.index = static_cast<int>(IntField(info, "Index"));
    t.attempt = static_cast<int>(IntField(info, "Attempt"));
    t.speculative = BoolField(info, "Speculative");
    t.executor_id = StringField(info, "Executor ID");
    t.locality = StringField(info, "Locality");
    t.launch_time_ms = IntField(info, "Launch Time");
    t.finish_time_ms = IntField(info, "Finish Time");
    t.getting_result_time_ms = IntField(info, "Getting Result Time");
    t.successful = t.end_reason == "Success" && !BoolField(info, "Failed") && !BoolField(info, "Killed");
    const json& accs = Field(info, "Accumulables");
    if (accs.is_array()) {
      for (const json& a : accs) {
        const std::string name = StringField(a, "Name");
        if (name.rfind("internal.", 0) == 0) continue;
        auto id = OptIntField(a, "ID");
        auto update = OptIntField(a, "Update");
        if (id && update) t.sql_metric_updates.emplace_back(*id, *update);
      }
    }
    const json& m = Field(e, "Task Metrics");
    t.executor_run_time_ms = IntField(m, "Executor Run Time");
    t.executor_deserialize_time_ms = IntField(m, "Executor Deserialize Time");
    t.result_serialization_time_ms = IntField(m, "Result Serialization Time");
    t.jvm_gc_time_ms = IntField(m, "JVM GC Time");
    t.result_size_bytes = IntField(m, "Result Size");
    t.executor_cpu_time_ns = IntField(m, "Executor CPU Time");
    t.memory_bytes_spilled = IntField(m, "Memory Bytes Spilled");
    t.disk_bytes_spilled = IntField(m, "Disk Bytes Spilled");
    const json& in = Field(m, "Input Metrics");
    t.input_bytes = IntField(in, "Bytes Read");
    t.input_records = IntField(in, "Records Read");
    const json& rd = Field(m, "Shuffle Read Metrics");
    t.shuffle_remote_bytes_read = IntField(rd, "Remote Bytes Read");
    t.shuffle_local_bytes_read = IntField(rd, "Local Bytes Read");
    t.shuffle_records_read = IntField(rd, "Total Records Read");
    t.remote_blocks_fetched = IntField(rd, "Remote Blocks Fetched");
    t.local_blocks_fetched = IntField(rd, "Local Blocks Fetched");
    t.fetch_wait_time_ms = IntField(rd, "Fetch Wait Time");
    const json& wr = Field(m, "Shuffle Write Metrics");
    t.shuffle_bytes_written = IntField(wr, "Shuffle Bytes Written");
    t.shuffle_records_written = IntField(wr, "Shuffle Records Written");
    t.shuffle_write_time_ns = IntField(wr, "Shuffle Write Time");
    t.output_bytes = IntField(Field(m, "Output Metrics"), "Bytes Written");

    auto it = app_->stages.find(t.stage_id);
    if (it == app_->stages.end()) {
      warnings_->push_back(where_ + ": TaskEnd for stage " + std::to_string(t.stage_id) +
                           " that was never submitted");
      RecordedStage& st = app_->stages[t.stage_id];
      st.stage_id = t.stage_id;
      st.submitted = true;
      it = app_->stages.find(t.stage_id);
    }
    it->second.tasks.push_back(std::move(t));
  }

  void FinishStages() {
    for (auto& [id, st] : app_->stages) {
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
        warnings_->push_back(app_->path + ": stage " + std::to_string(id) + " logged " +
                             std::to_string(st.successful_tasks) + " successful tasks of " +
                             std::to_string(st.num_tasks) + " (event loss, failure or truncated log)");
      }
      if (st.submitted && !st.completion_time_ms) {
        warnings_->push_back(app_->path + ": stage " + std::to_string(id) + " has no StageCompleted");
      }
    }
    // Skipped stages -> the executed stage with the same RDDs (exact set first, else the
    // executed stage containing the skipped stage's last RDD).
    std::unordered_map<int64_t, int> stage_of_rdd;
    std::map<std::vector<int64_t>, int> stage_of_set;
    for (const auto& [id, st] : app_->stages) {
      if (!st.submitted) continue;
      std::vector<int64_t> key = st.rdd_ids;
      std::sort(key.begin(), key.end());
      stage_of_set.emplace(key, id);
      for (int64_t r : st.rdd_ids) stage_of_rdd.emplace(r, id);
    }
    for (auto& [id, st] : app_->stages) {
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

  void FinishCluster() {
    SparkMaster master;  // no spark.master: a cluster
    if (auto it = app_->spark_properties.find("spark.master"); it != app_->spark_properties.end()) {
      std::string error;
      std::optional<SparkMaster> parsed = ParseSparkMaster(it->second, &error);
      if (!parsed) throw EventLogError(master_where_ + ": Spark Properties: spark.master: " + error);
      master = *parsed;
    }
    app_->local_mode = master.local;
    if (app_->local_mode) {
      app_->max_concurrent_executors = 1;
      int cores = master.local_threads.value_or(0);
      if (cores == 0) {  // local[*]: the driver executor's cores
        for (const auto& ex : app_->executors) cores = std::max(cores, ex.total_cores);
      }
      app_->executor_cores = std::max(cores, 1);
      return;
    }
    std::vector<std::pair<int64_t, int>> timeline;  // (time, +1/-1); removals first at ties
    std::map<int, int> cores_count;
    for (const auto& ex : app_->executors) {
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
    app_->max_concurrent_executors = peak;
    int mode = 0, mode_count = 0;
    for (const auto& [c, n] : cores_count) {
      if (n > mode_count) {
        mode = c;
        mode_count = n;
      }
    }
    app_->executor_cores = mode;
  }

  void FinishExecutions() {
    for (auto& entry : app_->executions) {
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
        app_->shuffle_reads.push_back(std::move(r));
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
        app_->joins.push_back(std::move(rj));
      }
    }
  }

  RecordedApplication* app_;
  std::vector<std::string>* warnings_;
  std::string where_;
  std::string master_where_;  // FILE:LINE of the environment update that set spark.master
  std::set<std::string> unknown_seen_;
};

}  // namespace

std::optional<int64_t> SqlPlanNode::MetricId(std::string_view name) const {
  for (const auto& m : metrics) {
    if (m.name == name) return m.accumulator_id;
  }
  return std::nullopt;
}

SqlPlanNode ParseSparkPlanInfo(const json& info) {
  SqlPlanNode node;
  node.node_name = StringField(info, "nodeName");
  node.simple_string = StringField(info, "simpleString");
  const json& metrics = Field(info, "metrics");
  if (metrics.is_array()) {
    for (const json& m : metrics) {
      SqlMetric metric;
      metric.name = StringField(m, "name");
      metric.accumulator_id = IntField(m, "accumulatorId", -1);
      metric.metric_type = StringField(m, "metricType");
      node.metrics.push_back(std::move(metric));
    }
  }
  const json& children = Field(info, "children");
  if (children.is_array()) {
    for (const json& c : children) node.children.push_back(ParseSparkPlanInfo(c));
  }
  return node;
}

std::string NormalizeSimpleString(std::string_view s) {
  std::string out(s);
  for (const char* marker : {", [id=#", " [id=#", ", [plan_id=", " [plan_id="}) {
    size_t pos;
    while ((pos = out.find(marker)) != std::string::npos) {
      const size_t end = out.find(']', pos);
      out.erase(pos, end == std::string::npos ? std::string::npos : end - pos + 1);
    }
  }
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back()))) out.pop_back();
  return out;
}

std::string_view EventShortName(std::string_view event) {
  const size_t dot = event.rfind('.');
  if (dot == std::string_view::npos) return event;
  // Keep "StreamingQueryListener.QueryStartedEvent"-style nested names readable.
  std::string_view tail = event.substr(dot + 1);
  return tail;
}

std::string PlanShape(const SqlPlanNode& plan) {
  std::string out = plan.node_name + "(" + std::to_string(plan.children.size()) + ")";
  for (const SqlPlanNode& c : plan.children) {
    // Not "x" + std::string&&: a GCC 12 -Wrestrict false positive (GCC bug 105329).
    out += ' ';
    out += PlanShape(c);
  }
  return out;
}

std::set<std::string> ExecutorsThatRanSameQuery(const RecordedApplication& app,
                                                const RecordedSqlExecution& execution, int64_t ms) {
  std::set<std::string> out;
  if (execution.plans.empty()) return out;
  const std::string shape = PlanShape(execution.plans.front());
  std::set<int64_t> same;  // other executions of the same query
  for (const auto& [id, other] : app.executions) {
    if (id != execution.execution_id && !other.plans.empty() && PlanShape(other.plans.front()) == shape)
      same.insert(id);
  }
  if (same.empty()) return out;
  for (const auto& [id, st] : app.stages) {
    if (!st.execution_id || !same.count(*st.execution_id)) continue;
    for (const RecordedTask& t : st.tasks) {
      if (t.successful && t.finish_time_ms <= ms) out.insert(t.executor_id);
    }
  }
  return out;
}

bool RecordedSqlExecution::adaptive() const {
  return !plans.empty() && FindFirst(plans.front(), "AdaptiveSparkPlan") != nullptr;
}

const RecordedStage* RecordedApplication::executed_stage(int id) const {
  const RecordedStage* st = stage(id);
  if (st == nullptr || st->submitted) return st;
  return st->executed_as ? stage(*st->executed_as) : nullptr;
}

int RecordedApplication::SlotsOf(const RecordedExecutor& executor) const {
  auto property = [&](const char* key) -> std::optional<double> {
    auto it = spark_properties.find(key);
    if (it == spark_properties.end()) return std::nullopt;
    return ParseDouble(it->second);
  };
  double task_cpus = property("spark.task.cpus").value_or(1.0);
  std::optional<double> executor_gpus = property("spark.executor.resource.gpu.amount");
  std::optional<double> task_gpus = property("spark.task.resource.gpu.amount");
  if (auto it = resource_profiles.find(executor.resource_profile_id); it != resource_profiles.end()) {
    const RecordedResourceProfile& rp = it->second;
    if (rp.task_cpus) task_cpus = *rp.task_cpus;
    if (rp.executor_gpus) executor_gpus = rp.executor_gpus;
    if (rp.task_gpus) task_gpus = rp.task_gpus;
  }
  double slots = std::floor(executor.total_cores / std::max(task_cpus, 1e-9) + 1e-9);
  if (executor_gpus && task_gpus && *task_gpus > 0)
    slots = std::min(slots, std::floor(*executor_gpus / *task_gpus + 1e-9));
  return static_cast<int>(std::clamp(slots, 1.0, 1e6));
}

std::optional<int64_t> RecordedApplication::OffersTasksUntilMs(const RecordedExecutor& executor,
                                                               bool* estimated) const {
  if (estimated != nullptr) *estimated = false;
  if (!executor.removed_time_ms) return std::nullopt;
  auto property = [&](const char* key) -> std::optional<std::string> {
    auto it = spark_properties.find(key);
    if (it == spark_properties.end()) return std::nullopt;
    return it->second;
  };
  const bool dynamic = ParseBool(property("spark.dynamicAllocation.enabled").value_or("")).value_or(false);
  if (!dynamic || executor.removed_reason.find("killed by driver") == std::string::npos)
    return executor.removed_time_ms;
  double idle_seconds = 60;
  if (auto v = property("spark.dynamicAllocation.executorIdleTimeout"))
    idle_seconds = ParseTimeStringSeconds(*v, 1.0).value_or(idle_seconds);
  // Idle since its last task that ended before the removal (or since it registered).
  int64_t idle_from = executor.added_time_ms;
  for (const auto& [id, st] : stages) {
    for (const RecordedTask& t : st.tasks) {
      if (t.executor_id == executor.executor_id && t.finish_time_ms <= *executor.removed_time_ms)
        idle_from = std::max(idle_from, t.finish_time_ms);
    }
  }
  const int64_t decided = idle_from + static_cast<int64_t>(idle_seconds * 1000.0);
  if (decided >= *executor.removed_time_ms) return executor.removed_time_ms;
  if (estimated != nullptr) *estimated = true;
  return std::max(decided, executor.added_time_ms + 1);
}

int64_t RecordedApplication::JobShuffleBytes(int job_id) const {
  auto it = jobs.find(job_id);
  if (it == jobs.end()) return 0;
  int64_t total = 0;
  for (int s : it->second.stage_ids) {
    const RecordedStage* st = stage(s);
    if (st != nullptr && st->submitted) total += st->shuffle_write_bytes;
  }
  return total;
}

int64_t RecordedApplication::ExecutionShuffleBytes(int64_t execution_id) const {
  int64_t total = 0;
  for (const auto& [id, job] : jobs) {
    if (job.execution_id == execution_id) total += JobShuffleBytes(id);
  }
  return total;
}

RecordedApplication ReadEventLog(const std::string& path, std::vector<std::string>* warnings) {
  std::vector<std::string> local_warnings;
  if (warnings == nullptr) warnings = &local_warnings;
  RecordedApplication app;
  app.path = path;
  EventLogLineReader reader(path);
  Parser parser(&app, warnings);
  EventLogLine line;
  size_t reader_warnings = 0;
  while (reader.Next(&line)) {
    ++app.lines;
    for (; reader_warnings < reader.warnings().size(); ++reader_warnings)
      warnings->push_back(reader.warnings()[reader_warnings]);
    const std::string where = line.file + ":" + std::to_string(line.line_number);
    if (line.text.find_first_not_of(" \t") == std::string::npos) continue;
    json event = json::parse(line.text, nullptr, /*allow_exceptions=*/false);
    if (event.is_discarded() || !event.is_object()) {
      if (!line.terminated) {
        warnings->push_back(where + ": truncated last line ignored (log still being written?)");
      } else {
        warnings->push_back(where + ": not a JSON event, line skipped");
      }
      continue;
    }
    if (!event.contains("Event") || !event["Event"].is_string()) {
      warnings->push_back(where + ": JSON object without \"Event\", line skipped");
      continue;
    }
    parser.Consume(event, line);
  }
  for (; reader_warnings < reader.warnings().size(); ++reader_warnings)
    warnings->push_back(reader.warnings()[reader_warnings]);
  app.files = reader.files();
  if (app.events == 0) throw EventLogError(path + ": no Spark listener events found (not an event log?)");
  parser.Finish();
  return app;
}

}  // namespace aqesim::eventlog
