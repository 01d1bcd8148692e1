#include "models/engine/query_execution.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <map>
#include <memory>

#include "models/aqe/aqe_optimizer.h"
#include "models/cost/cost_model.h"
#include "models/engine/static_planner.h"
#include "models/plan/join_selection_helper.h"
#include "models/plan/plan_queries.h"
#include "models/plan/query_stage.h"
#include "models/plan/stage_walk.h"
#include "models/shuffle/generators.h"
#include "models/shuffle/size_matrix_resample.h"
#include "sim/rng.h"
#include "sim/simulator.h"
#include "sim/task_scheduler.h"

namespace aqesim {

namespace {

using Shares = std::vector<std::pair<int, int64_t>>;

/// Tier of the adaptive driver step: after all task completions of the same instant
/// ("drain all other completion events already queued", spec §2 step 3).
constexpr int kDriverTier = TaskScheduler::kDispatchTier - 1;

int64_t Scale(int64_t bytes, double factor) {
  return static_cast<int64_t>(static_cast<double>(bytes) * factor);
}

void MergeShares(Shares* into, const Shares& add) { into->insert(into->end(), add.begin(), add.end()); }

/// Sorts by planned partition and sums duplicates.
void NormalizeShares(Shares* s) {
  std::sort(s->begin(), s->end());
  size_t w = 0;
  for (size_t i = 0; i < s->size(); ++i) {
    if (w > 0 && (*s)[w - 1].first == (*s)[i].first) {
      (*s)[w - 1].second += (*s)[i].second;
    } else {
      (*s)[w++] = (*s)[i];
    }
  }
  s->resize(w);
}

MapStatusConfig MapStatusConfigOf(const SqlConf& c) {
  MapStatusConfig m;
  m.min_num_partitions_to_highly_compress = c.min_num_partitions_to_highly_compress;
  m.accurate_block_threshold_bytes = c.accurate_block_threshold_bytes;
  m.accurate_block_skewed_factor = c.accurate_block_skewed_factor;
  m.max_accurate_skewed_block_number = c.max_accurate_skewed_block_number;
  return m;
}

/// SparkContext.defaultParallelism: spark.default.parallelism if set; local[N] → N (local[*]
/// → the cores); on a cluster the total executor cores, at least 2
/// (CoarseGrainedSchedulerBackend / LocalSchedulerBackend).
int DefaultParallelism(const Scenario& s) {
  if (s.conf.default_parallelism) return *s.conf.default_parallelism;
  if (s.conf.master.local) return s.conf.master.local_threads.value_or(std::max(1, s.cluster.total_cores()));
  return std::max(2, s.cluster.total_cores());
}

/// What running a stage produced.
struct StageRun {
  std::vector<TaskResult> tasks;
  /// Per task: (planned partition of the subtree's output, bytes it read for it) — how the
  /// task's output maps onto the exchange's planned rows.
  std::vector<Shares> shares;
  /// Broadcast stages: uncompressed relation bytes, and the broadcast's own time.
  int64_t broadcast_bytes = 0;
  double broadcast_seconds = 0;
};

class Engine {
  struct CodeState;  // per stage code, per executor: warm / cold-budget state (below)

 public:
  Engine(const Scenario& s, bool adaptive)
      : s_(s),
        conf_(WithAdaptive(s.conf, adaptive)),
        slots_per_executor_(std::max(1, s.cluster.executor_cores / std::max(1, s.conf.task_cpus))),
        scheduler_(MakeScheduler(sim_, s.cluster, slots_per_executor_)),
        cost_(s.cost, s.cluster, slots_per_executor_, s.conf.memory_fraction) {
    result_.adaptive = adaptive;
    // JVMs that ran tasks before the start (the others pay executorStartupSeconds until their
    // first task finishes).
    // Executors that ran this query's code before count as warm for every stage's code.
    jvm_warm_.assign(static_cast<size_t>(std::max(0, NumExecutors())), 0);
    code_warm_.assign(jvm_warm_.size(), 0);
    for (size_t e = 0; e < jvm_warm_.size(); ++e) {
      const bool timeline = !s.cluster.executor_timeline.empty();
      code_warm_[e] = timeline ? s.cluster.executor_timeline[e].warm_code
                               : static_cast<int>(e) < s.cluster.warm_code_executors;
      jvm_warm_[e] = code_warm_[e] || (timeline ? s.cluster.executor_timeline[e].warm
                                                : static_cast<int>(e) < s.cluster.warm_executors);
    }
  }

  RunResult Run() {
    StaticPlan sp = PlanStatically(s_, conf_);
    for (auto& d : sp.decisions) result_.decisions.push_back(std::move(d));
    result_.warnings = std::move(sp.warnings);
    plans_.push_back(std::move(sp.root));
    if (conf_.adaptive_enabled) {
      for (std::string& w : CheckExcludedRules(conf_)) result_.warnings.push_back(std::move(w));
      sim_.ScheduleAt(SimTime::Zero(), kDriverTier, [this] { AdaptiveStep(); });
    } else {
      CreateStaticStages();
    }
    sim_.Run();
    Finish();
    return std::move(result_);
  }

 private:
  /// Static cluster, or one executor per timeline entry (registrations and removals as events).
  static TaskScheduler MakeScheduler(Simulator& sim, const ClusterSpec& cluster, int slots_per_executor) {
    if (cluster.executor_timeline.empty()) return TaskScheduler(sim, cluster.executors, slots_per_executor);
    std::vector<ExecutorWindow> windows;
    for (const ExecutorLifetime& e : cluster.executor_timeline) {
      ExecutorWindow w;
      w.add = e.add_seconds > 0 ? SimTime::Seconds(e.add_seconds) : SimTime::Zero();
      // Removed before the start: never present (the scheduler skips a window ending at 0).
      if (e.remove_seconds)
        w.remove = *e.remove_seconds > 0
                       ? std::max(SimTime::Seconds(*e.remove_seconds), w.add + SimTime::Micros(1))
                       : SimTime::Zero();
      windows.push_back(w);
    }
    return TaskScheduler(sim, windows, slots_per_executor);
  }
  int NumExecutors() const { return scheduler_.slots().executors(); }

  static SqlConf WithAdaptive(SqlConf c, bool adaptive) {
    c.adaptive_enabled = adaptive;
    return c;
  }
  ExecNode* plan() { return plans_.back().get(); }
  double Now() const { return sim_.Now().seconds(); }

  RuleContext Context(bool final_stage) const {
    RuleContext ctx{conf_};
    ctx.default_parallelism = DefaultParallelism(s_);
    ctx.is_final_stage = final_stage;
    ctx.now_seconds = sim_.Now().seconds();
    return ctx;
  }

  // ---------------------------------------------------------------- stage structure

  QueryStage* NewStage(StageKind kind, ExecNode* output, ExecNode* subtree, std::string name) {
    stages_.emplace_back();
    QueryStage* st = &stages_.back();
    st->id = static_cast<int>(stages_.size()) - 1;
    st->kind = kind;
    st->output = output;
    st->subtree = subtree;
    st->name = std::move(name);
    if (kind == StageKind::kShuffleMap) output->shuffle->data->stage = st;
    if (kind == StageKind::kBroadcast) broadcast_stage_[output->id] = st;
    return st;
  }

