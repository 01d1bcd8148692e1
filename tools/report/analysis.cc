#include "tools/report/analysis.h"

#include <algorithm>
#include <map>
#include <variant>

#include "models/engine/task_spread.h"
#include "models/shuffle/map_status.h"

namespace aqesim::report {

namespace {

/// A decision's integer field (0 when absent or not an integer: a hand-edited 1e300 is not converted).
int64_t IntField(const Decision& d, const char* key) {
  const auto it = d.fields.find(key);
  if (it == d.fields.end() || !it->is_number_integer()) return 0;
  if (it->is_number_unsigned() && it->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) return 0;
  return it->get<int64_t>();
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

std::vector<StageRow> StageRows(const RunResult& run) {
  std::vector<StageRow> rows;
  rows.reserve(run.stages.size());
  for (const StageResult& s : run.stages) {
    StageRow r;
    r.id = s.id;
    r.name = s.name;
    r.tasks = s.tasks;
    r.duration_seconds = s.duration_seconds();
    r.task_median_seconds = s.task_median_seconds;
    r.task_max_seconds = s.task_max_seconds;
    r.skew_ratio = r.task_median_seconds > 0 ? r.task_max_seconds / r.task_median_seconds : 0;
    const TaskSpread spread = TaskSpreadOf(s);
    r.data_skew_ratio = spread.data_ratio;
    r.startup_spread = spread.slowest_is_startup && SeverityOf(r.data_skew_ratio) < SeverityOf(r.skew_ratio);
    r.severity = SeverityOf(r.data_skew_ratio);
    r.spill_bytes = s.spill_bytes;
    r.shuffle_read_bytes = s.shuffle_read_bytes;
    r.reads = s.reads;
    rows.push_back(std::move(r));
  }
  return rows;
}

DecisionCounts CountDecisions(const RunResult& run) {
  DecisionCounts c;
  for (const Decision& d : run.decisions) {
    if (d.fields.contains("applied") && d.fields["applied"] == false) continue;
    if (d.rule == "CoalesceShufflePartitions") {
      ++c.coalescings;
    } else if (d.rule == "OptimizeSkewedJoin") {
      c.skew_splits += static_cast<int>(IntField(d, "numSkewedLeft") + IntField(d, "numSkewedRight"));
    } else if (d.rule == "OptimizeSkewInRebalancePartitions") {
      c.skew_splits += static_cast<int>(IntField(d, "skewedPartitions"));
    } else if (d.rule == "JoinSelection") {
      const bool at_planning = d.fields.contains("static") && d.fields["static"] == true;
      if (!at_planning && d.fields.contains("to") && d.fields["to"] == "BroadcastHashJoin")
        ++c.broadcast_conversions;
    } else if (d.rule == "OptimizeShuffleWithLocalRead") {
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
  f.has_aqe_off = input.run_off != nullptr;
  f.has_aqe_on = input.run_on != nullptr;
  if (f.has_aqe_off) f.makespan_seconds_aqe_off = input.run_off->makespan_seconds;
  if (f.has_aqe_on) {
    f.makespan_seconds_aqe_on = input.run_on->makespan_seconds;
    f.skew_splits_aqe_on = CountDecisions(*input.run_on).skew_splits;
    f.not_applied = input.explain_on ? input.explain_on->not_applied : input.run_on->not_applied;
  }
  const std::vector<StageRow> off = input.run_off ? StageRows(*input.run_off) : std::vector<StageRow>{};
  const std::vector<StageRow> on = input.run_on ? StageRows(*input.run_on) : std::vector<StageRow>{};
  for (const auto* stages : {&off, &on}) {
    for (const StageRow& s : *stages) {
      f.spill_bytes += s.spill_bytes;
      const std::string name = (stages == &off ? "AQE off, stage " : "AQE on, stage ") +
                               std::to_string(s.id) + " (" + s.name + ")";
      if (s.data_skew_ratio > f.worst_stage_skew_ratio) {
        f.worst_stage_skew_ratio = s.data_skew_ratio;
        f.worst_stage = name;
      }
      if (stages == &on && s.data_skew_ratio > f.worst_aqe_on_skew_ratio) {
        f.worst_aqe_on_skew_ratio = s.data_skew_ratio;
        f.worst_aqe_on_stage = "stage " + std::to_string(s.id) + " (" + s.name + ")";
      }
      if (stages == &on && s.duration_seconds > f.longest_aqe_on_seconds) {
        f.longest_aqe_on_seconds = s.duration_seconds;
        f.longest_aqe_on_stage = "stage " + std::to_string(s.id) + " (" + s.name + ")";
      }
      if (s.startup_spread && s.skew_ratio > f.worst_startup_skew_ratio) {
        f.worst_startup_skew_ratio = s.skew_ratio;
        f.worst_startup_data_ratio = s.data_skew_ratio;
        f.worst_startup_stage = name;
      }
    }
  }
  auto read_stats = [](const std::vector<StageRow>& stages, const std::string& exchange, double* ratio,
                       int64_t* spill) {
    for (const StageRow& s : stages) {
      if (std::find(s.reads.begin(), s.reads.end(), exchange) == s.reads.end()) continue;
      *ratio = std::max(*ratio, s.data_skew_ratio);
      *spill += s.spill_bytes;
    }
  };
  if (input.explain_on)
    for (const JoinExplain& j : input.explain_on->joins) f.join_final_strategies[j.id] = j.final_strategy;
  if (input.explain_on) {
    for (const ExchangeExplain& e : input.explain_on->exchanges) {
      ShuffleFacts s;
      s.id = e.id;
      s.num_partitions = e.num_partitions;
      s.map_status = e.map_status;
      const std::vector<int64_t>& seen = e.bytes_by_partition_id;
      const std::vector<int64_t>& truth =
          e.true_bytes_by_partition_id.empty() ? seen : e.true_bytes_by_partition_id;
      for (int64_t b : truth) s.true_total_bytes += b;
      s.true_max_bytes = truth.empty() ? 0 : *std::max_element(truth.begin(), truth.end());
      s.true_median_bytes = truth.empty() ? 0 : MedianBytes(truth);  // Spark's median, at least 1
      s.seen_max_bytes = seen.empty() ? 0 : *std::max_element(seen.begin(), seen.end());
      s.seen_median_bytes = seen.empty() ? 0 : MedianBytes(seen);
      for (const ReadExplain& r : input.explain_on->reads) {
        if (r.exchange != s.id || r.true_bytes.empty()) continue;
        s.aqe_on_read_tasks = static_cast<int>(r.true_bytes.size());
        s.aqe_on_split_tasks = 0;
        for (const ShufflePartitionSpec& spec : r.specs)
          s.aqe_on_split_tasks += std::holds_alternative<PartialReducerPartitionSpec>(spec);
        const size_t largest = static_cast<size_t>(
            std::max_element(r.true_bytes.begin(), r.true_bytes.end()) - r.true_bytes.begin());
        s.aqe_on_largest_task_bytes = r.true_bytes[largest];
        s.aqe_on_largest_task_split =
            largest < r.specs.size() && std::holds_alternative<PartialReducerPartitionSpec>(r.specs[largest]);
        std::vector<int64_t> sorted = r.true_bytes;
        std::sort(sorted.begin(), sorted.end());
        s.aqe_on_median_task_bytes = sorted[sorted.size() / 2];
      }
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
  for (const RunResult* run : {input.run_off.get(), input.run_on.get()}) {
    if (run == nullptr) continue;
    for (const StageResult& s : run->stages) {
      if (s.kind != "BroadcastStage") continue;
      std::string name = s.name;
      const size_t sp = name.find(" broadcast");
      if (sp != std::string::npos) name = name.substr(0, sp);
      build[name] = std::max(build[name], s.input_bytes + s.shuffle_read_bytes);
    }
    for (const Decision& d : run->decisions) {
      if (d.rule == "JoinSelection" && d.fields.contains("to") && d.fields["to"] == "BroadcastHashJoin" &&
          d.fields.contains("join")) {
        const std::string j = d.fields["join"].is_string() ? d.fields["join"].get<std::string>() : "";
        for (const char* k : {"estimatedBytes", "buildBytes", "buildSizeBytes"})
          build[j] = std::max(build[j], IntField(d, k));
      }
    }
  }
  for (const auto& [join, bytes] : build) f.broadcasts.push_back({join, bytes});
  return f;
}

}  // namespace aqesim::report
