#include "tools/eventlog/recorded_application.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "models/conf/property_value.h"
#include "models/scenario/json_reader.h"
#include "tools/eventlog/application_reconstruction.h"
#include "tools/eventlog/line_reader.h"
#include "tools/eventlog/listener_event_replay.h"
#include "tools/text/terminal_text.h"

namespace aqesim::eventlog {

using nlohmann::json;

std::string_view EventShortName(std::string_view event) {
  const size_t dot = event.rfind('.');
  if (dot == std::string_view::npos) return event;
  // Keep "StreamingQueryListener.QueryStartedEvent"-style nested names readable.
  std::string_view tail = event.substr(dot + 1);
  return tail;
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
    const std::optional<std::string> v = spark_property(key);
    return v ? ParseDouble(*v) : std::nullopt;
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
  const bool dynamic =
      ParseBool(spark_property("spark.dynamicAllocation.enabled").value_or("")).value_or(false);
  if (!dynamic || executor.removed_reason.find("killed by driver") == std::string::npos)
    return executor.removed_time_ms;
  double idle_seconds = 60;
  if (auto v = spark_property("spark.dynamicAllocation.executorIdleTimeout"))
    idle_seconds = ParseTimeStringSeconds(*v, 1.0).value_or(idle_seconds);
  // Idle since its last task that ended before the removal (or since it registered).
  int64_t idle_from = executor.added_time_ms;
  for (const auto& [id, st] : stages) {
    for (const RecordedTask& t : st.tasks) {
      if (t.executor_id == executor.executor_id && t.finish_time_ms <= *executor.removed_time_ms)
        idle_from = std::max(idle_from, t.finish_time_ms);
    }
  }
  // Milliseconds idle before removal, truncated; a timeout beyond int64 never fires.
  const double idle_ms_double = idle_seconds * 1000.0;
  const int64_t idle_ms = idle_ms_double < 9.2e18 ? static_cast<int64_t>(std::max(idle_ms_double, -9.2e18))
                                                  : std::numeric_limits<int64_t>::max();
  const int64_t decided = SaturatingAdd(idle_from, idle_ms);
  if (decided >= *executor.removed_time_ms) return executor.removed_time_ms;
  if (estimated != nullptr) *estimated = true;
  return std::max(decided, SaturatingAdd(executor.added_time_ms, 1));
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
  // The execution's own job list, not a scan of every job: a Thrift server's log of 10^4
  // queries listed in 25 s, 3×10^4 not in 120 s (hostile round 2026-12-03, I0).
  auto ex = executions.find(execution_id);
  if (ex == executions.end()) return 0;
  int64_t total = 0;
  std::set<int> counted;
  for (int id : ex->second.job_ids) {
    auto job = jobs.find(id);
    if (job != jobs.end() && job->second.execution_id == execution_id && counted.insert(id).second)
      total += JobShuffleBytes(id);
  }
  return total;
}

RecordedApplication ReadEventLog(const std::string& path, std::vector<std::string>* warnings) {
  std::vector<std::string> local_warnings;
  if (warnings == nullptr) warnings = &local_warnings;
  RecordedApplication app;
  app.path = path;
  EventLogLineReader reader(path);
  ListenerEventReplay replay(&app, warnings);
  EventLogLine line;
  size_t reader_warnings = 0;
  while (reader.Next(&line)) {
    ++app.lines;
    for (; reader_warnings < reader.warnings().size(); ++reader_warnings)
      warnings->push_back(reader.warnings()[reader_warnings]);
    if (line.text.find_first_not_of(" \t") == std::string::npos) continue;
    const std::string where = line.file + ":" + std::to_string(line.line_number);
    if (JsonNestingTooDeep(line.text) != std::string::npos)  // recursive walks of the plan must not overflow
      throw EventLogError(where + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                          " levels (no Spark event is; a SQL plan that deep cannot be imported)");
    json event = json::parse(line.text, nullptr, /*allow_exceptions=*/false);
    if (event.is_discarded()) {
      // A string holding invalid UTF-8 (a description or call site written byte for byte): the
      // event is kept, its invalid bytes read as U+FFFD, rather than the line dropped.
      std::string repaired;
      for (size_t i = 0; i < line.text.size();) {
        const size_t start = i;
        const uint32_t cp = NextCodePoint(line.text, &i);
        if (cp == 0xFFFD && !(i - start == 3 && line.text.compare(start, 3, "\xEF\xBF\xBD") == 0))
          repaired += "\xEF\xBF\xBD";
        else
          repaired.append(line.text, start, i - start);
      }
      if (repaired != line.text) {
        event = json::parse(repaired, nullptr, /*allow_exceptions=*/false);
        if (!event.is_discarded())
          warnings->push_back(where + ": invalid UTF-8 in the event, read as U+FFFD");
      }
    }
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
    replay.Apply(event, where);
  }
  for (; reader_warnings < reader.warnings().size(); ++reader_warnings)
    warnings->push_back(reader.warnings()[reader_warnings]);
  app.lines += reader.blank_lines();
  app.files = reader.files();
  if (app.events == 0) {
    // A compressed log cut before its first block ends holds no line at all: say so, not "not a log".
    for (const std::string& w : reader.warnings())
      if (w.find(": compressed stream ends mid-block") != std::string::npos)
        throw EventLogError(w + ", before its first event: no Spark listener event could be read");
    throw EventLogError(path + ": no Spark listener events found (not an event log?)");
  }
  ReconstructStages(&app, warnings);
  ReconstructCluster(&app, replay.master_where());
  ReconstructAdaptiveExecutions(&app);
  if (!app.end_time_ms)
    warnings->push_back(app.path + ": no SparkListenerApplicationEnd: the log is incomplete");
  for (const auto& [id, job] : app.jobs) {
    if (!job.completion_time_ms)
      warnings->push_back(app.path + ": job " + std::to_string(id) + " has no JobEnd");
  }
  return app;
}

}  // namespace aqesim::eventlog
