#include "models/engine/run_result_reader.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "models/engine/json_problems.h"
#include "models/plan/planned_properties.h"

namespace aqesim {

namespace {

using Json = nlohmann::json;
using json_read::kMaxErrors;
using json_read::Problems;

/// Every number of a run's stages is a count, a size or a time: finite, at least 0; times at most
/// kMaxRunSeconds, task counts at most kMaxPlannedTasks (a hand-edited or damaged result must not
/// reach the charts).
void CheckRunNumbers(const Json& v, const std::string& where, const std::string& key, Problems* problems,
                     int* budget) {
  if (*budget <= 0) return;
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      CheckRunNumbers(it.value(), where + "/" + it.key(), it.key(), problems, budget);
    return;
  }
  if (v.is_array()) {
    for (size_t i = 0; i < v.size(); ++i)
      CheckRunNumbers(v[i], where + "/" + std::to_string(i), key, problems, budget);
    return;
  }
  if (!v.is_number()) return;
  const double x = v.get<double>();
  const bool seconds = key.size() >= 7 && key.compare(key.size() - 7, 7, "Seconds") == 0;
  std::string why;
  if (!std::isfinite(x) || x < 0) {
    why = "expected a number >= 0";
  } else if (seconds && x > kMaxRunSeconds) {
    why = "expected at most 9.2e12 seconds (what a simulated run can last)";
  } else if (key == "tasks" && x > static_cast<double>(kMaxPlannedTasks)) {
    why = "expected at most " + std::to_string(kMaxPlannedTasks) + " tasks";
  }
  if (why.empty()) return;
  problems->Add(where, why + ", found " + v.dump());
  --*budget;
}

void ReadTask(const Json& t, const std::string& at, Problems* p, TaskResult* task) {
  p->Read(t, "index", at, &task->index);
  p->Read(t, "executor", at, &task->executor);
  p->Read(t, "slot", at, &task->slot);
  p->Read(t, "startSeconds", at, &task->start_seconds);
  p->Read(t, "endSeconds", at, &task->end_seconds);
  p->Read(t, "inputBytes", at, &task->input_bytes);
  p->Read(t, "shuffleReadBytes", at, &task->shuffle_read_bytes);
  p->Read(t, "shuffleWriteBytes", at, &task->shuffle_write_bytes);
  p->Read(t, "spillBytes", at, &task->spill_bytes);
  if (Problems::Member(t, "startupSeconds")) p->Read(t, "startupSeconds", at, &task->startup_seconds);
}

void ReadStage(const Json& s, const std::string& at, Problems* p, StageResult* stage) {
  p->Read(s, "id", at, &stage->id);
  p->Read(s, "name", at, &stage->name);
  p->Read(s, "kind", at, &stage->kind);
  p->Read(s, "operators", at, &stage->operators);
  p->Read(s, "timeSource", at, &stage->time_source);
  if (Problems::Member(s, "resizedBy")) p->Read(s, "resizedBy", at, &stage->resized_by.emplace());
  if (Problems::Member(s, "failedAttempts")) p->Read(s, "failedAttempts", at, &stage->failed_attempts);
  if (Problems::Member(s, "failed")) p->Read(s, "failed", at, &stage->failed);
  p->Read(s, "tasks", at, &stage->tasks);
  // durationSeconds is completeSeconds − submitSeconds; a hand-written result may give only it.
  const bool has_times = s.contains("submitSeconds") || s.contains("completeSeconds");
  p->Read(s, "submitSeconds", at, &stage->submit_seconds);
  p->Read(s, "completeSeconds", at, &stage->complete_seconds);
  double duration = 0;
  if (const Json* d = Problems::Member(s, "durationSeconds")) {
    p->Read(s, "durationSeconds", at, &duration);
    if (!has_times) {
      stage->complete_seconds = duration;
    } else if (d->is_number() &&
               std::abs(duration - stage->duration_seconds()) > 1e-6 * std::max(1.0, std::abs(duration))) {
      p->Expected(at + "/durationSeconds", "completeSeconds − submitSeconds", *d);
    }
  }
  p->Read(s, "inputBytes", at, &stage->input_bytes);
  p->Read(s, "shuffleReadBytes", at, &stage->shuffle_read_bytes);
  p->Read(s, "shuffleWriteBytes", at, &stage->shuffle_write_bytes);
  p->Read(s, "spillBytes", at, &stage->spill_bytes);
  if (const Json* t = Problems::Member(s, "taskSeconds"); t && p->Object(*t, at + "/taskSeconds")) {
    p->Read(*t, "min", at + "/taskSeconds", &stage->task_min_seconds);
    p->Read(*t, "median", at + "/taskSeconds", &stage->task_median_seconds);
    p->Read(*t, "max", at + "/taskSeconds", &stage->task_max_seconds);
  }
  p->Read(s, "broadcastSeconds", at, &stage->broadcast_seconds);
  p->Read(s, "reads", at, &stage->reads);
  if (const std::string why = StageResourcesFromJson(s, stage); !why.empty()) p->Add(at, why);
  if (const Json* tasks = p->Array(s, "taskList", at)) {
    stage->task_results.reserve(tasks->size());
    for (size_t i = 0; i < tasks->size(); ++i) {
      const std::string ti = at + "/taskList/" + std::to_string(i);
      if (!p->Object((*tasks)[i], ti)) continue;
      ReadTask((*tasks)[i], ti, p, &stage->task_results.emplace_back());
    }
  }
}

}  // namespace

