#include "models/engine/run_result.h"

#include <cstdio>
#include <variant>

namespace aqesim {

std::string TimedText(const std::string& time_source, std::optional<double> resized_by) {
  if (!resized_by) return time_source;
  char factor[32];
  std::snprintf(factor, sizeof factor, "%.1f", *resized_by);
  return time_source + " (resized ×" + factor + ")";
}

nlohmann::ordered_json SpecToJson(const ShufflePartitionSpec& spec) {
  using json = nlohmann::ordered_json;
  if (auto* c = std::get_if<CoalescedPartitionSpec>(&spec)) {
    json j = {{"type", "CoalescedPartitionSpec"},
              {"startReducerIndex", c->start_reducer_index},
              {"endReducerIndex", c->end_reducer_index}};
    if (c->data_size_bytes) j["dataSize"] = *c->data_size_bytes;
    return j;
  }
  if (auto* p = std::get_if<PartialReducerPartitionSpec>(&spec)) {
    return {{"type", "PartialReducerPartitionSpec"},
            {"reducerIndex", p->reducer_index},
            {"startMapIndex", p->start_map_index},
            {"endMapIndex", p->end_map_index},
            {"dataSize", p->data_size_bytes}};
  }
  if (auto* m = std::get_if<PartialMapperPartitionSpec>(&spec)) {
    return {{"type", "PartialMapperPartitionSpec"},
            {"mapIndex", m->map_index},
            {"startReducerIndex", m->start_reducer_index},
            {"endReducerIndex", m->end_reducer_index}};
  }
  const auto& cm = std::get<CoalescedMapperPartitionSpec>(spec);
  return {{"type", "CoalescedMapperPartitionSpec"},
          {"startMapIndex", cm.start_map_index},
          {"endMapIndex", cm.end_map_index},
          {"numReducers", cm.num_reducers}};
}

namespace {

nlohmann::ordered_json DecisionToJson(const Decision& d) {
  nlohmann::ordered_json j = {{"rule", d.rule}};
  for (auto it = d.fields.begin(); it != d.fields.end(); ++it) j[it.key()] = it.value();
  j["message"] = d.message;
  j["atSeconds"] = d.at.seconds();
  return j;
}

}  // namespace

nlohmann::ordered_json NotAppliedToJson(const NotApplied& n) {
  return {{"rule", n.rule},       {"target", n.target},   {"reason", n.reason},
          {"message", n.message}, {"numbers", n.numbers}, {"atSeconds", n.at.seconds()}};
}

nlohmann::ordered_json SharedLimitsJson(const SharedLimitUse& u) {
  return {{"storageBoundTasks", u.storage_bound_tasks},
          {"storageSecondsAdded", u.storage_seconds_added},
          {"storageBoundFromSeconds", u.storage_bound_from_seconds},
          {"storageBoundToSeconds", u.storage_bound_to_seconds},
          {"driverWaitSeconds", u.driver_wait_seconds}};
}

void DropTaskRecords(RunResult* run) {
  for (StageResult& s : run->stages) std::vector<TaskResult>().swap(s.task_results);
}

nlohmann::ordered_json SubqueryRunToJson(const SubqueryRun& q) {
  nlohmann::ordered_json j = {{"id", q.id}, {"kind", q.kind}, {"gates", q.gates}};
  if (!q.reuses_broadcast.empty()) j["reusesBroadcast"] = q.reuses_broadcast;
  j["dropped"] = q.dropped;
  j["stages"] = q.stages;
  j["startSeconds"] = q.start_seconds;
  j["completeSeconds"] = q.complete_seconds;
  j["gatedStages"] = q.gated_stages;
  return j;
}

nlohmann::ordered_json RunToJson(const RunResult& run, bool with_tasks) {
  using json = nlohmann::ordered_json;
  json stages = json::array();
  for (const StageResult& s : run.stages) {
    json st = {
        {"id", s.id},
        {"name", s.name},
        {"kind", s.kind},
        {"operators", s.operators},
        {"timeSource", s.time_source},
        {"tasks", s.tasks},
        {"submitSeconds", s.submit_seconds},
        {"completeSeconds", s.complete_seconds},
        {"durationSeconds", s.duration_seconds()},
        {"inputBytes", s.input_bytes},
        {"shuffleReadBytes", s.shuffle_read_bytes},
        {"shuffleWriteBytes", s.shuffle_write_bytes},
        {"spillBytes", s.spill_bytes},
        {"taskSeconds",
         {{"min", s.task_min_seconds}, {"median", s.task_median_seconds}, {"max", s.task_max_seconds}}},
        {"reads", s.reads},
        {"parents", s.parents}};
    st["resources"] = CoreTimeJson(s.resources);
    if (s.resized_by) st["resizedBy"] = *s.resized_by;
    if (s.failed_attempts > 0) st["failedAttempts"] = s.failed_attempts;
    if (!s.failed.empty()) st["failed"] = s.failed;
    if (s.limits) st["sharedLimits"] = SharedLimitsJson(*s.limits);
    if (s.kind == "BroadcastStage") st["broadcastSeconds"] = s.broadcast_seconds;
    if (!s.subquery.empty()) st["subquery"] = s.subquery;
    if (!s.gated_by.empty()) st["gatedBy"] = s.gated_by;
    if (with_tasks) {
      json tasks = json::array();
      for (const TaskResult& t : s.task_results) {
        tasks.push_back({{"index", t.index},
                         {"executor", t.executor},
                         {"slot", t.slot},
                         {"startSeconds", t.start_seconds},
                         {"endSeconds", t.end_seconds},
                         {"inputBytes", t.input_bytes},
                         {"shuffleReadBytes", t.shuffle_read_bytes},
                         {"shuffleWriteBytes", t.shuffle_write_bytes},
                         {"spillBytes", t.spill_bytes}});
        if (t.startup_seconds > 0) tasks.back()["startupSeconds"] = t.startup_seconds;
      }
      st["taskList"] = std::move(tasks);
    }
    stages.push_back(std::move(st));
  }
  json decisions = json::array();
  for (const Decision& d : run.decisions) decisions.push_back(DecisionToJson(d));
  json out = {{"adaptive", run.adaptive},    {"makespanSeconds", run.makespan_seconds},
              {"stages", std::move(stages)}, {"decisions", std::move(decisions)},
              {"failures", run.failures},    {"resources", ResourceUsageJson(run.resources)}};
  if (!run.subqueries.empty()) {
    json subqueries = json::array();
    for (const SubqueryRun& q : run.subqueries) subqueries.push_back(SubqueryRunToJson(q));
    out["subqueries"] = std::move(subqueries);
  }
  if (const std::optional<JobFailure>& f = run.job_failure)
    out["jobFailed"] = {
        {"stage", f->stage}, {"task", f->task}, {"reason", f->reason}, {"atSeconds", f->at_seconds}};
  if (!run.executors.empty()) {
    json executors = json::array();
    for (const ExecutorCountChange& c : run.executors)
      executors.push_back({{"seconds", c.seconds}, {"executors", c.executors}});
    out["executors"] = std::move(executors);
  }
  if (const std::optional<AllocationState>& a = run.allocation_at_end) {
    json executors = json::array(), requests = json::array();
    for (const AllocationState::Executor& e : a->executors)
      executors.push_back(
          {{"idleSeconds", e.idle_seconds}, {"holdsShuffle", e.holds_shuffle}, {"warm", e.warm}});
    for (const AllocationState::Request& r : a->requests) {
      nlohmann::ordered_json request = {{"secondsSinceRequest", r.seconds_since_request}};
      if (!r.placed) request["placed"] = false;  // (only with cluster.executorCapacity)
      if (r.seconds_since_placed) request["secondsSincePlaced"] = *r.seconds_since_placed;
      if (r.waits_for) request["waitsFor"] = *r.waits_for;
      if (r.start_seconds) request["startSeconds"] = *r.start_seconds;
      requests.push_back(std::move(request));
    }
    json removing = json::array();
    for (const AllocationState::Removing& r : a->removing)
      removing.push_back({{"secondsUntilRemoved", r.seconds_until_removed}});
    out["allocationAtEnd"] = {{"target", a->target},
                              {"executors", std::move(executors)},
                              {"requests", std::move(requests)},
                              {"removing", std::move(removing)}};
    if (a->kills_made) out["allocationAtEnd"]["killsMade"] = *a->kills_made;
  }
  return out;
}

nlohmann::ordered_json RangeSamplingToJson(const RangeSampling& r) {
  return {{"requestedPartitions", r.requested_partitions},
          {"sampleSize", r.sample_size},
          {"sampleSizePerPartition", r.sample_size_per_partition},
          {"rows", r.total_rows},
          {"fraction", r.fraction},
          {"sketchedKeys", r.sketched_keys},
          {"imbalancedPartitions", r.imbalanced_partitions},
          {"resampledKeys", r.resampled_keys},
          {"bounds", r.bounds}};
}

std::shared_ptr<const RangeSampling> RangeSamplingFromJson(const nlohmann::json& j) {
  auto r = std::make_shared<RangeSampling>();
  try {
    j.at("requestedPartitions").get_to(r->requested_partitions);
    j.at("sampleSize").get_to(r->sample_size);
    j.at("sampleSizePerPartition").get_to(r->sample_size_per_partition);
    j.at("rows").get_to(r->total_rows);
    j.at("fraction").get_to(r->fraction);
    j.at("sketchedKeys").get_to(r->sketched_keys);
    j.at("imbalancedPartitions").get_to(r->imbalanced_partitions);
    j.at("resampledKeys").get_to(r->resampled_keys);
    j.at("bounds").get_to(r->bounds);
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
  return r;
}

nlohmann::ordered_json ExplainToJson(const std::string& scenario_name, const RunResult& run) {
  using json = nlohmann::ordered_json;
  json exchanges = json::array();
  for (const ExchangeExplain& e : run.exchanges) {
    exchanges.push_back({{"id", e.id},
                         {"mapTasks", e.map_tasks},
                         {"numPartitions", e.num_partitions},
                         {"mapStatus", e.map_status},
                         {"bytesByPartitionId", e.bytes_by_partition_id},
                         {"trueBytesByPartitionId", e.true_bytes_by_partition_id},
                         {"dataSizeBytes", e.data_size_bytes},
                         {"dataSizeEstimated", e.data_size_estimated},
                         {"reportedSizeRatio", e.reported_size_ratio},
                         {"driverMapStatusBytes", e.driver_map_status_bytes},
                         {"driverAggregationSeconds", e.driver_aggregation_seconds}});
    if (e.driver_exact_totals_bytes) {
      exchanges.back()["exactBytesByPartitionId"] = e.exact_bytes_by_partition_id;
      exchanges.back()["driverExactTotalsBytes"] = *e.driver_exact_totals_bytes;
      exchanges.back()["driverDecompressedBlocks"] = e.driver_decompressed_blocks;
      exchanges.back()["driverDecompressSeconds"] = e.driver_decompress_seconds;
    }
    if (!e.records_by_partition_id.empty())
      exchanges.back()["recordsByPartitionId"] = e.records_by_partition_id;
    if (e.range) {
      exchanges.back()["partitioning"] = "range";
      exchanges.back()["rangePartitioning"] = RangeSamplingToJson(*e.range);
    }
  }
  json decisions = json::array();
  for (const Decision& d : run.decisions) decisions.push_back(DecisionToJson(d));
  json not_applied = json::array();
  for (const NotApplied& n : run.not_applied) not_applied.push_back(NotAppliedToJson(n));
  json reads = json::array();
  for (const ReadExplain& r : run.reads) {
    json specs = json::array();
    for (const auto& s : r.specs) specs.push_back(SpecToJson(s));
    reads.push_back({{"exchange", r.exchange},
                     {"stage", r.stage},
                     {"specs", std::move(specs)},
                     {"trueBytes", r.true_bytes}});
  }
  json joins = json::array();
  for (const JoinExplain& j : run.joins) {
    json o = {{"id", j.id},
              {"strategy", j.strategy},
              {"finalStrategy", j.final_strategy},
              {"isSkewJoin", j.is_skew_join}};
    if (!j.build_side.empty()) o["buildSide"] = j.build_side;
    joins.push_back(std::move(o));
  }
  json out = {{"scenario", scenario_name},
              {"adaptive", run.adaptive},
              {"exchanges", std::move(exchanges)},
              {"decisions", std::move(decisions)},
              {"notApplied", std::move(not_applied)},
              {"reads", std::move(reads)},
              {"joins", std::move(joins)},
              {"failures", run.failures}};
  if (!run.subqueries.empty()) {
    json subqueries = json::array();
    for (const SubqueryRun& q : run.subqueries) subqueries.push_back(SubqueryRunToJson(q));
    out["subqueries"] = std::move(subqueries);
  }
  if (!run.variants.empty()) out["variants"] = run.variants;
  json limited = json::array();  // the stages a shared limit slowed (none: the field is absent)
  for (const StageResult& st : run.stages) {
    if (!st.limits) continue;
    json o = {{"stage", st.id}, {"name", st.name}};
    o.update(SharedLimitsJson(*st.limits));
    limited.push_back(std::move(o));
  }
  if (!limited.empty()) out["sharedLimits"] = std::move(limited);
  return out;
}

}  // namespace aqesim
