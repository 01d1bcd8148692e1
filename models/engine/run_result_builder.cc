#include "models/engine/run_result_builder.h"

#include <algorithm>

#include "models/engine/map_output.h"
#include "models/plan/stage_walk.h"

namespace aqesim {

namespace {

std::string StageKindName(StageKind kind) {
  switch (kind) {
    case StageKind::kShuffleMap:
      return "ShuffleMapStage";
    case StageKind::kBroadcast:
      return "BroadcastStage";
    case StageKind::kResult:
      return "ResultStage";
    case StageKind::kSample:
      return "ResultStage";  // RangePartitioner's sampling job collects its sample: a result stage
  }
  return "ResultStage";
}

/// What the run knows of one exchange that ran: its true sizes and what the driver saw (AQE
/// off: the MapStatus kind Spark would have chosen, and the true sizes).
ExchangeExplain SummarizeExchange(const ExecNode& exchange, const SqlConf& conf,
                                  double map_status_aggregate_seconds_per_block) {
  const ShuffleData& d = *exchange.shuffle->data;
  ExchangeExplain e;
  e.id = exchange.id;
  e.map_tasks = d.actual.num_maps();
  e.num_partitions = d.num_reducers;
  e.true_bytes_by_partition_id = d.actual.PartitionBytes();
  e.data_size_bytes = d.data_size_bytes;
  e.data_size_estimated = d.data_size_estimated;
  e.reported_size_ratio = d.reported_size_ratio;
  e.range = d.range;
  if (d.reported) {
    e.map_status = std::string(d.reported->StatusKind());
    e.bytes_by_partition_id = d.reported->BytesByPartitionId();
    e.driver_map_status_bytes = d.reported->DriverMemoryBytes();
    e.driver_aggregation_seconds =
        static_cast<double>(e.map_tasks) * e.num_partitions * map_status_aggregate_seconds_per_block;
    if (d.exact_totals) {
      e.exact_bytes_by_partition_id = d.exact_totals->bytes_by_partition_id;
      e.driver_exact_totals_bytes = d.exact_totals->driver_bytes;
      e.driver_decompressed_blocks = d.exact_totals->decompressed_blocks;
      e.driver_decompress_seconds =
          static_cast<double>(d.exact_totals->decompressed_blocks) * map_status_aggregate_seconds_per_block;
    }
    if (d.records_by_partition) e.records_by_partition_id = *d.records_by_partition;
  } else {
    e.map_status =
        std::string(MapStatusKindName(ChooseMapStatusKind(d.num_reducers, MapStatusConfigOf(conf))));
    e.bytes_by_partition_id = e.true_bytes_by_partition_id;
  }
  return e;
}

JoinExplain SummarizeJoin(const ExecNode& n) {
  JoinExplain j;
  j.id = n.id;
  j.strategy = std::string(JoinStrategyName(n.join->planned_strategy));
  j.final_strategy = std::string(JoinStrategyName(n.join->strategy));
  if (n.join->strategy != JoinStrategy::kSortMerge && n.join->strategy != JoinStrategy::kCartesianProduct &&
      n.join->build_side)
    j.build_side = std::string(BuildSideName(*n.join->build_side));
  j.is_skew_join = n.join->is_skew_join;
  return j;
}

}  // namespace

void RunResultBuilder::AddDecisions(std::vector<Decision> decisions) {
  DropActedOn(decisions, &result_.not_applied);
  for (Decision& d : decisions) result_.decisions.push_back(std::move(d));
}

void RunResultBuilder::RecordReads(const QueryStage& stage) {
  for (ExecNode* n : StageReads(stage.subtree)) {
    ReadExplain r;
    r.exchange = n->id;
    r.specs = n->shuffle->ReadSpecsOrDefault();
    recorded_reads_.push_back({&stage, n});
    result_.reads.push_back(std::move(r));
  }
}

StageResult RunResultBuilder::SummarizeStage(const QueryStage& st, const StageRun& run) const {
  StageResult r;
  r.id = st.id;
  r.name = st.name;
  r.kind = StageKindName(st.kind);
  r.tasks = st.num_tasks;
  r.operators = DescribeStageOperators(*st.subtree);
  r.submit_seconds = st.submit.seconds();
  r.complete_seconds = st.complete.seconds();
  r.broadcast_seconds = run.broadcast_seconds;
  r.time_source = run.profiled ? "profiled" : "modelled";
  if (run.profiled) r.resized_by = run.profiled->resized_by();
  r.failed_attempts = run.failed_attempts;
  r.failed = run.failed;
  if (run.limits.bound()) r.limits = run.limits;
  for (const TaskResult& t : run.tasks) {
    r.input_bytes += t.input_bytes;
    r.shuffle_read_bytes += t.shuffle_read_bytes;
    r.shuffle_write_bytes += t.shuffle_write_bytes;
    r.spill_bytes += t.spill_bytes;
  }
  std::vector<double> secs;
  for (const TaskResult& t : run.tasks) secs.push_back(t.end_seconds - t.start_seconds);
  if (!secs.empty()) {
    std::sort(secs.begin(), secs.end());
    r.task_min_seconds = secs.front();
    r.task_max_seconds = secs.back();
    const size_t n = secs.size();
    r.task_median_seconds = n % 2 ? secs[n / 2] : (secs[n / 2 - 1] + secs[n / 2]) / 2;
  }
  for (const ExecNode* n : StageReads(st.subtree)) r.reads.push_back(n->id);
  for (const QueryStage* p : st.parents) r.parents.push_back(p->id);
  std::sort(r.parents.begin(), r.parents.end());
  return r;
}

RunResult RunResultBuilder::Finish(StageGraph* graph, const ExecNode& final_plan, TaskWorkModel* work,
                                   const SqlConf& conf, double map_status_aggregate_seconds_per_block,
                                   double end_seconds) {
  // Stages by id (with AQE, ids follow submission, not creation).
  std::vector<const QueryStage*> order;
  for (const QueryStage& st : graph->stages()) order.push_back(&st);
  std::sort(order.begin(), order.end(),
            [](const QueryStage* a, const QueryStage* b) { return a->id < b->id; });
  double makespan = 0;
  for (const QueryStage* st : order) {
    result_.stages.push_back(SummarizeStage(*st, graph->run(*st)));
    makespan = std::max(makespan, result_.stages.back().complete_seconds);
  }
  // A failed job ends at its failure: Spark cancels its other running stages.
  if (result_.job_failure) makespan = result_.job_failure->at_seconds;
  result_.makespan_seconds = makespan + end_seconds;
  result_.variants = conf.variants.EnabledNames();
  // The true bytes each recorded read's specs fetch (the stage ids are final now).
  for (size_t i = 0; i < recorded_reads_.size(); ++i) {
    const auto [st, node] = recorded_reads_[i];
    ReadExplain& re = result_.reads[i];
    re.stage = st->id;
    for (size_t t = 0; t < re.specs.size(); ++t)
      re.true_bytes.push_back(work->ReadBytes(*node, static_cast<int>(t)));
  }
  // Exchanges that ran and joins, as the final plan has them.
  for (const ExecNode* n : PreOrder(&final_plan)) {
    if (n->is_exchange() && n->shuffle->data->stage)
      result_.exchanges.push_back(SummarizeExchange(*n, conf, map_status_aggregate_seconds_per_block));
    if (n->is_join()) result_.joins.push_back(SummarizeJoin(*n));
  }
  // Exchanges removed from the plan (e.g. the probe shuffle of a converted join that had
  // already started) still ran: list them too.
  for (const QueryStage& st : graph->stages()) {
    if (st.kind != StageKind::kShuffleMap) continue;
    bool listed = false;
    for (const ExchangeExplain& e : result_.exchanges) listed |= e.id == st.output->id;
    if (!listed)
      result_.exchanges.push_back(
          SummarizeExchange(*st.output, conf, map_status_aggregate_seconds_per_block));
  }
  // Last, the task records move into the result (not copied: 10^7 tasks are 640 MB).
  for (size_t i = 0; i < order.size(); ++i)
    result_.stages[i].task_results = std::move(graph->run(*order[i]).tasks);
  return std::move(result_);
}

}  // namespace aqesim
