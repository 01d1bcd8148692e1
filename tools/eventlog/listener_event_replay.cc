#include "tools/eventlog/listener_event_replay.h"

#include <cmath>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <tuple>

#include "models/plan/planned_properties.h"
#include "tools/eventlog/event_fields.h"
#include "tools/eventlog/event_log_error.h"
#include "tools/eventlog/sql_plan_info.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

/// `v` for an error: ASCII, at most about 60 characters.
std::string Abbreviated(const json& v) {
  std::string s = v.dump(-1, ' ', /*ensure_ascii=*/true, json::error_handler_t::replace);
  if (s.size() > 60) s = s.substr(0, 56) + " ...";
  return s;
}

/// How much longer than Launch → Finish a task's Executor Run Time may be before the log is
/// refused as damaged (ms): an hour, far beyond any clock step NTP makes.
constexpr int64_t kRunBeyondWallRefusedMs = 3'600'000;

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

}  // namespace

const std::unordered_map<std::string_view, ListenerEventReplay::Handler>& ListenerEventReplay::Handlers() {
  static const std::unordered_map<std::string_view, Handler> kHandlers = {
      {"SparkListenerLogStart", &ListenerEventReplay::OnLogStart},
      {"DBCEventLoggingListenerMetadata", &ListenerEventReplay::OnVendorLogStart},
      {"SparkListenerApplicationStart", &ListenerEventReplay::OnApplicationStart},
      {"SparkListenerApplicationEnd", &ListenerEventReplay::OnApplicationEnd},
      {"SparkListenerEnvironmentUpdate", &ListenerEventReplay::OnEnvironmentUpdate},
      {"SparkListenerResourceProfileAdded", &ListenerEventReplay::OnResourceProfileAdded},
      {"SparkListenerExecutorAdded", &ListenerEventReplay::OnExecutorAdded},
      {"SparkListenerExecutorRemoved", &ListenerEventReplay::OnExecutorRemoved},
      {"SparkListenerJobStart", &ListenerEventReplay::OnJobStart},
      {"SparkListenerJobEnd", &ListenerEventReplay::OnJobEnd},
      {"SparkListenerStageSubmitted", &ListenerEventReplay::OnStageSubmitted},
      {"SparkListenerStageCompleted", &ListenerEventReplay::OnStageCompleted},
      {"SparkListenerTaskEnd", &ListenerEventReplay::OnTaskEnd},
      {"SparkListenerSQLExecutionStart", &ListenerEventReplay::OnSqlExecutionStart},
      {"SparkListenerSQLAdaptiveExecutionUpdate", &ListenerEventReplay::OnSqlAdaptiveExecutionUpdate},
      {"SparkListenerDriverAccumUpdates", &ListenerEventReplay::OnDriverAccumUpdates},
      {"SparkListenerSQLExecutionEnd", &ListenerEventReplay::OnSqlExecutionEnd},
  };
  return kHandlers;
}

void ListenerEventReplay::Apply(const json& e, const std::string& where) {
  const std::string event_name = StringField(e, "Event");
  const std::string_view ev = EventShortName(event_name);
  ++app_->events;
  where_ = where;
  event_ = ev;
  if (auto it = Handlers().find(ev); it != Handlers().end()) {
    // A SQL event belongs to the execution its executionId names: without a valid one (a string,
    // a fraction, beyond 2^63) it belongs to none, and is skipped rather than filed under -1.
    if (ev.rfind("SparkListenerSQL", 0) == 0 || ev == "SparkListenerDriverAccumUpdates") {
      const json& id = Field(e, "executionId");
      if (!id.is_number_integer() || !AsInt(id) || *AsInt(id) < 0) {
        warnings_->push_back(
            where_ + ": " + std::string(ev) +
            " without a valid executionId (expected an integer >= 0, found " +
            (id.is_null() ? std::string("none") : id.dump(-1, ' ', false, json::error_handler_t::replace)) +
            "), event skipped");
        return;
      }
    }
    (this->*(it->second))(e);
  } else if (!IsKnownIgnoredEvent(ev)) {
    ++app_->unknown_events;
    if (unknown_seen_.insert(event_name).second) {
      warnings_->push_back(where_ + ": unknown event \"" + event_name + "\" ignored");
    }
  }
}