  /// Stages whose output the subtree's tasks read; marks the subtree's operators as run by `st`.
  void LinkParents(QueryStage* st, ExecNode* subtree) {
    VisitStageOperators(subtree, [&](ExecNode* n) {
      if (n->is_exchange()) {  // a read: the boundary of the stage
        AddParent(st, n->shuffle->data->stage);
        return;
      }
      n->executing_stage = st;
      if (n->is_broadcast_join()) AddParent(st, broadcast_stage_.at(n->id));
    });
  }
  static void AddParent(QueryStage* st, QueryStage* p) {
    if (!p || std::find(st->parents.begin(), st->parents.end(), p) != st->parents.end()) return;
    st->parents.push_back(p);
    p->children.push_back(st);
    if (!p->done) st->parents_pending++;
  }

  // ---------------------------------------------------------------- AQE off

  void CreateStaticStages() {
    // Broadcast jobs first (BroadcastExchangeExec starts them while the query is prepared:
    // SparkPlan.prepare() prepares the children in order, then the node), then the main job;
    // stage ids in DAGScheduler creation order (parents first).
    std::function<void(ExecNode*, bool)> make = [&](ExecNode* n, bool broadcast_pass) {
      if (n->is_broadcast_join()) {
        const size_t build_index = BuildChildIndex(*n->join->build_side);
        for (size_t i = 0; i < n->children.size(); ++i) {
          ExecNode* c = n->children[i].get();
          if (i != build_index) {
            make(c, broadcast_pass);
          } else if (broadcast_pass && !broadcast_stage_.count(n->id)) {
            make(c, true);   // broadcasts nested in the build side first
            make(c, false);  // then the broadcast job's own map stages
            QueryStage* b = NewStage(StageKind::kBroadcast, n, c, n->id + " broadcast");
            LinkParents(b, c);
          }
        }
        return;
      }
      for (auto& c : n->children) make(c.get(), broadcast_pass);
      if (!broadcast_pass && n->is_exchange() && !n->shuffle->data->stage) {
        QueryStage* st = NewStage(StageKind::kShuffleMap, n, &n->child(0), n->id + " map");
        LinkParents(st, &n->child(0));
      }
    };
    make(plan(), true);
    make(plan(), false);
    QueryStage* r = NewStage(StageKind::kResult, nullptr, plan(), "result");
    LinkParents(r, plan());
    for (auto& st : stages_) {
      st.num_tasks = StageTaskCount(*st.subtree);
      if (st.parents_pending == 0) Submit(&st);
    }
  }

  // ---------------------------------------------------------------- AQE on

  void RequestAdaptiveStep(double driver_seconds) {
    if (step_pending_) return;
    step_pending_ = true;
    sim_.ScheduleIn(SimTime::Seconds(s_.cost.replan_seconds + driver_seconds), kDriverTier, [this] {
      step_pending_ = false;
      AdaptiveStep();
    });
  }

  void AdaptiveStep() {
    if (materialized_since_replan_) {
      materialized_since_replan_ = false;
      AqeOptimizer::Reoptimized re = optimizer_.ReOptimize(Context(false), *plan());
      for (auto& d : re.decisions) result_.decisions.push_back(std::move(d));
      if (re.plan) plans_.push_back(std::move(re.plan));
    }
    std::vector<QueryStage*> created;
    const bool ready = CreateQueryStages(plan(), &created);
    // Broadcast stages are submitted before shuffle stages.
    std::stable_sort(created.begin(), created.end(), [](QueryStage* a, QueryStage* b) {
      return (a->kind == StageKind::kBroadcast) > (b->kind == StageKind::kBroadcast);
    });
    for (QueryStage* st : created) {
      st->id = next_aqe_stage_id_++;
      Submit(st);
    }
    if (ready && !result_stage_) {
      ExecNode* root = plan();
      if (conf_.apply_final_stage_shuffle_optimizations) {
        for (auto& d : optimizer_.OptimizeQueryStage(Context(true), root))
          result_.decisions.push_back(std::move(d));
      }
      result_stage_ = NewStage(StageKind::kResult, nullptr, root, "result");
      LinkParents(result_stage_, root);
      result_stage_->num_tasks = StageTaskCount(*root);
      result_stage_->id = next_aqe_stage_id_++;
      RecordReads(result_stage_);
      Submit(result_stage_);
    }
  }

  /// Spark's createQueryStages: true when every stage below `n` is materialized.
  bool CreateQueryStages(ExecNode* n, std::vector<QueryStage*>* created) {
    if (n->is_exchange()) {
      ShuffleData& d = *n->shuffle->data;
      if (d.stage) return d.stage->done;
      if (CreateQueryStages(&n->child(0), created)) {
        for (auto& dec : optimizer_.OptimizeQueryStage(Context(false), &n->child(0)))
          result_.decisions.push_back(std::move(dec));
        // A re-planned child (e.g. a join converted to broadcast) may plan another number of
        // partitions than the matrix was given for.
        if (d.planned.num_maps() != n->child(0).planned_partitions) {
          result_.warnings.push_back(n->id + ": rows resampled from " + std::to_string(d.planned.num_maps()) +
                                     " to " + std::to_string(n->child(0).planned_partitions) +
                                     " after the plan below it changed");
          CheckMaterializable(*n, "resampling its rows",
                              std::max(d.planned.num_maps(), n->child(0).planned_partitions), d.num_reducers);
          d.planned = ResampleMaps(d.planned.ToDense(), n->child(0).planned_partitions);
        }
        QueryStage* st = NewStage(StageKind::kShuffleMap, n, &n->child(0), n->id + " map");
        LinkParents(st, &n->child(0));
        st->num_tasks = StageTaskCount(n->child(0));
        RecordReads(st);
        created->push_back(st);
      }
      return false;
    }
    if (n->is_broadcast_join()) {
      // Children in plan order, as Spark's createQueryStages maps over them; the build child
      // is the BroadcastExchangeExec.
      const size_t build_index = BuildChildIndex(*n->join->build_side);
      bool all = true;
      for (size_t i = 0; i < n->children.size(); ++i) {
        ExecNode* c = n->children[i].get();
        if (i != build_index) {
          all = CreateQueryStages(c, created) && all;
          continue;
        }
        auto it = broadcast_stage_.find(n->id);
        if (it != broadcast_stage_.end()) {
          all = it->second->done && all;
          continue;
        }
        all = false;
        if (CreateQueryStages(c, created)) {
          for (auto& dec : optimizer_.OptimizeQueryStage(Context(false), c))
            result_.decisions.push_back(std::move(dec));
          QueryStage* b = NewStage(StageKind::kBroadcast, n, c, n->id + " broadcast");
          LinkParents(b, c);
          b->num_tasks = StageTaskCount(*c);
          created->push_back(b);
        }
      }
      return all;
    }
    bool all = true;
    for (auto& c : n->children) all = CreateQueryStages(c.get(), created) && all;
    return all;
  }