namespace {

/// runs[].allocationAtEnd (models/cluster/allocation_state.h), as RunToJson writes it.
void ReadAllocationAtEnd(const Json& a, const std::string& at, Problems* p, AllocationState* out) {
  p->Read(a, "target", at, &out->target);
  if (const Json* executors = p->Array(a, "executors", at)) {
    for (size_t i = 0; i < executors->size(); ++i) {
      const std::string ei = at + "/executors/" + std::to_string(i);
      if (!p->Object((*executors)[i], ei)) continue;
      AllocationState::Executor& e = out->executors.emplace_back();
      p->Read((*executors)[i], "idleSeconds", ei, &e.idle_seconds);
      p->Read((*executors)[i], "holdsShuffle", ei, &e.holds_shuffle);
      p->Read((*executors)[i], "warm", ei, &e.warm);
    }
  }
  if (const Json* requests = p->Array(a, "requests", at)) {
    for (size_t i = 0; i < requests->size(); ++i) {
      const std::string ri = at + "/requests/" + std::to_string(i);
      if (!p->Object((*requests)[i], ri)) continue;
      const Json& q = (*requests)[i];
      AllocationState::Request& r = out->requests.emplace_back();
      p->Read(q, "secondsSinceRequest", ri, &r.seconds_since_request);
      if (Problems::Member(q, "placed")) p->Read(q, "placed", ri, &r.placed);
      if (Problems::Member(q, "secondsSincePlaced"))
        p->Read(q, "secondsSincePlaced", ri, &r.seconds_since_placed.emplace());
      if (Problems::Member(q, "waitsFor")) p->Read(q, "waitsFor", ri, &r.waits_for.emplace());
      if (Problems::Member(q, "startSeconds")) p->Read(q, "startSeconds", ri, &r.start_seconds.emplace());
    }
  }
  if (Problems::Member(a, "killsMade")) p->Read(a, "killsMade", at, &out->kills_made.emplace());
  if (const Json* removing = p->Array(a, "removing", at)) {
    for (size_t i = 0; i < removing->size(); ++i) {
      const std::string ri = at + "/removing/" + std::to_string(i);
      if (!p->Object((*removing)[i], ri)) continue;
      p->Read((*removing)[i], "secondsUntilRemoved", ri, &out->removing.emplace_back().seconds_until_removed);
    }
  }
}

}  // namespace

