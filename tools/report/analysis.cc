#include "tools/report/analysis.h"

#include <algorithm>
#include <map>

#include "models/shuffle/map_status.h"

namespace aqesim::report {

namespace {

int64_t Int(const nlohmann::json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<int64_t>() : 0;
}
double Real(const nlohmann::json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}

std::vector<int64_t> Sizes(const nlohmann::json& j, const char* key) {
  std::vector<int64_t> v;
  if (j.contains(key) && j[key].is_array()) {
    for (const auto& x : j[key]) v.push_back(x.is_number() ? x.get<int64_t>() : 0);
  }
  return v;
}

}  // namespace

Severity SeverityOf(double r) {
  if (r >= kSeverityCritical) return Severity::kCritical;
  if (r >= kSeveritySevere) return Severity::kSevere;
  if (r >= kSeverityModerate) return Severity::kModerate;
  if (r >= kSeverityLow) return Severity::kLow;
  return Severity::kNone;
}

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kNone:
      return "none";
    case Severity::kLow:
      return "low";
    case Severity::kModerate:
      return "moderate";
    case Severity::kSevere:
      return "severe";
    case Severity::kCritical:
      return "critical";
  }
  return "none";
}

std::vector<StageRow> StageRows(const nlohmann::json& run) {
  std::vector<StageRow> rows;
  if (!run.is_object() || !run.contains("stages") || !run["stages"].is_array()) return rows;
  for (const auto& s : run["stages"]) {
    StageRow r;
    r.id = static_cast<int>(Int(s, "id"));
    r.name = s.value("name", "");
    r.tasks = static_cast<int>(Int(s, "tasks"));
    r.duration_seconds = Real(s, "durationSeconds");
    if (s.contains("taskSeconds") && s["taskSeconds"].is_object()) {
      r.task_median_seconds = Real(s["taskSeconds"], "median");
      r.task_max_seconds = Real(s["taskSeconds"], "max");
    }
    r.skew_ratio = r.task_median_seconds > 0 ? r.task_max_seconds / r.task_median_seconds : 0;
    r.severity = SeverityOf(r.skew_ratio);
    r.spill_bytes = Int(s, "spillBytes");
    r.shuffle_read_bytes = Int(s, "shuffleReadBytes");
    if (s.contains("reads") && s["reads"].is_array()) {
      for (const auto& e : s["reads"]) {
        if (e.is_string()) r.reads.push_back(e.get<std::string>());
      }
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

DecisionCounts CountDecisions(const nlohmann::json& run) {
  DecisionCounts c;
  if (!run.is_object() || !run.contains("decisions") || !run["decisions"].is_array()) return c;
  for (const auto& d : run["decisions"]) {
    if (d.contains("applied") && d["applied"] == false) continue;
    const std::string rule = d.value("rule", "");
    if (rule == "CoalesceShufflePartitions") {
      ++c.coalescings;
    } else if (rule == "OptimizeSkewedJoin") {
      c.skew_splits += static_cast<int>(Int(d, "numSkewedLeft") + Int(d, "numSkewedRight"));
    } else if (rule == "OptimizeSkewInRebalancePartitions") {
      c.skew_splits += static_cast<int>(Int(d, "skewedPartitions"));
    } else if (rule == "JoinSelection") {
      const bool at_planning = d.contains("static") && d["static"] == true;
      if (!at_planning && d.value("to", "") == "BroadcastHashJoin") ++c.broadcast_conversions;
    } else if (rule == "OptimizeShuffleWithLocalRead") {
      ++c.local_reads;
    }
  }
  return c;
}

TuningFacts FactsFromInput(const ReportInput& input) {
  TuningFacts f;
  std::vector<ConfProblem> problems;
  f.conf = ResolveSqlConf(input.conf, &problems);
  f.conf_known = input.conf_known;
  if (input.cluster_known) {
    f.executor_memory_bytes = input.cluster.executor_memory_bytes;
    f.total_cores = input.cluster.total_cores();
  }
  f.has_aqe_off = input.run_off.is_object();
  f.has_aqe_on = input.run_on.is_object();
  if (f.has_aqe_off) f.makespan_seconds_aqe_off = Real(input.run_off, "makespanSeconds");
  if (f.has_aqe_on) {
    f.makespan_seconds_aqe_on = Real(input.run_on, "makespanSeconds");
    f.skew_splits_aqe_on = CountDecisions(input.run_on).skew_splits;
  }
  const std::vector<StageRow> off = StageRows(input.run_off);
  const std::vector<StageRow> on = StageRows(input.run_on);
  for (const auto* stages : {&off, &on}) {
    for (const StageRow& s : *stages) {
      f.spill_bytes += s.spill_bytes;
      if (s.skew_ratio > f.worst_stage_skew_ratio) {
        f.worst_stage_skew_ratio = s.skew_ratio;
        f.worst_stage = (stages == &off ? "AQE off, stage " : "AQE on, stage ") + std::to_string(s.id) +
                        " (" + s.name + ")";
      }
    }
  }
  auto read_stats = [](const std::vector<StageRow>& stages, const std::string& exchange, double* ratio,
                       int64_t* spill) {
    for (const StageRow& s : stages) {
      if (std::find(s.reads.begin(), s.reads.end(), exchange) == s.reads.end()) continue;
      *ratio = std::max(*ratio, s.skew_ratio);
      *spill += s.spill_bytes;
    }
  };
  const nlohmann::json& ex = input.explain_on;
  if (ex.is_object() && ex.contains("exchanges") && ex["exchanges"].is_array()) {
    for (const auto& e : ex["exchanges"]) {
      ShuffleFacts s;
      s.id = e.value("id", "");
      s.num_partitions = static_cast<int>(Int(e, "numPartitions"));
      s.map_status = e.value("mapStatus", "");
      std::vector<int64_t> truth = Sizes(e, "trueBytesByPartitionId");
      std::vector<int64_t> seen = Sizes(e, "bytesByPartitionId");
      if (truth.empty()) truth = seen;
      for (int64_t b : truth) s.true_total_bytes += b;
      s.true_max_bytes = truth.empty() ? 0 : *std::max_element(truth.begin(), truth.end());
      s.true_median_bytes = truth.empty() ? 0 : MedianBytes(truth);  // Spark's median, at least 1
      s.seen_max_bytes = seen.empty() ? 0 : *std::max_element(seen.begin(), seen.end());
      s.seen_median_bytes = seen.empty() ? 0 : MedianBytes(seen);
      read_stats(off, s.id, &s.read_skew_ratio_aqe_off, &s.read_spill_bytes_aqe_off);
      read_stats(on, s.id, &s.read_skew_ratio_aqe_on, &s.read_spill_bytes_aqe_on);
      if (auto it = input.shuffle_partitioning.find(s.id); it != input.shuffle_partitioning.end()) {
        s.partitions_fixed = it->second.fixed;
        s.pinned_by = it->second.pinned_by;
      }
      f.shuffles.push_back(std::move(s));
    }
  }
  // Broadcast build sides: the collecting stage ("<join> broadcast") or the planner's estimate.
  std::map<std::string, int64_t> build;
  for (const nlohmann::json* run : {&input.run_off, &input.run_on}) {
    if (!run->is_object() || !(*run).contains("stages")) continue;
    for (const auto& s : (*run)["stages"]) {
      if (s.value("kind", "") != "BroadcastStage") continue;
      std::string name = s.value("name", "");
      const size_t sp = name.find(" broadcast");
      if (sp != std::string::npos) name = name.substr(0, sp);
      build[name] = std::max(build[name], Int(s, "inputBytes") + Int(s, "shuffleReadBytes"));
    }
    if (!(*run).contains("decisions")) continue;
    for (const auto& d : (*run)["decisions"]) {
      if (d.value("rule", "") == "JoinSelection" && d.value("to", "") == "BroadcastHashJoin" &&
          d.contains("join")) {
        const std::string j = d["join"].is_string() ? d["join"].get<std::string>() : "";
        for (const char* k : {"estimatedBytes", "buildBytes", "buildSizeBytes"})
          build[j] = std::max(build[j], Int(d, k));
      }
    }
  }
  for (const auto& [join, bytes] : build) f.broadcasts.push_back({join, bytes});
  return f;
}

}  // namespace aqesim::report