  /// explain's `reads`: the specs every exchange read of the stage uses (broadcast build
  /// sides are not listed).
  void RecordReads(QueryStage* st) {
    for (ExecNode* n : StageReads(st->subtree)) {
      ReadExplain r;
      r.exchange = n->id;
      r.stage = st->id;
      r.specs = n->shuffle->ReadSpecsOrDefault();
      read_index_.push_back({st, n});
      result_.reads.push_back(std::move(r));
    }
  }

  // ---------------------------------------------------------------- tasks

  struct TaskEval {
    TaskWork work;
    int64_t input_bytes = 0;
    int64_t shuffle_read_bytes = 0;
  };

  /// Per coalesced read spec of an exchange read (a finished shuffle): bytes and fetch
  /// requests over all maps, the same per executor of the maps (executor-major: index
  /// executor * num_specs + spec), and the true column sums. Exactly the sums EvalRead's
  /// per-map loop forms.
  struct CoalescedReadSums {
    const void* specs = nullptr;  // identity of the read's spec list (nullptr: default read)
    size_t num_specs = 0;
    size_t executors = 0;
    std::vector<int64_t> bytes, requests, exec_bytes, exec_requests, column;
  };
  /// Null when the per-executor table would be too large (the caller then loops per map).
  const CoalescedReadSums* CoalescedSums(const ExecNode& n) const {
    constexpr size_t kMaxCells = size_t{1} << 23;
    const ShuffleData& d = *n.shuffle->data;
    const void* specs_id =
        n.shuffle->read_specs ? static_cast<const void*>(n.shuffle->read_specs->data()) : nullptr;
    const size_t num_specs =
        n.shuffle->read_specs ? n.shuffle->read_specs->size() : static_cast<size_t>(d.num_reducers);
    if (num_specs * static_cast<size_t>(std::max(1, NumExecutors())) > kMaxCells) return nullptr;
    CoalescedReadSums& c = coalesced_sums_[&n];
    if (c.specs == specs_id && c.num_specs == num_specs && !c.column.empty()) return &c;
    const ShuffleSizes& a = d.actual;
    const bool batch = conf_.fetch_shuffle_blocks_in_batch && conf_.adaptive_enabled;
    c.specs = specs_id;
    c.num_specs = num_specs;
    c.executors = static_cast<size_t>(std::max(0, NumExecutors()));
    c.bytes.assign(num_specs, 0);
    c.requests.assign(num_specs, 0);
    c.exec_bytes.assign(num_specs * c.executors, 0);
    c.exec_requests.assign(num_specs * c.executors, 0);
    // Coalesced ranges of the read, in spec order (other spec kinds are not summed here).
    std::vector<std::pair<int, int>> ranges(num_specs, {0, 0});
    for (size_t j = 0; j < num_specs; ++j) {
      if (!n.shuffle->read_specs) {
        ranges[j] = {static_cast<int>(j), static_cast<int>(j) + 1};
      } else if (auto* cs = std::get_if<CoalescedPartitionSpec>(&(*n.shuffle->read_specs)[j])) {
        ranges[j] = {std::max(0, cs->start_reducer_index), std::min(a.num_reducers(), cs->end_reducer_index)};
      }
    }
    // Skew-split reducers of the read: a streamed shuffle extracts their columns in the same
    // pass (EvalRead of a PartialReducerPartitionSpec then looks them up).
    std::vector<int> split;
    if (a.streamed() && n.shuffle->read_specs)
      for (const ShufflePartitionSpec& x : *n.shuffle->read_specs)
        if (auto* px = std::get_if<PartialReducerPartitionSpec>(&x)) split.push_back(px->reducer_index);
    const size_t reducers = static_cast<size_t>(a.num_reducers());
    const size_t groups = c.executors + 1;  // map executors, then "unknown"
    if (groups * (reducers + 1) <= kMaxCells) {
      // Bytes and block counts are sums over maps of sums over the range (cells are >= 0, so a
      // range summing to 0 has no block), so they are summed per (map executor, reducer) cell by
      // cell, then per range; only batch fetches (one request per non-empty map block range)
      // need a per-(map, spec) test, which stops at the first non-empty block.
      std::vector<int64_t> cell_bytes(groups * (reducers + 1), 0), cell_blocks(groups * (reducers + 1), 0);
      std::vector<uint8_t> group_used(groups, 0);
      // Batch fetches: a one-reducer range has a request per non-empty block, like non-batch.
      std::vector<size_t> multi;
      for (size_t j = 0; j < num_specs; ++j)
        if (ranges[j].second - ranges[j].first > 1) multi.push_back(j);
      a.ForEachRowExtracting(split, [&](int m, std::span<const int64_t> row_span) {
        const int64_t* row = row_span.data();
        const int me = m < static_cast<int>(d.map_executor.size()) ? d.map_executor[m] : -1;
        const size_t g =
            me >= 0 && static_cast<size_t>(me) < c.executors ? static_cast<size_t>(me) : c.executors;
        group_used[g] = 1;
        AddRowBytesAndBlocks(row_span, cell_bytes.data() + g * (reducers + 1),
                             cell_blocks.data() + g * (reducers + 1));
        if (!batch) return;
        int64_t* exec_req = g < c.executors ? c.exec_requests.data() + g * num_specs : nullptr;
        for (size_t j : multi) {
          bool any = false;
          for (int r = ranges[j].first; r < ranges[j].second && !any; ++r) any = row[r] > 0;
          if (!any) continue;
          ++c.requests[j];
          if (exec_req) ++exec_req[j];
        }
      });
      for (size_t g = 0; g < groups; ++g) {
        if (!group_used[g]) continue;
        // Exclusive prefix sums over reducers, so a range is one subtraction.
        int64_t* gb = cell_bytes.data() + g * (reducers + 1);
        int64_t* gk = cell_blocks.data() + g * (reducers + 1);
        int64_t pb = 0, pk = 0;
        for (size_t r = 0; r <= reducers; ++r) {
          const int64_t vb = gb[r], vk = gk[r];
          gb[r] = pb, gk[r] = pk;
          pb += vb, pk += vk;
        }
        for (size_t j = 0; j < num_specs; ++j) {
          if (ranges[j].first >= ranges[j].second) continue;
          const int64_t bytes = gb[ranges[j].second] - gb[ranges[j].first];
          c.bytes[j] += bytes;
          if (g < c.executors) c.exec_bytes[g * num_specs + j] += bytes;
          if (batch && ranges[j].second - ranges[j].first > 1) continue;
          const int64_t blocks = gk[ranges[j].second] - gk[ranges[j].first];
          c.requests[j] += blocks;
          if (g < c.executors) c.exec_requests[g * num_specs + j] += blocks;
        }
      }
      c.column = a.PartitionBytes();
      return &c;
    }
    // One pass over the rows (a streamed shuffle's column sums come from the same pass).
    a.ForEachRowExtracting(split, [&](int m, std::span<const int64_t> row_span) {
      const int64_t* row = row_span.data();
      const int me = m < static_cast<int>(d.map_executor.size()) ? d.map_executor[m] : -1;
      const bool known = me >= 0 && static_cast<size_t>(me) < c.executors;
      for (size_t j = 0; j < num_specs; ++j) {
        int64_t sum = 0, blocks = 0;
        for (int r = ranges[j].first; r < ranges[j].second; ++r) {
          sum += row[r];
          blocks += row[r] > 0;
        }
        if (sum <= 0) continue;
        const int64_t req = batch ? 1 : blocks;
        c.bytes[j] += sum;
        c.requests[j] += req;
        if (known) {
          c.exec_bytes[static_cast<size_t>(me) * num_specs + j] += sum;
          c.exec_requests[static_cast<size_t>(me) * num_specs + j] += req;
        }
      }
    });
    c.column = a.PartitionBytes();
    return &c;
  }