void ListenerEventReplay::OnLogStart(const json& e) { app_->spark_version = StringField(e, "Spark Version"); }

void ListenerEventReplay::OnVendorLogStart(const json& e) {
  // Databricks writes its own first event instead of SparkListenerLogStart, with the same
  // "Spark Version" field; a LogStart, when a log has both, wins.
  const std::string version = StringField(e, "Spark Version");
  if (!version.empty() && !app_->spark_version) app_->spark_version = version;
}

void ListenerEventReplay::OnApplicationStart(const json& e) {
  // One log, one application: a second start is a repeated line (same App ID, ignored) or
  // another application's log appended to this one, whose job, stage and task ids collide with
  // this one's (two logs concatenated were refused only as the imported scenario's
  // /profiles/e1 map/tailSeconds of 102038270 s).
  if (!app_start_where_.empty()) {
    if (StringField(e, "App ID") == app_->app_id) return;
    throw EventLogError(where_ + ": SparkListenerApplicationStart of a second application (App ID " +
                        Abbreviated(Field(e, "App ID")) + ", after " + Abbreviated(json(app_->app_id)) +
                        " at " + app_start_where_ +
                        "): one event log holds one application (logs concatenated?)");
  }
  app_->app_id = StringField(e, "App ID");
  app_->app_name = StringField(e, "App Name");
  app_->start_time_ms = Time(e, "Timestamp");
  app_start_where_ = where_;
}

void ListenerEventReplay::OnApplicationEnd(const json& e) { app_->end_time_ms = Time(e, "Timestamp"); }

