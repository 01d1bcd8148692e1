#include "models/scenario/failed_attempts_reader.h"

#include <algorithm>
#include <optional>
#include <tuple>

namespace aqesim {
namespace {

constexpr size_t kMaxFailedAttempts = 1'000'000;
constexpr double kMaxSeconds = 1e6;  // as a profile's other seconds (profile_reader.cc)

std::optional<double> Seconds(const Json& v, const std::string& pointer, DiagnosticSink* sink) {
  return ReadNumber(
      v, pointer, [](double d) { return d >= 0 && d <= kMaxSeconds; }, "a number of seconds from 0 to 1e6",
      sink);
}

void ReadOne(const Json& v, const std::string& pointer, int tasks,
             std::vector<StageProfile::FailedAttempt>* out, DiagnosticSink* sink) {
  if (!v.is_object()) {
    sink->Error(pointer,
                "expected a failed attempt {\"task\", \"seconds\", \"reason\"}, found " + DescribeJson(v));
    return;
  }
  CheckFields(
      v, pointer,
      {"task", "seconds", "reason", "causedByApp", "stageResubmitted", "retryAfterSeconds", "executor"},
      "a failed attempt", sink);
  StageProfile::FailedAttempt a;
  bool ok = true;
  for (const char* field : {"task", "seconds", "reason"}) {
    if (!v.contains(field)) {
      sink->Error(pointer, std::string("missing field \"") + field + "\"");
      ok = false;
    }
  }
  if (v.contains("task")) {
    const std::string what = "a task index from 0 to " + std::to_string(tasks - 1) + " (the profile has " +
                             std::to_string(tasks) + " tasks)";
    auto t = ReadInteger(v["task"], pointer + "/task", 0, tasks - 1, what, sink);
    ok = ok && t;
    if (t) a.task = static_cast<int>(*t);
  }
  if (v.contains("seconds")) {
    auto d = Seconds(v["seconds"], pointer + "/seconds", sink);
    ok = ok && d;
    if (d) a.seconds = *d;
  }
  if (v.contains("retryAfterSeconds")) {
    auto d = Seconds(v["retryAfterSeconds"], pointer + "/retryAfterSeconds", sink);
    ok = ok && d;
    if (d) a.retry_after_seconds = *d;
  }
  if (v.contains("reason")) {
    const std::vector<std::string>& names = FailedAttemptReasons();
    auto parse = [&names](const std::string& s) -> std::optional<std::string> {
      if (std::find(names.begin(), names.end(), s) != names.end()) return s;
      return std::nullopt;
    };
    auto r = ReadEnum<std::string>(v["reason"], pointer + "/reason", parse, names, "a task end reason", sink);
    ok = ok && r;
    if (r) a.reason = *r;
  }
  // A flag that only one reason has.
  for (auto [field, reason, flag] : {std::tuple{"causedByApp", "ExecutorLostFailure", &a.caused_by_app},
                                     std::tuple{"stageResubmitted", "FetchFailed", &a.stage_resubmitted}}) {
    if (!v.contains(field)) continue;
    const std::string fp = pointer + "/" + field;
    auto b = ReadBool(v[field], fp, sink);
    ok = ok && b;
    if (b) *flag = *b;
    if (b && !a.reason.empty() && a.reason != reason) {
      sink->Error(fp, std::string("only an attempt whose reason is \"") + reason + "\" has \"" + field +
                          "\", this one's is \"" + a.reason + "\"");
      ok = false;
    }
  }
  if (v.contains("executor")) {
    auto e = ReadString(v["executor"], pointer + "/executor", sink);
    ok = ok && e;
    if (e) a.executor = *e;
  }
  if (ok) out->push_back(std::move(a));
}

}  // namespace

const std::vector<std::string>& FailedAttemptReasons() {
  static const std::vector<std::string> kReasons = {
      "ExceptionFailure", "ExecutorLostFailure", "FetchFailed",   "TaskKilled",
      "TaskResultLost",   "TaskCommitDenied",    "UnknownReason", "Resubmitted"};
  return kReasons;
}

void ReadFailedAttempts(const Json& v, const std::string& pointer, int tasks,
                        std::vector<StageProfile::FailedAttempt>* out, DiagnosticSink* sink) {
  if (!v.is_array() || v.size() > kMaxFailedAttempts) {
    sink->Error(pointer,
                "expected an array (at most 1000000) of failed attempts {\"task\", \"seconds\", "
                "\"reason\"}, found " +
                    DescribeJson(v));
    return;
  }
  for (size_t i = 0; i < v.size(); ++i) ReadOne(v[i], PointerAppend(pointer, i), tasks, out, sink);
}

}  // namespace aqesim