  /// Bytes one read spec of exchange `n` fetches; fills fetch terms and shares.
  int64_t EvalRead(const ExecNode& n, int task, int executor, TaskEval* ev, Shares* shares) const {
    const ShuffleData& d = *n.shuffle->data;
    const ShuffleSizes& a = d.actual;
    const ShufflePartitionSpec spec = n.shuffle->read_spec(task);
    const bool batch = conf_.fetch_shuffle_blocks_in_batch && conf_.adaptive_enabled;
    int64_t total = 0;
    auto fetch = [&](int map, int64_t bytes, int64_t blocks, bool force_local) {
      if (bytes <= 0) return;
      const bool local =
          force_local || (map < static_cast<int>(d.map_executor.size()) && d.map_executor[map] == executor);
      const int64_t requests = batch ? 1 : blocks;
      if (local) {
        ev->work.local_shuffle_bytes += bytes;
        ev->work.local_fetch_requests += requests;
      } else {
        ev->work.remote_shuffle_bytes += bytes;
        ev->work.remote_fetch_requests += requests;
      }
      total += bytes;
    };
    const auto* c = std::get_if<CoalescedPartitionSpec>(&spec);
    // A finished streamed shuffle: the read's sums (and skew-split columns) in one pass.
    if (a.streamed() && d.stage && d.stage->done) CoalescedSums(n);
    if (const CoalescedReadSums* cached = c && d.stage && d.stage->done ? CoalescedSums(n) : nullptr) {
      // The finished shuffle's coalesced reads, summed once per (spec, map executor) in one
      // row-major pass (a spec's per-map loop would walk the matrix column-wise per task).
      const CoalescedReadSums& sums = *cached;
      const size_t j = static_cast<size_t>(task);
      const size_t e = static_cast<size_t>(executor);
      const bool has_local = executor >= 0 && e < sums.executors;
      const int64_t local_bytes = has_local ? sums.exec_bytes[e * sums.num_specs + j] : 0;
      const int64_t local_requests = has_local ? sums.exec_requests[e * sums.num_specs + j] : 0;
      ev->work.local_shuffle_bytes += local_bytes;
      ev->work.local_fetch_requests += local_requests;
      ev->work.remote_shuffle_bytes += sums.bytes[j] - local_bytes;
      ev->work.remote_fetch_requests += sums.requests[j] - local_requests;
      total = sums.bytes[j];
      for (int r = c->start_reducer_index; r < c->end_reducer_index; ++r)
        shares->push_back({r, sums.column[r]});
    } else if (c) {
      const int lo = c->start_reducer_index, hi = c->end_reducer_index;
      std::vector<int64_t> col(std::max(0, hi - lo), 0);
      for (int m = 0; m < a.num_maps(); ++m) {
        auto row = a.row(m);
        int64_t s = 0, blocks = 0;
        for (int r = lo; r < hi; ++r) {
          s += row[r];
          blocks += row[r] > 0;
          col[r - lo] += row[r];
        }
        fetch(m, s, blocks, false);
      }
      for (int r = lo; r < hi; ++r) shares->push_back({r, col[r - lo]});
    } else if (auto* p = std::get_if<PartialReducerPartitionSpec>(&spec)) {
      // A streamed shuffle: every skew-split reducer of this read extracted in one pass.
      if (a.streamed() && !a.HasColumn(p->reducer_index) && n.shuffle->read_specs) {
        std::vector<int> split;
        for (const ShufflePartitionSpec& x : *n.shuffle->read_specs)
          if (auto* px = std::get_if<PartialReducerPartitionSpec>(&x)) split.push_back(px->reducer_index);
        a.PrefetchColumns(split);
      }
      int64_t sum = 0;
      for (int m = p->start_map_index; m < p->end_map_index; ++m) {
        const int64_t v = a.streamed() ? a.Column(p->reducer_index)[m] : a.at(m, p->reducer_index);
        fetch(m, v, 1, false);
        sum += v;
      }
      shares->push_back({p->reducer_index, sum});
    } else if (auto* pm = std::get_if<PartialMapperPartitionSpec>(&spec)) {
      auto row = a.row(pm->map_index);
      for (int r = pm->start_reducer_index; r < pm->end_reducer_index; ++r) {
        fetch(pm->map_index, row[r], 1, true);
        shares->push_back({r, row[r]});
      }
    } else if (auto* cm = std::get_if<CoalescedMapperPartitionSpec>(&spec)) {
      std::vector<int64_t> col(cm->num_reducers, 0);
      for (int m = cm->start_map_index; m < cm->end_map_index; ++m) {
        auto row = a.row(m);
        int64_t s = 0, blocks = 0;
        for (int r = 0; r < cm->num_reducers; ++r) {
          s += row[r];
          blocks += row[r] > 0;
          col[r] += row[r];
        }
        fetch(m, s, blocks, true);
      }
      for (int r = 0; r < cm->num_reducers; ++r) shares->push_back({r, col[r]});
    }
    ev->shuffle_read_bytes += total;
    return total;
  }

  // ---------------------------------------------------------------- locality

