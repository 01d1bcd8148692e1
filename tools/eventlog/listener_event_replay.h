// Replays the SparkListener events of a log, one JSON object a line, into a
// RecordedApplication. One handler per event type, looked up by the event's short name in one
// table (Handlers()); events the reconstruction does not need but that a log is expected to hold
// are ignored silently, any other is counted and named once in a warning.
// Events: core/.../scheduler/SparkListener.scala, written by core/.../util/JsonProtocol.scala;
// the SQL ones by sql/core/.../execution/ui/SQLListener.scala. Field guide:
// docs/eventlog-fields.md.
#ifndef AQESIM_TOOLS_EVENTLOG_LISTENER_EVENT_REPLAY_H_
#define AQESIM_TOOLS_EVENTLOG_LISTENER_EVENT_REPLAY_H_

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

/// The most any task counter (bytes, records, milliseconds, nanoseconds) may add up to over a
/// log: 2^60, 1 EiB or 36,000 years of task time; a damaged log's counter beyond it is refused.
inline constexpr int64_t kMaxRecordedCounterTotal = int64_t{1} << 60;

/// The most tasks a log's stages may plan together (each stage counted once, at its largest
/// Number of Tasks): the importer holds a map output per planned map task, 8 bytes each. A log
/// near it would hold 10^8 TaskEnd lines (about 200 GB).
inline constexpr int64_t kMaxLogPlannedTasks = int64_t{100'000'000};

/// How far before the application's start (ApplicationStart's Timestamp, SparkContext's
/// startTime) a time of its log may lie, for a driver clock stepped back: 1 day.
inline constexpr int64_t kTimeBeforeStartMs = int64_t{86'400'000};
/// How far after it: 1e9 s, about 31.7 years (a scenario's executorTimeline holds +-1e9 s).
inline constexpr int64_t kTimeAfterStartMs = int64_t{1'000'000'000'000};

class ListenerEventReplay {
 public:
  ListenerEventReplay(RecordedApplication* app, std::vector<std::string>* warnings)
      : app_(app), warnings_(warnings) {}

  /// Applies one event: a JSON object whose "Event" is a string. `where` ("FILE:LINE") is
  /// where warnings point.
  void Apply(const nlohmann::json& event, const std::string& where);

  /// "FILE:LINE" of the environment update that last set spark.master; "" when none did.
  const std::string& master_where() const { return master_where_; }

 private:
  using Handler = void (ListenerEventReplay::*)(const nlohmann::json& event);
  /// Event short name ("SparkListenerTaskEnd") -> its handler.
  static const std::unordered_map<std::string_view, Handler>& Handlers();

  void OnLogStart(const nlohmann::json& e);
  /// Databricks' DBCEventLoggingListenerMetadata: the Spark version when no LogStart gave one.
  void OnVendorLogStart(const nlohmann::json& e);
  void OnApplicationStart(const nlohmann::json& e);
  void OnApplicationEnd(const nlohmann::json& e);
  void OnEnvironmentUpdate(const nlohmann::json& e);
  void OnResourceProfileAdded(const nlohmann::json& e);
  void OnExecutorAdded(const nlohmann::json& e);
  void OnExecutorRemoved(const nlohmann::json& e);
  void OnJobStart(const nlohmann::json& e);
  void OnJobEnd(const nlohmann::json& e);
  void OnStageSubmitted(const nlohmann::json& e);
  void OnStageCompleted(const nlohmann::json& e);
  void OnTaskEnd(const nlohmann::json& e);
  void OnSqlExecutionStart(const nlohmann::json& e);
  void OnSqlAdaptiveExecutionUpdate(const nlohmann::json& e);
  void OnDriverAccumUpdates(const nlohmann::json& e);
  void OnSqlExecutionEnd(const nlohmann::json& e);