void ListenerEventReplay::OnEnvironmentUpdate(const json& e) {
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

void ListenerEventReplay::SetProperty(const std::string& key, const std::string& value) {
  app_->spark_properties[key] = value;
  app_->property_where[key] = where_;
  if (key == "spark.master") master_where_ = where_;
}

void ListenerEventReplay::OnResourceProfileAdded(const json& e) {
  const json& req = Field(e, "Executor Resource Requests");
  const json& task = Field(e, "Task Resource Requests");
  RecordedResourceProfile rp;
  rp.id = static_cast<int>(Number(e, "Resource Profile Id").value_or(-1));
  if (auto c = Number(Field(req, "cores"), "Amount", "Executor Resource Requests.cores")) {
    if (*c < 1 || *c > 100'000)  // ExecutorAdded's Total Cores range
      RefuseField("Executor Resource Requests.cores", "Amount",
                  "expected 1 to 100000, found " + std::to_string(*c));
    rp.executor_cores = static_cast<int>(*c);
  }
  rp.executor_memory_mib = Number(Field(req, "memory"), "Amount", "Executor Resource Requests.memory");
  rp.executor_gpus = Amount(Field(req, "gpu"), "Amount", "Executor Resource Requests.gpu");
  rp.task_cpus = Amount(Field(task, "cpus"), "Amount", "Task Resource Requests.cpus");
  rp.task_gpus = Amount(Field(task, "gpu"), "Amount", "Task Resource Requests.gpu");
  // A profile whose tasks each need more CPUs than its executors have runs no task (the default
  // profile's executor cores may be the unused spark.executor.cores of a local master: not checked).
  if (rp.id != 0 && rp.executor_cores && rp.task_cpus && *rp.task_cpus > *rp.executor_cores)
    RefuseField("Task Resource Requests.cpus", "Amount",
                json(*rp.task_cpus).dump() + " is more than the profile's executor cores " +
                    std::to_string(*rp.executor_cores) +
                    " (Executor Resource Requests.cores.Amount): no task of resource profile " +
                    std::to_string(rp.id) + " could run");
  if (rp.id == 0) {
    app_->profile_executor_cores = rp.executor_cores;
    app_->profile_executor_memory_mib = rp.executor_memory_mib;
  }
  if (rp.id >= 0) app_->resource_profiles[rp.id] = rp;
}

void ListenerEventReplay::OnExecutorAdded(const json& e) {
  RecordedExecutor ex;
  ex.executor_id = StringField(e, "Executor ID");
  ex.added_time_ms = Time(e, "Timestamp").value_or(0);
  const json& info = Field(e, "Executor Info");
  ex.host = StringField(info, "Host");
  // An executor's cores bound its task slots: 0, -4 or 2^31-1 is damage, refused here at its line
  // (-4 was imported silently as 1 core; 2^31-1 was refused only as the imported scenario's
  // /cluster/executorCores). The scenario loader's range.
  const std::optional<int64_t> cores = Number(info, "Total Cores", "Executor Info");
  if (cores && (*cores < 1 || *cores > 100'000))
    throw EventLogError(where_ + ": ExecutorAdded of executor " + ex.executor_id +
                        ": Total Cores: expected 1 to 100000, found " + info["Total Cores"].dump());
  ex.total_cores = static_cast<int>(cores.value_or(0));
  ex.resource_profile_id = static_cast<int>(Count(info, "Resource Profile Id", "Executor Info"));
  // Spark never reuses an executor id: a second ExecutorAdded of a registered executor (a log
  // with repeated lines) would count it twice (every line logged twice imported 14 executors
  // of 4 cores for 7).
  if (!live_executors_.emplace(ex.executor_id, app_->executors.size()).second) {
    if (!warned_executor_repeat_)
      warnings_->push_back(
          where_ + ": executor " + ex.executor_id +
          " is added a second time while registered (SparkListenerExecutorAdded logged "
          "twice?); this and any later repeat of a registered executor's addition are ignored");
    warned_executor_repeat_ = true;
    return;
  }
  app_->executors.push_back(std::move(ex));
}

void ListenerEventReplay::OnExecutorRemoved(const json& e) {
  const std::string id = StringField(e, "Executor ID");
  const auto live = live_executors_.find(id);
  if (live == live_executors_.end()) {
    // Spark removes only a registered executor: out-of-order events (a reversed log kept its 8th
    // executor for the whole run, silently) or a lost ExecutorAdded. Not seen in real logs.
    if (!warned_unknown_removal_)
      warnings_->push_back(where_ + ": executor " + id +
                           " is removed but is not registered (events out of order, or its "
                           "SparkListenerExecutorAdded lost?); this and any later such removal are ignored");
    warned_unknown_removal_ = true;
    return;
  }
  RecordedExecutor& ex = app_->executors[live->second];
  const int64_t removed_ms = Time(e, "Timestamp").value_or(0);
  if (removed_ms < ex.added_time_ms) {
    // A removal timed before its addition (a clock or an edit gone wrong) made a lifetime that
    // ends before it begins: the executor counted nowhere (a 6-executor log imported as a
    // 1-executor cluster, silently). It stays registered until a later removal or the end.
    if (!warned_removal_before_add_)
      warnings_->push_back(where_ + ": executor " + id + "'s SparkListenerExecutorRemoved (Timestamp " +
                           std::to_string(removed_ms) +
                           ") is before its SparkListenerExecutorAdded (Timestamp " +
                           std::to_string(ex.added_time_ms) +
                           "); this and any later removal timed before its executor's addition are ignored "
                           "(the executor is kept until a later removal or the end)");
    warned_removal_before_add_ = true;
    return;
  }
  ex.removed_time_ms = removed_ms;
  ex.removed_reason = StringField(e, "Removed Reason");
  live_executors_.erase(live);
}

void ListenerEventReplay::OnJobStart(const json& e) {
  const int id = IdField(e, "Job ID", "JobStart");
  // A job starts once: a second JobStart of the same id (a log with repeated lines) would list
  // its stages and add it to its execution again, counting its tasks and bytes twice (hostile
  // round I7: every line logged twice listed 2 jobs, 4× the stages and tasks, 2× the bytes).
  if (!started_jobs_.insert(id).second) {
    if (!warned_job_restart_)
      warnings_->push_back(where_ + ": job " + std::to_string(id) +
                           " starts a second time (SparkListenerJobStart logged twice?); this and any later "
                           "repeat of a job's start are ignored");
    warned_job_restart_ = true;
    return;
  }
  RecordedJob& job = app_->jobs[id];
  job.job_id = id;
  job.submission_time_ms = Time(e, "Submission Time");
  const json& props = Field(e, "Properties");
  if (props.is_object() && props.contains("spark.sql.execution.id")) {
    const std::optional<int64_t> ex = AsInt(props["spark.sql.execution.id"]);
    if (ex && *ex >= 0 && !props["spark.sql.execution.id"].is_number_float())
      job.execution_id = *ex;
    else
      warnings_->push_back(
          where_ + ": job " + std::to_string(id) +
          "'s spark.sql.execution.id is not an integer >= 0; the job is read as outside SQL");
  }
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
      if (!s.is_null()) job.stage_ids.push_back(CheckId(s, "Stage IDs", "JobStart"));
    }
  }
  if (job.execution_id) app_->executions[*job.execution_id].job_ids.push_back(id);
}

void ListenerEventReplay::OnJobEnd(const json& e) {
  const int id = IdField(e, "Job ID", "JobEnd");
  RecordedJob& job = app_->jobs[id];
  job.job_id = id;
  job.completion_time_ms = Time(e, "Completion Time");
  job.result = StringField(Field(e, "Job Result"), "Result");
}

void ListenerEventReplay::OnStageSubmitted(const json& e) {
  RecordedStage& st = StageFromInfo(Field(e, "Stage Info"));
  st.submitted = true;
  ++st.attempts;
  if (!st.submission_time_ms)
    st.submission_time_ms = Time(Field(e, "Stage Info"), "Submission Time", "Stage Info");
}

void ListenerEventReplay::OnStageCompleted(const json& e) {
  const json& info = Field(e, "Stage Info");
  RecordedStage& st = StageFromInfo(info);
  st.submitted = true;
  if (!st.submission_time_ms) st.submission_time_ms = Time(info, "Submission Time", "Stage Info");
  st.completion_time_ms = Time(info, "Completion Time", "Stage Info");
  const std::string failure = StringField(info, "Failure Reason");
  if (!failure.empty()) st.failure_reason = failure.substr(0, failure.find('\n'));
}

void ListenerEventReplay::OnTaskEnd(const json& e) {
  RecordedTask t;
  t.stage_id = IdField(e, "Stage ID", "TaskEnd");
  t.stage_attempt = static_cast<int>(Count(e, "Stage Attempt ID"));
  t.task_type = StringField(e, "Task Type");
  t.end_reason = StringField(Field(e, "Task End Reason"), "Reason");
  if (const json& by_app = Field(Field(e, "Task End Reason"), "Exit Caused By App"); by_app.is_boolean())
    t.exit_caused_by_app = by_app.get<bool>();
  const json& info = Field(e, "Task Info");
  // A task id ends once per end reason: a second TaskEnd with the same reason (a log with
  // repeated lines) would add its SQL metrics again (hostile round I7: the imported rows
  // doubled). Spark itself logs a second one for a map task whose output was lost, with reason
  // Resubmitted (DAGScheduler), which is kept.
  if (const std::optional<int64_t> id = Number(info, "Task ID", "Task Info");
      id && !ended_tasks_.emplace(*id, StringField(Field(e, "Task End Reason"), "Reason")).second) {
    if (!warned_task_repeat_)
      warnings_->push_back(where_ + ": task " + std::to_string(*id) +
                           " ends a second time for the same reason (SparkListenerTaskEnd logged twice?); "
                           "this and any later repeat of a task's end are ignored");
    warned_task_repeat_ = true;
    return;
  }
  t.task_id = Count(info, "Task ID", "Task Info");
  t.index = static_cast<int>(Count(info, "Index", "Task Info"));
  t.attempt = static_cast<int>(Count(info, "Attempt", "Task Info"));
  t.speculative = BoolField(info, "Speculative");
  t.executor_id = StringField(info, "Executor ID");
  t.locality = StringField(info, "Locality");
  // Every Spark version writes both: a task without them would be read as running from 1970
  // (refused only as the imported scenario's /profiles/.../tailSeconds).
  const std::optional<int64_t> launch = Time(info, "Launch Time", "Task Info");
  const std::optional<int64_t> finish = Time(info, "Finish Time", "Task Info");
  if (!launch || !finish) {
    if (!info.is_object())
      RefuseField(nullptr, "Task Info",
                  "expected an object, found " + (e.contains("Task Info") ? Abbreviated(info) : "none"));
    RefuseField("Task Info", !launch ? "Launch Time" : "Finish Time",
                "expected a time in ms since the epoch, found none");
  }
  t.launch_time_ms = *launch;
  t.finish_time_ms = *finish;
  // 0 when the driver did not fetch the result apart (Spark writes it so).
  if (Count(info, "Getting Result Time", "Task Info") != 0)
    t.getting_result_time_ms = Time(info, "Getting Result Time", "Task Info").value_or(0);
  const bool finishes_after_launch = t.finish_time_ms >= t.launch_time_ms;
  if (!finishes_after_launch) {
    // A damaged or hand-made log: no schedule can hold a task that ends before it starts.
    warnings_->push_back(where_ + ": TaskEnd of task " + std::to_string(t.task_id) + " (stage " +
                         std::to_string(t.stage_id) + ") finishes before it launches (Launch Time " +
                         std::to_string(t.launch_time_ms) + " ms, Finish Time " +
                         std::to_string(t.finish_time_ms) + " ms); its finish is taken as its launch");
    t.finish_time_ms = t.launch_time_ms;
  }
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
  t.executor_run_time_ms = Count(m, "Executor Run Time", "Task Metrics");
  t.executor_deserialize_time_ms = Count(m, "Executor Deserialize Time", "Task Metrics");
  t.result_serialization_time_ms = Count(m, "Result Serialization Time", "Task Metrics");
  t.jvm_gc_time_ms = Count(m, "JVM GC Time", "Task Metrics");
  t.result_size_bytes = Count(m, "Result Size", "Task Metrics");
  t.executor_cpu_time_ns = Count(m, "Executor CPU Time", "Task Metrics");
  t.memory_bytes_spilled = Count(m, "Memory Bytes Spilled", "Task Metrics");
  t.disk_bytes_spilled = Count(m, "Disk Bytes Spilled", "Task Metrics");
  const json& in = Field(m, "Input Metrics");
  t.input_bytes = Count(in, "Bytes Read", "Task Metrics.Input Metrics");
  t.input_records = Count(in, "Records Read", "Task Metrics.Input Metrics");
  const json& rd = Field(m, "Shuffle Read Metrics");
  t.shuffle_remote_bytes_read = Count(rd, "Remote Bytes Read", "Task Metrics.Shuffle Read Metrics");
  t.shuffle_local_bytes_read = Count(rd, "Local Bytes Read", "Task Metrics.Shuffle Read Metrics");
  t.shuffle_records_read = Count(rd, "Total Records Read", "Task Metrics.Shuffle Read Metrics");
  t.remote_blocks_fetched = Count(rd, "Remote Blocks Fetched", "Task Metrics.Shuffle Read Metrics");
  t.local_blocks_fetched = Count(rd, "Local Blocks Fetched", "Task Metrics.Shuffle Read Metrics");
  t.fetch_wait_time_ms = Count(rd, "Fetch Wait Time", "Task Metrics.Shuffle Read Metrics");
  const json& wr = Field(m, "Shuffle Write Metrics");
  t.shuffle_bytes_written = Count(wr, "Shuffle Bytes Written", "Task Metrics.Shuffle Write Metrics");
  t.shuffle_records_written = Count(wr, "Shuffle Records Written", "Task Metrics.Shuffle Write Metrics");
  t.shuffle_write_time_ns = Count(wr, "Shuffle Write Time", "Task Metrics.Shuffle Write Metrics");
  t.output_bytes = Count(Field(m, "Output Metrics"), "Bytes Written", "Task Metrics.Output Metrics");
  // The executor measures a task's run (a monotonic clock) inside the span the driver logs from
  // its launch to its finish (its wall clock, which a clock step can shorten): a run longer by
  // more than kRunBeyondWallRefusedMs is damage (it became the imported stage's fixedSeconds,
  // refused only as the scenario's /profiles/.../fixedSeconds); a little longer is taken as the
  // span, warned once. Real logs of Spark 1.6 to 3.5 show neither.
  if (finishes_after_launch && t.executor_run_time_ms > t.wall_ms()) {
    const std::string what = std::to_string(t.executor_run_time_ms) + " ms is longer than the task's " +
                             std::to_string(t.wall_ms()) + " ms from Launch Time to Finish Time";
    if (t.executor_run_time_ms - t.wall_ms() > kRunBeyondWallRefusedMs)
      RefuseField("Task Metrics", "Executor Run Time", what + ": the log is damaged");
    if (!warned_run_beyond_wall_)
      warnings_->push_back(
          where_ + ": TaskEnd of task " + std::to_string(t.task_id) + ": Executor Run Time " + what +
          " (a step of the driver's clock?): taken as the span, here and in any later task like it");
    warned_run_beyond_wall_ = true;
    t.executor_run_time_ms = t.wall_ms();
  }

  CheckTaskCounters(t);

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

void ListenerEventReplay::CheckTaskCounters(const RecordedTask& t) {
  const std::pair<const char*, int64_t> counters[] = {
      {"Executor Run Time", t.executor_run_time_ms},
      {"Executor Deserialize Time", t.executor_deserialize_time_ms},
      {"Result Serialization Time", t.result_serialization_time_ms},
      {"JVM GC Time", t.jvm_gc_time_ms},
      {"Result Size", t.result_size_bytes},
      {"Executor CPU Time", t.executor_cpu_time_ns},
      {"Memory Bytes Spilled", t.memory_bytes_spilled},
      {"Disk Bytes Spilled", t.disk_bytes_spilled},
      {"Input Metrics.Bytes Read", t.input_bytes},
      {"Input Metrics.Records Read", t.input_records},
      {"Remote Bytes Read", t.shuffle_remote_bytes_read},
      {"Local Bytes Read", t.shuffle_local_bytes_read},
      {"Total Records Read", t.shuffle_records_read},
      {"Remote Blocks Fetched", t.remote_blocks_fetched},
      {"Local Blocks Fetched", t.local_blocks_fetched},
      {"Fetch Wait Time", t.fetch_wait_time_ms},
      {"Shuffle Bytes Written", t.shuffle_bytes_written},
      {"Shuffle Records Written", t.shuffle_records_written},
      {"Shuffle Write Time", t.shuffle_write_time_ns},
      {"Output Metrics.Bytes Written", t.output_bytes},
  };
  static_assert(std::size(counters) == std::tuple_size_v<decltype(counter_totals_)>);
  auto refuse = [&](const std::string& what) {
    throw EventLogError(where_ + ": TaskEnd of task " + std::to_string(t.task_id) + " (stage " +
                        std::to_string(t.stage_id) + "): " + what);
  };
  for (size_t i = 0; i < std::size(counters); ++i) {
    const auto& [name, value] = counters[i];
    if (value < 0) refuse(std::string(name) + ": expected a count >= 0, found " + std::to_string(value));
    // Both at most 2^60, so the sum cannot wrap; every later sum over a subset of the tasks is
    // bounded by the total.
    if (value > kMaxRecordedCounterTotal || counter_totals_[i] + value > kMaxRecordedCounterTotal)
      refuse(std::string(name) + ": " + std::to_string(value) + " brings the log's total past 2^60 (" +
             std::to_string(kMaxRecordedCounterTotal) +
             "; 1 EiB as bytes, 36,000 years as milliseconds), which no Spark application records: the "
             "log is damaged");
    counter_totals_[i] += value;
  }
  for (const auto& [id, update] : t.sql_metric_updates) {
    // SQL metrics may be negative (an unset size is -1); their magnitudes are bounded alike.
    int64_t& total = sql_metric_totals_[id];
    if (update < -kMaxRecordedCounterTotal || update > kMaxRecordedCounterTotal ||
        total + (update < 0 ? -update : update) > kMaxRecordedCounterTotal)
      refuse("SQL metric " + std::to_string(id) + ": update " + std::to_string(update) +
             " brings the log's total past 2^60, which no Spark application records: the log is damaged");
    total += update < 0 ? -update : update;
  }
}

RecordedSqlExecution& ListenerEventReplay::ExecutionOf(const json& e) {
  const int64_t id = IntField(e, "executionId", -1);
  RecordedSqlExecution& ex = app_->executions[id];
  ex.execution_id = id;
  return ex;
}

void ListenerEventReplay::OnSqlExecutionStart(const json& e) {
  RecordedSqlExecution& ex = ExecutionOf(e);
  ex.description = StringField(e, "description");
  ex.start_time_ms = Time(e, "time");
  ex.plans.insert(ex.plans.begin(), ParseSparkPlanInfo(Field(e, "sparkPlanInfo")));
  ex.physical_descriptions.insert(ex.physical_descriptions.begin(),
                                  StringField(e, "physicalPlanDescription"));
}

void ListenerEventReplay::OnSqlAdaptiveExecutionUpdate(const json& e) {
  RecordedSqlExecution& ex = ExecutionOf(e);
  ex.plans.push_back(ParseSparkPlanInfo(Field(e, "sparkPlanInfo")));
  ex.physical_descriptions.push_back(StringField(e, "physicalPlanDescription"));
}

void ListenerEventReplay::OnDriverAccumUpdates(const json& e) {
  RecordedSqlExecution& ex = ExecutionOf(e);
  const json& updates = Field(e, "accumUpdates");
  if (!updates.is_array()) return;
  for (const json& u : updates) {
    if (!u.is_array() || u.size() != 2) continue;
    auto acc = AsInt(u[0]);
    auto val = AsInt(u[1]);
    if (acc && val) ex.driver_updates[*acc].push_back(*val);
  }
}

void ListenerEventReplay::OnSqlExecutionEnd(const json& e) { ExecutionOf(e).end_time_ms = Time(e, "time"); }

int ListenerEventReplay::CheckId(const json& v, const char* key, const char* event) const {
  if (!v.is_number())
    throw EventLogError(where_ + ": " + event + ": " + key + ": expected an id from 0 to " +
                        std::to_string(std::numeric_limits<int>::max()) + ", found " + Abbreviated(v));
  const int64_t id = AsInt(v).value_or(-1);
  // Spark's stage and job ids are Ints: one past 32 bits would wrap onto another id (2^62 became
  // stage 0, merging two stages) or turn negative.
  if (id < 0 || id > std::numeric_limits<int>::max())
    throw EventLogError(where_ + ": " + event + ": " + key + ": expected an id from 0 to " +
                        std::to_string(std::numeric_limits<int>::max()) + ", found " + v.dump());
  return static_cast<int>(id);
}

int ListenerEventReplay::IdField(const json& obj, const char* key, const char* event) const {
  if (!obj.is_object()) return -1;
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return -1;
  return CheckId(*it, key, event);
}

std::optional<int64_t> ListenerEventReplay::Number(const json& obj, const char* key,
                                                   const char* parent) const {
  if (!obj.is_object()) return std::nullopt;
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (it->is_number()) {
    if (const std::optional<int64_t> v = AsInt(*it)) return v;
    RefuseField(parent, key, "expected a number within 64 bits, found " + Abbreviated(*it));
  }
  RefuseField(parent, key, "expected a number, found " + Abbreviated(*it));
}

std::optional<int64_t> ListenerEventReplay::Time(const json& obj, const char* key, const char* parent) const {
  const std::optional<int64_t> t = Number(obj, key, parent);
  if (!t) return t;
  if (*t < 0)
    RefuseField(parent, key, "expected a time in ms since the epoch (>= 0), found " + std::to_string(*t));
  const std::optional<int64_t> start = app_->start_time_ms;
  if (!start || app_start_where_ == where_) return t;
  // Both within int64: |t - start| < 2^63 as both are >= 0.
  const int64_t after = *t - *start;
  if (after >= -kTimeBeforeStartMs && after <= kTimeAfterStartMs) return t;
  const int64_t days = (after < 0 ? -after : after) / 86'400'000;
  RefuseField(parent, key,
              std::to_string(*t) + " is " + std::to_string(days) + " days " +
                  (after < 0 ? "before" : "after") + " the application's start (Timestamp " +
                  std::to_string(*start) + " at " + app_start_where_ + "): the log is damaged");
}

std::optional<double> ListenerEventReplay::Amount(const json& obj, const char* key,
                                                  const char* parent) const {
  if (!obj.is_object()) return std::nullopt;
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  if (!it->is_number()) RefuseField(parent, key, "expected a number, found " + Abbreviated(*it));
  const double d = it->get<double>();
  if (!std::isfinite(d)) RefuseField(parent, key, "expected a finite number, found " + Abbreviated(*it));
  return d;
}

void ListenerEventReplay::RefuseField(const char* parent, const char* key, const std::string& what) const {
  throw EventLogError(where_ + ": " + std::string(event_) + ": " +
                      (parent != nullptr ? std::string(parent) + "." : std::string()) + key + ": " + what);
}

RecordedStage& ListenerEventReplay::StageFromInfo(const json& info) {
  const int id = IdField(info, "Stage ID", "Stage Info");
  RecordedStage& st = app_->stages[id];
  st.stage_id = id;
  if (st.declared_at.empty()) st.declared_at = where_;
  if (st.name.empty()) st.name = StringField(info, "Stage Name");
  if (auto n = Number(info, "Number of Tasks", "Stage Info")) {
    // Bounded before anything is sized by it: the scenario loader's limit on an operator's tasks.
    if (*n < 0 || *n > kMaxPlannedTasks)
      throw EventLogError(where_ + ": stage " + std::to_string(id) + ": Number of Tasks: expected 0 to " +
                          std::to_string(kMaxPlannedTasks) + " (the most tasks a stage may have, README " +
                          "\"Input limits\"), found " + std::to_string(*n));
    // Summed over the log's stages: 300 stages of 10^7 tasks each (one TaskEnd apiece) ran the
    // importer out of memory (std::bad_alloc, exit 1) sizing their map outputs.
    int64_t& planned = planned_tasks_[id];
    if (*n > planned) {
      planned_tasks_total_ += *n - planned;
      planned = *n;
      if (planned_tasks_total_ > kMaxLogPlannedTasks)
        throw EventLogError(where_ + ": stage " + std::to_string(id) + ": Number of Tasks " +
                            std::to_string(*n) + " brings the tasks the log's stages plan together past " +
                            std::to_string(kMaxLogPlannedTasks) +
                            ", the most an import holds (a log of that many tasks has 10^8 TaskEnd lines, "
                            "about 200 GB): the log is damaged");
    }
    // A 0 beside tasks that ran (a log written by a tool, not Spark): ReconstructStages counts
    // them; a positive count another event gave stays.
    if (*n == 0 && st.zero_tasks_at.empty()) st.zero_tasks_at = where_;
    if (*n > 0 || st.num_tasks == 0) st.num_tasks = static_cast<int>(*n);
  }
  if (auto rp = Number(info, "Resource Profile Id", "Stage Info"))
    st.resource_profile_id = static_cast<int>(*rp);
  const json& parents = Field(info, "Parent IDs");
  if (parents.is_array() && st.parent_ids.empty()) {
    for (const json& p : parents) {
      if (!p.is_null()) st.parent_ids.push_back(CheckId(p, "Parent IDs", "Stage Info"));
    }
  }
  const json& rdds = Field(info, "RDD Info");
  if (rdds.is_array() && st.rdd_ids.empty()) {
    for (const json& r : rdds) {
      if (auto v = Number(r, "RDD ID", "Stage Info.RDD Info[]")) st.rdd_ids.push_back(*v);
    }
  }
  return st;
}

}  // namespace aqesim::eventlog