  /// Spark's preferred locations of task `task` of the stage rooted at `n`, as executors (an
  /// executor stands for its host). Follows Eval's task mapping; an empty list is no
  /// preference. Reads: a coalesced (or default) spec prefers the executors holding at least
  /// 20% of one of its reducers' bytes (MapOutputTrackerMaster.getPreferredLocationsForShuffle,
  /// REDUCER_PREF_LOCS_FRACTION, only below 1000 map tasks and 1000 reducers; true block sizes
  /// here, MapStatus sizes in Spark), a skew split or local read the executors that ran its
  /// maps (getMapLocation). Two shuffled join sides combine as ZippedPartitionsRDD does (the
  /// common executors, else all of them); a cartesian product takes both sides' (CartesianRDD).
  std::vector<int> PreferredExecutors(const ExecNode& n, int task) const {
    switch (n.op) {
      case PlanOp::kExchange:
        return ReadPreferences(n, task);
      case PlanOp::kScan:
        return {};
      case PlanOp::kUnion: {
        const std::optional<UnionTask> u = UnionTaskOf(n, task);
        return u ? PreferredExecutors(*n.children[u->child], u->task) : std::vector<int>{};
      }
      case PlanOp::kJoin: {
        const JoinState& j = *n.join;
        if (n.is_broadcast_join()) return PreferredExecutors(StreamedChild(n), task);
        std::vector<int> l, r;
        if (j.strategy == JoinStrategy::kCartesianProduct) {
          const auto [lt, rt] = CartesianTaskOf(n, task);
          l = PreferredExecutors(n.child(0), lt);
          r = PreferredExecutors(n.child(1), rt);
        } else {
          l = PreferredExecutors(n.child(0), task);
          r = PreferredExecutors(n.child(1), task);
          std::vector<int> both;
          for (int e : l) {
            if (std::find(r.begin(), r.end(), e) != r.end()) both.push_back(e);
          }
          if (!both.empty()) return both;
        }
        for (int e : r) {
          if (std::find(l.begin(), l.end(), e) == l.end()) l.push_back(e);
        }
        return l;
      }
      default:
        return n.children.empty() ? std::vector<int>{} : PreferredExecutors(n.child(0), task);
    }
  }

  /// Per executor that ran map tasks of a finished shuffle: its true bytes per reducer, for
  /// reduce locality; empty when Spark computes no preference (1000 map tasks or reducers and
  /// more). At most 999 executors x 999 reducers.
  const std::map<int, std::vector<int64_t>>& ReducerBytesByExecutor(const ShuffleData& d) const {
    auto [it, inserted] = reducer_bytes_by_executor_.try_emplace(&d);
    std::map<int, std::vector<int64_t>>& out = it->second;
    if (!inserted) return out;
    const ShuffleSizes& a = d.actual;
    constexpr int kPrefThreshold = 1000;  // SHUFFLE_PREF_MAP_THRESHOLD, SHUFFLE_PREF_REDUCE_THRESHOLD
    if (a.num_maps() >= kPrefThreshold || a.num_reducers() >= kPrefThreshold) return out;
    const size_t reducers = static_cast<size_t>(a.num_reducers());
    a.ForEachRow([&](int m, std::span<const int64_t> row) {
      const int e = m < static_cast<int>(d.map_executor.size()) ? d.map_executor[m] : -1;
      if (e < 0) return;
      std::vector<int64_t>& bytes = out[e];
      bytes.resize(reducers, 0);
      for (size_t r = 0; r < reducers; ++r) bytes[r] += row[r];
    });
    return out;
  }