std::optional<RunResult> RunFromJson(const Json& r, const std::string& path, const std::string& pointer,
                                     std::vector<std::string>* errors) {
  Problems p(path, errors);
  if (!r.is_object() || !r.contains("adaptive") || !r["adaptive"].is_boolean() || !r.contains("stages") ||
      !r["stages"].is_array() || !r.contains("makespanSeconds") || !r["makespanSeconds"].is_number()) {
    p.Add(pointer, "expected a run (adaptive, makespanSeconds, stages)");
    return std::nullopt;
  }
  int budget = kMaxErrors;
  CheckRunNumbers(r["makespanSeconds"], pointer + "/makespanSeconds", "makespanSeconds", &p, &budget);
  CheckRunNumbers(r["stages"], pointer + "/stages", "stages", &p, &budget);
  if (p.any()) return std::nullopt;
  RunResult run;
  run.adaptive = r["adaptive"].get<bool>();
  run.makespan_seconds = r["makespanSeconds"].get<double>();
  const Json& stages = r["stages"];
  run.stages.reserve(stages.size());
  for (size_t i = 0; i < stages.size(); ++i) {
    const std::string si = pointer + "/stages/" + std::to_string(i);
    if (!p.Object(stages[i], si)) continue;
    ReadStage(stages[i], si, &p, &run.stages.emplace_back());
  }
  DecisionsFromJson(r, pointer, &p, &run.decisions);
  p.Read(r, "failures", pointer, &run.failures);
  if (Problems::Member(r, "jobFailed") && p.Object(r["jobFailed"], pointer + "/jobFailed")) {
    JobFailure& f = run.job_failure.emplace();
    const Json& j = r["jobFailed"];
    const std::string jp = pointer + "/jobFailed";
    p.Read(j, "stage", jp, &f.stage);
    p.Read(j, "task", jp, &f.task);
    p.Read(j, "reason", jp, &f.reason);
    p.Read(j, "atSeconds", jp, &f.at_seconds);
  }
  if (const std::string why = RunResourcesFromJson(r, &run); !why.empty()) p.Add(pointer, why);
  if (const Json* executors = p.Array(r, "executors", pointer)) {
    for (size_t i = 0; i < executors->size(); ++i) {
      const std::string ei = pointer + "/executors/" + std::to_string(i);
      if (!p.Object((*executors)[i], ei)) continue;
      ExecutorCountChange& c = run.executors.emplace_back();
      p.Read((*executors)[i], "seconds", ei, &c.seconds);
      p.Read((*executors)[i], "executors", ei, &c.executors);
    }
  }
  if (Problems::Member(r, "allocationAtEnd") && p.Object(r["allocationAtEnd"], pointer + "/allocationAtEnd"))
    ReadAllocationAtEnd(r["allocationAtEnd"], pointer + "/allocationAtEnd", &p,
                        &run.allocation_at_end.emplace());
  if (p.any()) return std::nullopt;
  return run;
}

std::optional<std::pair<double, double>> MakespanBandFromJson(const Json& run, double makespan_seconds,
                                                              const std::string& path,
                                                              const std::string& pointer,
                                                              std::vector<std::string>* errors) {
  if (!run.is_object() || (!run.contains("makespanSecondsLow") && !run.contains("makespanSecondsHigh")))
    return std::nullopt;
  const Json* low = Problems::Member(run, "makespanSecondsLow");
  const Json* high = Problems::Member(run, "makespanSecondsHigh");
  if (low && high && low->is_number() && high->is_number()) {
    const double lo = low->get<double>(), hi = high->get<double>();
    if (lo >= 0 && lo <= makespan_seconds * (1 + 1e-9) && hi >= makespan_seconds * (1 - 1e-9) &&
        hi <= kMaxRunSeconds)
      return std::pair{lo, hi};
  }
  errors->push_back(
      path + ": " + pointer +
      "/makespanSecondsLow: expected a band around the makespan (0 <= low <= makespanSeconds <= "
      "high <= 9.2e12)");
  return std::nullopt;
}

void DecisionsFromJson(const Json& doc, const std::string& at, json_read::Problems* p,
                       std::vector<Decision>* out) {
  const Json* decisions = p->Array(doc, "decisions", at);
  if (decisions == nullptr) return;
  for (size_t i = 0; i < decisions->size(); ++i) {
    const Json& d = (*decisions)[i];
    const std::string di = at + "/decisions/" + std::to_string(i);
    if (!p->Object(d, di)) continue;
    Decision decision;
    p->Read(d, "rule", di, &decision.rule);
    p->Read(d, "message", di, &decision.message);
    double at_seconds = 0;
    p->Read(d, "atSeconds", di, &at_seconds);
    decision.at = SimTime::Seconds(at_seconds);
    for (auto it = d.begin(); it != d.end(); ++it) {
      if (it.key() != "rule" && it.key() != "message" && it.key() != "atSeconds")
        decision.fields[it.key()] = it.value();
    }
    out->push_back(std::move(decision));
  }
}

}  // namespace aqesim