  void SetProperty(const std::string& key, const std::string& value);
  /// Refuses (EventLogError at the event's FILE:LINE) a task whose byte, record or time counter
  /// is negative or brings the log's total of that counter (of a SQL metric: of its magnitudes)
  /// past kMaxRecordedCounterTotal: every sum the importer takes then fits an int64.
  void CheckTaskCounters(const RecordedTask& t);
  /// A stage or job id (`v`, the value of `key` in an `event`): refused (EventLogError at the
  /// event's FILE:LINE) when it is not from 0 to INT_MAX.
  int CheckId(const nlohmann::json& v, const char* key, const char* event) const;
  /// `obj[key]` by CheckId; -1 when absent or null.
  int IdField(const nlohmann::json& obj, const char* key, const char* event) const;
  /// `obj[key]` where Spark's JsonProtocol writes a number (and, from Spark 3.4, refuses to read
  /// anything else): nullopt when absent or null, the integer when a number (a fraction truncated,
  /// as Jackson's longValue); EventLogError at the event's FILE:LINE naming the field
  /// ("SparkListenerTaskEnd: Task Metrics.Executor Run Time: expected a number, found \"1234\"")
  /// for a string (even of digits), a boolean, an object or an array, and for a number beyond
  /// int64. `parent` is the path of `obj` in the event ("Task Metrics"), nullptr at the top.
  std::optional<int64_t> Number(const nlohmann::json& obj, const char* key,
                                const char* parent = nullptr) const;
  /// Number(), 0 when absent.
  int64_t Count(const nlohmann::json& obj, const char* key, const char* parent = nullptr) const {
    return Number(obj, key, parent).value_or(0);
  }
  /// Number() for a time in ms since the epoch on the driver's clock (every time this replay
  /// reads): EventLogError at the event's FILE:LINE when negative, or, once the
  /// ApplicationStart was read, more than kTimeBeforeStartMs before the application's start or
  /// more than kTimeAfterStartMs after it (a damaged log: a time zeroed, or a sign or a high
  /// bit lost; the importer's spans and medians would be decades long).
  std::optional<int64_t> Time(const nlohmann::json& obj, const char* key, const char* parent = nullptr) const;
  /// Number() for a JSON number with a fraction (a resource amount), finite.
  std::optional<double> Amount(const nlohmann::json& obj, const char* key, const char* parent) const;
  /// EventLogError at the event's FILE:LINE: "EVENT: PARENT.KEY: what".
  [[noreturn]] void RefuseField(const char* parent, const char* key, const std::string& what) const;
  /// The stage a "Stage Info" object describes, created on first sight; throws EventLogError
  /// when its Number of Tasks is negative or above kMaxPlannedTasks (planned_properties.h).
  RecordedStage& StageFromInfo(const nlohmann::json& info);
  /// The SQL execution an event's "executionId" names, created on first sight.
  RecordedSqlExecution& ExecutionOf(const nlohmann::json& e);

  RecordedApplication* app_;
  std::vector<std::string>* warnings_;
  std::string where_;            // FILE:LINE of the event being applied
  std::string_view event_;       // short name of the event being applied (valid while Apply runs)
  std::string app_start_where_;  // FILE:LINE of the ApplicationStart whose Timestamp bounds the others
  std::string master_where_;     // FILE:LINE of the environment update that set spark.master
  std::set<std::string> unknown_seen_;
  std::set<int> started_jobs_;                             // job ids whose SparkListenerJobStart was read
  bool warned_job_restart_ = false;                        // a repeated JobStart is warned once
  std::set<std::pair<int64_t, std::string>> ended_tasks_;  // (task id, end reason) of each TaskEnd read
  bool warned_task_repeat_ = false;                        // a repeated TaskEnd is warned once
  bool warned_executor_repeat_ = false;                    // a repeated ExecutorAdded is warned once
  bool warned_unknown_removal_ = false;     // an ExecutorRemoved of no registered executor is warned once
  bool warned_removal_before_add_ = false;  // an ExecutorRemoved timed before its ExecutorAdded, once
  bool warned_run_beyond_wall_ = false;     // a run a little longer than Launch → Finish is warned once
  std::unordered_map<std::string, size_t> live_executors_;  // id -> index in executors of one not removed
  std::unordered_map<int, int64_t> planned_tasks_;          // stage id -> its largest Number of Tasks
  int64_t planned_tasks_total_ = 0;                         // their sum
  std::array<int64_t, 20> counter_totals_{};      // CheckTaskCounters' counters, summed over the log
  std::map<int64_t, int64_t> sql_metric_totals_;  // accumulator id -> sum of its updates' magnitudes
};

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_LISTENER_EVENT_REPLAY_H_