  std::vector<int> ReadPreferences(const ExecNode& n, int task) const {
    const ShuffleData& d = *n.shuffle->data;
    if (!d.stage || !d.stage->done) return {};
    const ShufflePartitionSpec spec = n.shuffle->read_spec(task);
    std::vector<int> out;
    auto add = [&](int e) {
      if (e >= 0 && std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
    };
    auto maps = [&](int lo, int hi) {
      for (int m = std::max(lo, 0); m < hi && m < static_cast<int>(d.map_executor.size()); ++m)
        add(d.map_executor[m]);
    };
    if (const auto* c = std::get_if<CoalescedPartitionSpec>(&spec)) {
      const std::map<int, std::vector<int64_t>>& bytes = ReducerBytesByExecutor(d);
      const int reducers = d.actual.num_reducers();
      for (int r = std::max(0, c->start_reducer_index);
           r < std::min(reducers, c->end_reducer_index) && !bytes.empty(); ++r) {
        long double total = 0;
        for (const auto& [e, b] : bytes) total += static_cast<long double>(b[static_cast<size_t>(r)]);
        if (total <= 0) continue;
        for (const auto& [e, b] : bytes) {
          if (static_cast<long double>(b[static_cast<size_t>(r)]) >= 0.2L * total) add(e);
        }
      }
    } else if (const auto* p = std::get_if<PartialReducerPartitionSpec>(&spec)) {
      maps(p->start_map_index, p->end_map_index);
    } else if (const auto* pm = std::get_if<PartialMapperPartitionSpec>(&spec)) {
      maps(pm->map_index, pm->map_index + 1);
    } else if (const auto* cm = std::get_if<CoalescedMapperPartitionSpec>(&spec)) {
      maps(cm->start_map_index, cm->end_map_index);
    }
    return out;
  }

  /// Output bytes of `n` for task `task` (index among n's tasks); accumulates work; appends
  /// (planned partition of n, bytes) to shares.
  int64_t Eval(ExecNode* n, int task, int executor, TaskEval* ev, Shares* shares) const {
    const double sel = n->source ? n->source->selectivity : 1.0;
    switch (n->op) {
      case PlanOp::kExchange:
        return EvalRead(*n, task, executor, ev, shares);
      case PlanOp::kScan: {
        const int64_t bytes = n->source ? n->source->scan_bytes : 0;
        const int tasks = std::max(1, n->planned_partitions);
        const std::vector<int64_t>* given = n->source ? &n->source->task_bytes : nullptr;
        const int64_t part = given && static_cast<int>(given->size()) == tasks && task >= 0 && task < tasks
                                 ? (*given)[task]
                                 : bytes / tasks + (task < bytes % tasks ? 1 : 0);
        ev->work.scan_bytes += part;
        ev->input_bytes += part;
        shares->push_back({task, part});
        return part;
      }
      case PlanOp::kUnion: {
        const std::optional<UnionTask> u = UnionTaskOf(*n, task);
        if (!u) return 0;
        Shares sub;
        const int64_t out = Eval(n->children[u->child].get(), u->task, executor, ev, &sub);
        for (auto& [p, b] : sub) shares->push_back({p + u->partition_offset, b});
        ev->work.stream_bytes += out;
        return out;
      }
      case PlanOp::kJoin:
        return EvalJoin(n, task, executor, ev, shares, sel);
      case PlanOp::kAggregate: {
        const int64_t in = Eval(&n->child(0), task, executor, ev, shares);
        const int64_t out = Scale(in, sel);
        ev->work.aggregate_bytes += in;
        ev->work.working_set_bytes += out;
        return out;
      }
      case PlanOp::kSort: {
        const int64_t in = Eval(&n->child(0), task, executor, ev, shares);
        ev->work.sort_bytes += in;
        ev->work.working_set_bytes += in;
        return in;
      }
      default: {
        const int64_t in = Eval(&n->child(0), task, executor, ev, shares);
        ev->work.stream_bytes += in;
        return Scale(in, sel);
      }
    }
  }

  int64_t EvalJoin(ExecNode* n, int task, int executor, TaskEval* ev, Shares* shares, double sel) const {
    const JoinState& j = *n->join;
    switch (j.strategy) {
      case JoinStrategy::kBroadcastHash:
      case JoinStrategy::kBroadcastNestedLoop: {
        const int64_t probe = Eval(&StreamedChild(*n), task, executor, ev, shares);
        ev->work.probe_bytes += probe;
        return Scale(probe, sel);
      }
      case JoinStrategy::kCartesianProduct: {
        const auto [lt, rt] = CartesianTaskOf(*n, task);
        Shares ls, rs;
        const int64_t l = Eval(&n->child(0), lt, executor, ev, &ls);
        const int64_t r = Eval(&n->child(1), rt, executor, ev, &rs);
        const int rp = n->child(1).planned_partitions;
        for (auto& [pl, bl] : ls)
          for (auto& [pr, br] : rs) shares->push_back({pl * rp + pr, bl + br});
        ev->work.probe_bytes += l + r;
        return Scale(l + r, sel);
      }
      default: {
        Shares ls, rs;
        const int64_t l = Eval(&n->child(0), task, executor, ev, &ls);
        const int64_t r = Eval(&n->child(1), task, executor, ev, &rs);
        MergeShares(shares, ls);
        MergeShares(shares, rs);
        if (j.strategy == JoinStrategy::kShuffledHash) {
          const bool build_left = j.build_side == BuildSide::kLeft;
          const int64_t build = build_left ? l : r;
          ev->work.hash_build_bytes += build;
          ev->work.probe_bytes += build_left ? r : l;
          ev->work.working_set_bytes += build;
        } else {
          ev->work.sort_bytes += l + r;
          ev->work.probe_bytes += l + r;
          ev->work.working_set_bytes += l + r;
        }
        return Scale(l + r, sel);
      }
    }
  }

  // ---------------------------------------------------------------- running stages

  void Submit(QueryStage* st) {
    st->submitted = true;
    st->submit = sim_.Now();
    StageRun* run = &runs_[st];
    run->tasks.assign(st->num_tasks, TaskResult{});
    // The executors' state for this code, looked up once (map nodes do not move).
    auto [code_it, new_code] = code_state_.try_emplace(StageCodeKey(*st->subtree));
    CodeState* code = &code_it->second;
    if (new_code) {
      code->warm = code_warm_;
      code->cold_budget.resize(code_warm_.size());
      for (size_t e = 0; e < code_warm_.size(); ++e)
        code->cold_budget[e] = code_warm_[e] ? 0.0 : s_.cost.cold_code_window_seconds;
    }
    if (st->kind == StageKind::kShuffleMap) run->shares.assign(st->num_tasks, {});
    if (st->kind == StageKind::kShuffleMap) st->output->shuffle->data->map_executor.assign(st->num_tasks, 0);
    TaskSetSpec spec;
    spec.priority = st->id;
    spec.num_tasks = st->num_tasks;
    spec.launch_delay = SimTime::Seconds(s_.cost.stage_overhead_seconds);
    spec.duration = [this, st, run, code](int task, int executor) {
      return RunTask(st, run, code, task, executor);
    };
    spec.on_task_end = [this, run, code](const TaskRecord& rec) {
      if (rec.executor >= 0 && static_cast<size_t>(rec.executor) < code->warm.size())
        code->warm[rec.executor] = 1;
      if (rec.executor >= 0 && static_cast<size_t>(rec.executor) < jvm_warm_.size())
        jvm_warm_[rec.executor] = 1;
      TaskResult& t = run->tasks[rec.task_index];
      t.executor = rec.executor;
      t.slot = rec.slot;
      t.start_seconds = rec.start.seconds();
      t.end_seconds = rec.end.seconds();
    };
    spec.on_task_set_complete = [this, st, run](SimTime) { OnTasksDone(st, run); };
    if (conf_.shuffle_reduce_locality_enabled && StageReadsShuffle(*st->subtree)) {
      spec.preferred_executors = [this, st](int task) { return PreferredExecutors(*st->subtree, task); };
      spec.locality_wait = SimTime::Seconds(conf_.NodeLocalityWaitSeconds());
    }
    scheduler_.Submit(std::move(spec));
  }

  SimTime RunTask(QueryStage* st, StageRun* run, CodeState* code, int task, int executor) {
    TaskEval ev;
    Shares shares;
    const int64_t out = Eval(st->subtree, task, executor, &ev, &shares);
    if (st->kind == StageKind::kShuffleMap) {
      NormalizeShares(&shares);
      run->shares[task] = std::move(shares);
      st->output->shuffle->data->map_executor[task] = executor;
      // Bytes written are known once the stage's rows are apportioned; estimate now from the
      // planned rows this task covers (exact when no partition is shared between tasks).
      ev.work.shuffle_write_bytes = PlannedWriteBytes(*st, *run, task);
    } else if (st->kind == StageKind::kBroadcast) {
      run->broadcast_bytes += out;
    }
    const uint64_t seed = MixSeed(s_.seed, static_cast<uint64_t>(result_.adaptive),
                                  static_cast<uint64_t>(st->id), static_cast<uint64_t>(task));
    const std::vector<char>& warm = code->warm;
    ev.work.first_wave_on_executor =
        executor >= 0 && static_cast<size_t>(executor) < warm.size() && !warm[executor];
    ev.work.fresh_executor =
        executor >= 0 && static_cast<size_t>(executor) < jvm_warm_.size() && !jvm_warm_[executor];
    // The executor's cold budget for this code (coldCodeWindowSeconds of work; none on a
    // code-warm executor), used up by its tasks in the order they start.
    double* cold = nullptr;
    if (s_.cost.cold_code_slowdown > 0 && executor >= 0 &&
        static_cast<size_t>(executor) < code->cold_budget.size()) {
      cold = &code->cold_budget[static_cast<size_t>(executor)];
      ev.work.cold_work_limit_seconds = *cold;
    }
    const TaskCost c = cost_.EstimateTask(ev.work, seed);
    if (cold != nullptr) *cold = std::max(0.0, *cold - c.cold_work_seconds);
    TaskResult& t = run->tasks[task];
    t.index = task;
    t.input_bytes = ev.input_bytes;
    t.shuffle_read_bytes = ev.shuffle_read_bytes;
    t.shuffle_write_bytes = ev.work.shuffle_write_bytes;
    t.spill_bytes = c.spill_bytes;
    return SimTime::Seconds(c.total_seconds());
  }

  /// Bytes task `task` of a map stage writes: its share of each planned row it covers.
  int64_t PlannedWriteBytes(const QueryStage& st, const StageRun& run, int task) const {
    const ShuffleSizes& planned = st.output->shuffle->data->planned;
    const auto& sh = run.shares[task];
    int64_t total = 0;
    for (auto& [p, bytes] : sh) {
      if (p < 0 || p >= planned.num_maps()) continue;
      const int64_t row = planned.RowTotal(p);
      const int64_t denom = PartitionReadTotal(st, p);
      if (denom <= 0) {
        total += FirstOwner(st, p) == task ? row : 0;
      } else {
        total += static_cast<int64_t>(static_cast<Int128>(row) * bytes / denom);
      }
    }
    return total;
  }
  /// Total bytes read for planned partition p by every task of the stage (tasks launch in
  /// order, but shares are computable without running: computed lazily once).
  int64_t PartitionReadTotal(const QueryStage& st, int p) const {
    EnsurePartitionTotals(st);
    return partition_totals_.at(st.id)[p];
  }
  int FirstOwner(const QueryStage& st, int p) const {
    EnsurePartitionTotals(st);
    return first_owner_.at(st.id)[p];
  }
  void EnsurePartitionTotals(const QueryStage& st) const {
    if (partition_totals_.count(st.id)) return;
    // Shares do not depend on the executor: evaluate every task once with a dummy executor.
    const int parts = st.output->shuffle->data->planned.num_maps();
    std::vector<int64_t> totals(parts, 0);
    std::vector<int> owner(parts, -1);
    std::vector<Shares> all(st.num_tasks);
    for (int t = 0; t < st.num_tasks; ++t) {
      TaskEval ev;
      Eval(st.subtree, t, -1, &ev, &all[t]);
      NormalizeShares(&all[t]);
      for (auto& [p, b] : all[t]) {
        if (p < 0 || p >= parts) continue;
        totals[p] += b;
        if (owner[p] < 0) owner[p] = t;
      }
    }
    partition_totals_[st.id] = std::move(totals);
    first_owner_[st.id] = std::move(owner);
  }

  void OnTasksDone(QueryStage* st, StageRun* run) {
    double driver_seconds = 0;
    if (st->kind == StageKind::kShuffleMap) driver_seconds = FinishMapStage(st, run);
    if (st->kind == StageKind::kBroadcast) {
      const int64_t relation = st->subtree->is_exchange()
                                   ? st->subtree->shuffle->data->data_size_bytes
                                   : Scale(run->broadcast_bytes, s_.cost.compression_ratio);
      run->broadcast_bytes = relation;
      const CostModel::BroadcastCost bc = cost_.EstimateBroadcast(relation);
      run->broadcast_seconds = bc.total_seconds();
      if (relation > conf_.max_broadcast_table_size_bytes) {
        result_.failures.push_back(st->name + ": cannot broadcast a table of " + FormatBytes(relation) +
                                   ", larger than spark.sql.maxBroadcastTableSize " +
                                   FormatBytes(conf_.max_broadcast_table_size_bytes));
      }
      const double since_submit = (sim_.Now() - st->submit).seconds() + bc.total_seconds();
      if (since_submit > conf_.broadcast_timeout_seconds) {
        result_.failures.push_back(st->name + ": broadcast took " + std::to_string(since_submit) +
                                   " s, more than spark.sql.broadcastTimeout " +
                                   std::to_string(conf_.broadcast_timeout_seconds) + " s");
      }
      sim_.ScheduleIn(SimTime::Seconds(bc.total_seconds()), TaskScheduler::kTaskEndTier,
                      [this, st] { StageDone(st, 0); });
      return;
    }
    StageDone(st, driver_seconds);
  }

  void StageDone(QueryStage* st, double driver_seconds) {
    st->done = true;
    st->complete = sim_.Now();
    for (QueryStage* c : st->children) {
      if (--c->parents_pending == 0 && !c->submitted && !conf_.adaptive_enabled) Submit(c);
    }
    if (conf_.adaptive_enabled && st->kind != StageKind::kResult) {
      materialized_since_replan_ = true;
      RequestAdaptiveStep(driver_seconds);
    }
  }

  /// A shuffle the run must hold densely (rows resampled or apportioned after the plan below it
  /// changed) is bounded like a given matrix: PlanError (exit 2) rather than an allocation
  /// failure when a streamed 10^10-cell shuffle would have to be materialised.
  static void CheckMaterializable(const ExecNode& n, const char* why, int64_t maps, int64_t reducers) {
    if (maps * reducers <= kMaxSizeMatrixCells) return;
    throw PlanError{n.source ? n.source->pointer : "/plan",
                    n.id + ": " + why + " would materialise " + std::to_string(maps) + " x " +
                        std::to_string(reducers) + " cells; expected at most " +
                        std::to_string(kMaxSizeMatrixCells) +
                        " (map tasks x partitions) for a shuffle held densely"};
  }

  /// Apportions the planned rows onto the tasks that ran, builds the driver's view.
  /// Returns the driver's MapOutputStatistics aggregation time, seconds.
  double FinishMapStage(QueryStage* st, StageRun* run) {
    ShuffleData& d = *st->output->shuffle->data;
    const ShuffleSizes& planned = d.planned;
    const int reducers = d.num_reducers;
    // Owners of each planned row: (task, weight).
    std::vector<std::vector<std::pair<int, int64_t>>> owners(planned.num_maps());
    for (int t = 0; t < st->num_tasks; ++t)
      for (auto& [p, b] : run->shares[t])
        if (p >= 0 && p < planned.num_maps()) owners[p].push_back({t, b});
    // Task t wrote exactly planned row t (e.g. scan tasks): `actual` is `planned`; move it
    // instead of copying (planned is not read once its stage has finished).
    bool identity = planned.num_maps() == st->num_tasks && planned.num_reducers() == reducers;
    for (int p = 0; identity && p < planned.num_maps(); ++p)
      identity = owners[p].size() == 1 && owners[p][0].first == p;
    // Otherwise the rows are apportioned into a dense matrix (a streamed `planned` is read
    // once, in row order).
    if (!identity)
      CheckMaterializable(*st->output, "apportioning its rows to the map tasks that ran", st->num_tasks,
                          reducers);
    SizeMatrix actual = identity ? SizeMatrix() : SizeMatrix(st->num_tasks, reducers);
    int last_owner = 0;
    for (int p = 0; !identity && p < planned.num_maps(); ++p) {
      auto& own = owners[p];
      auto row = planned.row(p);
      if (own.empty()) {
        // Nobody read this planned partition (an empty reducer dropped by coalescing): its
        // rows go with the previous task so that bytes are conserved.
        own.push_back({last_owner, 1});
      }
      int64_t wsum = 0;
      for (auto& o : own) wsum += o.second;
      if (own.size() == 1 || wsum <= 0) {
        auto dst = actual.mutable_row(own[0].first);
        for (int r = 0; r < reducers; ++r) dst[r] += row[r];
      } else {
        // Cumulative rounding: every cell is split exactly.
        int64_t cum = 0;
        std::vector<int64_t> prev(reducers, 0);
        for (auto& [t, w] : own) {
          cum += w;
          auto dst = actual.mutable_row(t);
          for (int r = 0; r < reducers; ++r) {
            const int64_t upto = static_cast<int64_t>(static_cast<Int128>(row[r]) * cum / wsum);
            dst[r] += upto - prev[r];
            prev[r] = upto;
          }
        }
      }
      last_owner = own.back().first;
    }
    if (identity) {
      d.actual = std::move(d.planned);
      d.planned = ShuffleSizes();
    } else {
      d.actual = std::move(actual);
    }
    const std::vector<int64_t>& written = d.actual.MapBytes();
    for (int t = 0; t < st->num_tasks; ++t) run->tasks[t].shuffle_write_bytes = written[t];
    if (!conf_.adaptive_enabled) return 0;
    d.reported = std::make_unique<ReportedShuffleSizes>(
        ReportShuffleSizes(d.actual, MapStatusConfigOf(conf_), s_.map_status_mode, d.reported_size_ratio));
    return static_cast<double>(d.actual.num_maps()) * reducers *
           s_.cost.map_status_aggregate_seconds_per_block;
  }

  // ---------------------------------------------------------------- results

  void Finish() {
    double makespan = 0;
    std::vector<QueryStage*> order;
    for (auto& st : stages_) order.push_back(&st);
    std::sort(order.begin(), order.end(), [](QueryStage* a, QueryStage* b) { return a->id < b->id; });
    for (QueryStage* st : order) {
      const StageRun& run = runs_.at(st);
      StageResult r;
      r.id = st->id;
      r.name = st->name;
      r.kind = st->kind == StageKind::kShuffleMap  ? "ShuffleMapStage"
               : st->kind == StageKind::kBroadcast ? "BroadcastStage"
                                                   : "ResultStage";
      r.tasks = st->num_tasks;
      r.operators = DescribeStageOperators(*st->subtree);
      r.submit_seconds = st->submit.seconds();
      r.complete_seconds = st->complete.seconds();
      r.broadcast_seconds = run.broadcast_seconds;
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
      for (auto* n : StageReads(st->subtree)) r.reads.push_back(n->id);
      r.task_results = run.tasks;
      makespan = std::max(makespan, r.complete_seconds);
      result_.stages.push_back(std::move(r));
    }
    result_.makespan_seconds = makespan;
    // True bytes each recorded read's specs fetch.
    for (size_t i = 0; i < read_index_.size(); ++i) {
      auto [st, node] = read_index_[i];
      ReadExplain& re = result_.reads[i];
      re.stage = st->id;
      for (size_t t = 0; t < re.specs.size(); ++t) {
        TaskEval ev;
        Shares sh;
        re.true_bytes.push_back(EvalRead(*node, static_cast<int>(t), -1, &ev, &sh));
      }
    }
    // Exchanges and joins as the final plan has them.
    for (ExecNode* n : PreOrder(plan())) {
      if (n->is_exchange() && n->shuffle->data->stage) {
        const ShuffleData& d = *n->shuffle->data;
        ExchangeExplain e;
        e.id = n->id;
        e.map_tasks = d.actual.num_maps();
        e.num_partitions = d.num_reducers;
        e.true_bytes_by_partition_id = d.actual.PartitionBytes();
        e.data_size_bytes = d.data_size_bytes;
        e.data_size_estimated = d.data_size_estimated;
        e.reported_size_ratio = d.reported_size_ratio;
        if (d.reported) {
          e.map_status = std::string(d.reported->StatusKind());
          e.bytes_by_partition_id = d.reported->BytesByPartitionId();
          e.driver_map_status_bytes = d.reported->DriverMemoryBytes();
          e.driver_aggregation_seconds = static_cast<double>(e.map_tasks) * e.num_partitions *
                                         s_.cost.map_status_aggregate_seconds_per_block;
        } else {
          e.map_status =
              std::string(MapStatusKindName(ChooseMapStatusKind(d.num_reducers, MapStatusConfigOf(conf_))));
          e.bytes_by_partition_id = e.true_bytes_by_partition_id;
        }
        result_.exchanges.push_back(std::move(e));
      }
      if (n->is_join()) {
        JoinExplain j;
        j.id = n->id;
        j.strategy = std::string(JoinStrategyName(n->join->planned_strategy));
        j.final_strategy = std::string(JoinStrategyName(n->join->strategy));
        if (n->join->strategy != JoinStrategy::kSortMerge &&
            n->join->strategy != JoinStrategy::kCartesianProduct && n->join->build_side)
          j.build_side = std::string(BuildSideName(*n->join->build_side));
        j.is_skew_join = n->join->is_skew_join;
        result_.joins.push_back(std::move(j));
      }
    }
    // Exchanges removed from the plan (e.g. the probe shuffle of a converted join that had
    // already started) still ran: list them too.
    for (auto& st : stages_) {
      if (st.kind != StageKind::kShuffleMap) continue;
      bool listed = false;
      for (auto& e : result_.exchanges) listed |= e.id == st.output->id;
      if (listed) continue;
      ExchangeExplain e;
      const ShuffleData& d = *st.output->shuffle->data;
      e.id = st.output->id;
      e.map_tasks = d.actual.num_maps();
      e.num_partitions = d.num_reducers;
      e.true_bytes_by_partition_id = d.actual.PartitionBytes();
      e.bytes_by_partition_id = d.reported ? d.reported->BytesByPartitionId() : e.true_bytes_by_partition_id;
      e.map_status = d.reported ? std::string(d.reported->StatusKind()) : "";
      e.data_size_bytes = d.data_size_bytes;
      e.reported_size_ratio = d.reported_size_ratio;
      result_.exchanges.push_back(std::move(e));
    }
  }

  const Scenario& s_;
  SqlConf conf_;
  int slots_per_executor_;
  Simulator sim_;
  TaskScheduler scheduler_;
  CostModel cost_;
  AqeOptimizer optimizer_;
  std::vector<std::unique_ptr<ExecNode>> plans_;  // every version; the last is current
  std::deque<QueryStage> stages_;
  std::map<const QueryStage*, StageRun> runs_;
  std::map<std::string, QueryStage*> broadcast_stage_;
  std::vector<std::pair<QueryStage*, ExecNode*>> read_index_;
  mutable std::map<const ExecNode*, CoalescedReadSums> coalesced_sums_;
  mutable std::map<int, std::vector<int64_t>> partition_totals_;
  mutable std::map<int, std::vector<int>> first_owner_;
  /// Per finished shuffle: true bytes per (executor, reducer), for reduce-task locality.
  mutable std::map<const ShuffleData*, std::map<int, std::vector<int64_t>>> reducer_bytes_by_executor_;
  /// Per stage code (QueryStage::code_key), per executor: `warm` is 1 once a task of that code
  /// finished there (later tasks of it pay no executorStageWarmupSeconds); `cold_budget` the
  /// seconds of the code's work still to run cold there (coldCodeWindowSeconds at first, 0 on
  /// code-warm executors). Looked up once per stage, at submission.
  struct CodeState {
    std::vector<char> warm;
    std::vector<double> cold_budget;
  };
  std::map<std::string, CodeState> code_state_;
  /// Per executor: 1 once its JVM has finished a task (or it was warm at the start).
  std::vector<char> jvm_warm_;
  std::vector<char> code_warm_;  // per executor: ran this query's code before the start
  QueryStage* result_stage_ = nullptr;
  bool step_pending_ = false;
  bool materialized_since_replan_ = false;
  int next_aqe_stage_id_ = 0;
  RunResult result_;
};

}  // namespace

RunResult SimulateQuery(const Scenario& scenario, bool adaptive) {
  Engine engine(scenario, adaptive);
  return engine.Run();
}

}  // namespace aqesim
