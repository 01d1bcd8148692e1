#include "models/engine/static_planner.h"

#include <string>

#include "models/engine/bytedance_one_to_many_bucket_join.h"
#include "models/engine/coalesce_buckets_in_join.h"
#include "models/engine/disable_unnecessary_bucketed_scan.h"
#include "models/engine/ensure_requirements.h"
#include "models/engine/hot_bucket_shuffle.h"
#include "models/engine/range_exchange.h"
#include "models/engine/size_consistency.h"
#include "models/plan/join_selection_helper.h"
#include "models/plan/plan_error.h"
#include "models/plan/planned_properties.h"
#include "models/shuffle/generators.h"
#include "models/shuffle/shuffle_sizes.h"
#include "models/shuffle/size_matrix_resample.h"
#include "sim/rng.h"

namespace aqesim {

namespace {

bool IsPartitionCountSet(const RawConf& raw) {
  return raw.count("spark.sql.shuffle.partitions") > 0 ||
         raw.count("spark.sql.adaptive.coalescePartitions.initialPartitionNum") > 0;
}

uint64_t IdSeed(uint64_t seed, const std::string& id) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : id) h = (h ^ c) * 1099511628211ULL;
  return MixSeed(seed, h);
}

/// Bounds the tasks of one run before any runs (README "Input limits"): PlannedRunTasks at most
/// kMaxRunTasks. Throws PlanError at the operator whose stage has the most.
void CheckRunTasks(const ExecNode& root, bool materialized) {
  const PlannedTasks planned = PlannedRunTasks(root);
  const ExecNode* largest = planned.largest_stage_root;
  // Before the matrices are built, a stage above the limit alone is an operator's problem,
  // which the planner names more precisely (a scan's tasks, a shuffle's partitions); after, it
  // is refused whatever made it so (a union of two 10^7-partition shuffles: 2 x 10^7 tasks).
  if (planned.total <= kMaxRunTasks || (!materialized && largest->planned_partitions > kMaxPlannedTasks))
    return;
  throw PlanError(largest->source != nullptr ? largest->source->pointer : "/plan",
                  "expected at most " + std::to_string(kMaxRunTasks) +
                      " tasks in one run (all its stages' tasks together), found " +
                      std::to_string(planned.total) + ", of which this operator's stage has " +
                      std::to_string(largest->planned_partitions));
}

class Planner {
 public:
  Planner(const Scenario& s, const SqlConf& conf, StaticPlan* out) : s_(s), conf_(conf), out_(out) {}

  std::unique_ptr<ExecNode> Build(const PlanNode& p, ExecNode* parent) {
    auto n = std::make_unique<ExecNode>();
    n->op = p.op;
    n->id = p.id;
    n->source = &p;
    n->parent = parent;
    for (const auto& c : p.children) n->children.push_back(Build(*c, n.get()));
    if (p.op == PlanOp::kJoin) {
      n->join = std::make_unique<JoinState>();
      n->join->planned_strategy = p.strategy;
      n->join->strategy = p.strategy;
      n->join->build_side = p.build_side;
    }
    if (p.op == PlanOp::kExchange) n->shuffle = std::make_unique<ShuffleState>();
    return n;
  }

  // Static join selection, bottom-up (children first, as the planner plans the whole tree).
  void SelectJoins(ExecNode* n) {
    for (auto& c : n->children) SelectJoins(c.get());
    ComputePlannedProperties(n, conf_);
    if (!n->is_join()) return;
    JoinState& j = *n->join;
    const PlanNode& p = *n->source;
    if (j.strategy == JoinStrategy::kBroadcastHash || j.strategy == JoinStrategy::kBroadcastNestedLoop) {
      if (!j.build_side) j.build_side = DefaultBroadcastBuildSide(p.join_type);
      return;
    }
    if (j.strategy != JoinStrategy::kSortMerge && j.strategy != JoinStrategy::kShuffledHash) return;
    if (p.left_hint == JoinHint::kMerge || p.right_hint == JoinHint::kMerge) return;
    const int64_t threshold = conf_.auto_broadcast_join_threshold_bytes;
    auto small = [&](const ExecNode& side, JoinHint hint) {
      return hint == JoinHint::kBroadcast || CanBroadcastBySize(side.estimated_bytes, threshold);
    };
    const ExecNode &left = n->child(0), &right = n->child(1);
    const std::optional<BuildSide> build_side =
        ChooseBuildSide(CanBuildBroadcastLeft(p.join_type) && small(left, p.left_hint),
                        CanBuildBroadcastRight(p.join_type) && small(right, p.right_hint),
                        left.estimated_bytes, right.estimated_bytes);
    if (!build_side) return;
    const BuildSide build = *build_side;
    const JoinStrategy from = j.strategy;
    j.strategy = JoinStrategy::kBroadcastHash;
    j.build_side = build;
    // A broadcast hash join needs no co-partitioning: the shuffles EnsureRequirements would
    // have inserted below it are not planned.
    DropCoPartitioningShuffles(n);
    ComputePlannedProperties(n, conf_);
    const ExecNode& b = n->child(BuildChildIndex(build));
    Decision d;
    d.rule = "JoinSelection";
    d.message = std::string(n->id) + ": " + std::string(JoinStrategyName(from)) + " → BroadcastHashJoin " +
                std::string(BuildSideName(build)) + " at planning (estimated " +
                FormatBytes(b.estimated_bytes) + " <= spark.sql.autoBroadcastJoinThreshold " +
                FormatBytes(threshold) + ")";
    d.fields = {{"join", n->id},
                {"from", JoinStrategyName(from)},
                {"to", "BroadcastHashJoin"},
                {"buildSide", BuildSideName(build)},
                {"static", true},
                {"estimatedBytes", b.estimated_bytes}};
    out_->decisions.push_back(std::move(d));
  }

  // Reducer counts and true matrices, bottom-up.
  void MaterializeExchanges(ExecNode* n) {
    for (auto& c : n->children) MaterializeExchanges(c.get());
    if (n->is_exchange()) {
      const PlanNode& p = *n->source;
      ShuffleData& sh = *n->shuffle->data;
      // EnsureRequirements may have re-partitioned the scenario's exchange beside a bucketed
      // side (ensure_requirements.h): that count wins.
      const bool recounted = sh.num_reducers > 0;
      const int configured =
          recounted ? sh.num_reducers
                    : p.num_partitions.value_or(p.single_partition ? 1 : conf_.InitialShufflePartitions());
      int reducers = configured;
      std::optional<int> fixed = p.sizes ? FixedPartitionCount(*p.sizes) : std::nullopt;
      if (fixed && *fixed != configured) {
        if (recounted || p.num_partitions || IsPartitionCountSet(s_.raw_conf)) {
          out_->warnings.push_back(
              p.pointer + "/sizes: the matrix has " + std::to_string(*fixed) +
              " reducers but the configuration asks for " + std::to_string(configured) +
              "; sizes redistributed " +
              (*fixed % configured == 0
                   ? "as hash partitioning folds them (recorded reducer r goes to r mod " +
                         std::to_string(configured) + ")"
                   : std::string("(resampled assuming keys spread evenly within each "
                                 "recorded reducer)")));
        } else {
          reducers = *fixed;
        }
      }
      ExecNode& child = n->child(0);
      // A range exchange: RangePartitioner's bounds give the reducers (bounds + 1) and sizes.
      std::optional<RangeExchangePlan> range;
      if (p.partitioning == ExchangePartitioning::kRange) {
        range = PlanRangeExchange(*n, configured, conf_.range_exchange_sample_size_per_partition,
                                  IdSeed(s_.seed, n->id + "/range"));
        reducers = range->reducers;
        sh.range = range->sampling;
      }
      // A scan without an explicit task count takes the matrix's row count.
      if (p.sizes) {
        if (auto rows = FixedMapTaskCount(*p.sizes);
            rows && child.op == PlanOp::kScan && !child.source->tasks && !child.bucketed_read_tasks) {
          child.scan_tasks_from_sizes = *rows;
          ComputePlannedProperties(&child, conf_);
        }
      }
      SizesContext ctx;
      ctx.configured_partitions = reducers;
      ctx.default_map_tasks = child.planned_partitions;
      ctx.default_total_bytes = DataBytes(child);  // the data, not the planner's estimate
      ctx.seed = IdSeed(s_.seed, n->id);
      SizesSpec uniform;
      uniform.form = GenerateSizes{};
      uniform.source = "uniform (no sizes given)";
      // A bucketed table read without its buckets keeps a hot bucket's key in one partition.
      const std::optional<SizesSpec> hot =
          range || p.sizes ? std::nullopt : HotBucketShuffleSizes(*n, reducers);
      const SizesSpec& spec = range ? range->sizes : p.sizes ? *p.sizes : hot ? *hot : uniform;
      // A generated matrix of the planned shape is streamed; anything else (given, or
      // resampled) is materialised. Bound the cells either way.
      const SizesShape shape = ShapeOfSizes(spec, ctx);
      const bool streamed =
          shape.generated && shape.partitions == reducers && shape.map_tasks == child.planned_partitions;
      if (!streamed) CheckRedistributedPartitions(p, recounted, reducers, shape.partitions);
      CheckShuffleCells(p.pointer, child.planned_partitions, reducers, streamed);
      if (!streamed) CheckShuffleCells(p.pointer, shape.map_tasks, shape.partitions, false);
      ShuffleSizes m = streamed ? PlanShuffleSizes(spec, ctx) : ShuffleSizes(MaterializeSizes(spec, ctx));
      if (m.num_reducers() != reducers) m = ResampleReducers(m.dense(), reducers);
      if (m.num_maps() != child.planned_partitions) {
        out_->warnings.push_back(p.pointer + "/sizes: the matrix has " + std::to_string(m.num_maps()) +
                                 " map rows but the child plans " + std::to_string(child.planned_partitions) +
                                 " partitions; rows resampled");
        m = ResampleMaps(m.dense(), child.planned_partitions);
      }
      sh.num_reducers = reducers;
      if (!p.rows_by_partition.empty() && static_cast<int>(p.rows_by_partition.size()) != reducers)
        throw PlanError{p.pointer + "/rowsByPartition", "expected one record count per reducer (" +
                                                            std::to_string(reducers) + "), found " +
                                                            std::to_string(p.rows_by_partition.size())};
      if (auto warning = SizeConsistencyWarning(*n, m.TotalBytes())) out_->warnings.push_back(*warning);
      sh.planned = std::move(m);
      sh.reported_size_ratio = p.reported_size_ratio;
      if (p.data_size_bytes) {
        sh.data_size_bytes = *p.data_size_bytes;
      } else {
        sh.data_size_bytes =
            static_cast<int64_t>(static_cast<double>(sh.planned.TotalBytes()) * s_.cost.compression_ratio);
        sh.data_size_estimated = true;
      }
    }
    ComputePlannedProperties(n, conf_);
    if (n->is_join()) CheckJoinPartitions(*n);
  }

  /// Bounds the reducers a given (or resampled) matrix is materialised at, as a generated
  /// shuffle's are (kMaxGeneratedPartitions), before anything is allocated: a 2-row recorded
  /// matrix redistributed to spark.sql.shuffle.partitions = 2 x 10^7 took 3 GB and died.
  /// The error names where the count comes from.
  void CheckRedistributedPartitions(const PlanNode& p, bool recounted, int64_t reducers,
                                    int64_t given) const {
    if (reducers <= kMaxGeneratedPartitions) return;
    std::string pointer = p.pointer, from;
    if (recounted) {
      from = " (the count EnsureRequirements gave it beside a bucketed side)";
    } else if (p.num_partitions) {
      pointer += "/numPartitions";
    } else {
      const bool initial =
          conf_.adaptive_enabled && conf_.coalesce_partitions_enabled && conf_.initial_partition_num;
      from = std::string(" (") +
             (initial ? "spark.sql.adaptive.coalescePartitions.initialPartitionNum"
                      : "spark.sql.shuffle.partitions") +
             ")";
    }
    throw PlanError{pointer, "expected at most " + std::to_string(kMaxGeneratedPartitions) +
                                 " partitions in a shuffle, found " + std::to_string(reducers) + from +
                                 "; its size matrix has " + std::to_string(given) + " reducers"};
  }

  /// Bounds an exchange's matrix: a materialised one as the loader bounds given matrices
  /// (kMaxSizeMatrixCells); a streamed one by kMaxGeneratedCells / kMaxGeneratedPartitions and
  /// by what the driver would hold per cell when AQE is on (CompressedMapStatus: one byte a
  /// block, exact mode: eight; HighlyCompressedMapStatus: a bit).
  void CheckShuffleCells(const std::string& pointer, int64_t maps, int64_t reducers, bool streamed) const {
    const int64_t cells = maps * reducers;
    auto fail = [&](int64_t limit, const std::string& what) {
      throw PlanError{pointer, "expected at most " + std::to_string(limit) +
                                   " cells (map tasks x partitions)" + what + ", found " +
                                   std::to_string(maps) + " x " + std::to_string(reducers)};
    };
    if (!streamed) {
      if (cells > kMaxSizeMatrixCells) fail(kMaxSizeMatrixCells, "");
      return;
    }
    if (reducers > kMaxGeneratedPartitions)
      throw PlanError{pointer, "expected at most " + std::to_string(kMaxGeneratedPartitions) +
                                   " partitions in a generated shuffle, found " + std::to_string(reducers)};
    if (cells > kMaxGeneratedCells) fail(kMaxGeneratedCells, " in a generated shuffle");
    if (!conf_.adaptive_enabled) return;
    if (s_.map_status_mode == MapStatusMode::kExact) {
      if (cells > kMaxSizeMatrixCells) fail(kMaxSizeMatrixCells, " with exact map statuses");
    } else if (reducers <= conf_.min_num_partitions_to_highly_compress && cells > 8 * kMaxSizeMatrixCells) {
      fail(8 * kMaxSizeMatrixCells, " with CompressedMapStatus (one byte a block in the driver)");
    }
  }

  void CheckJoinPartitions(const ExecNode& n) const {
    const JoinStrategy st = n.join->strategy;
    if (st != JoinStrategy::kSortMerge && st != JoinStrategy::kShuffledHash) return;
    const int l = n.child(0).planned_partitions, r = n.child(1).planned_partitions;
    if (l != r) {
      throw PlanError{n.source->pointer, "join sides have different partition counts: left " +
                                             std::to_string(l) + ", right " + std::to_string(r)};
    }
  }

 private:
  const Scenario& s_;
  const SqlConf& conf_;
  StaticPlan* out_;
};

}  // namespace

PlannedTasks PlannedRunTasks(const ExecNode& root) {
  PlannedTasks out{root.planned_partitions, &root};
  std::vector<const ExecNode*> todo = {&root};
  while (!todo.empty()) {
    const ExecNode* n = todo.back();
    todo.pop_back();
    const ExecNode* stage_root = nullptr;
    if (n->is_exchange()) stage_root = &n->child();
    if (n->is_broadcast_join() && n->join)
      stage_root = &n->child(n->join->build_side.value_or(BuildSide::kRight) == BuildSide::kLeft ? 0 : 1);
    if (stage_root != nullptr) {
      out.total += stage_root->planned_partitions;
      if (stage_root->planned_partitions > out.largest_stage_root->planned_partitions)
        out.largest_stage_root = stage_root;
    }
    for (auto c = n->children.rbegin(); c != n->children.rend(); ++c) todo.push_back(c->get());  // pre-order
  }
  return out;
}

StaticPlan PlanStatically(const Scenario& scenario, const SqlConf& conf) {
  return PlanStatically(scenario, *scenario.plan, conf);
}

StaticPlan PlanStatically(const Scenario& scenario, const PlanNode& plan, const SqlConf& conf) {
  StaticPlan out;
  Planner planner(scenario, conf, &out);
  out.root = planner.Build(plan, nullptr);
  PlanBucketedScans(out.root.get(), conf);
  planner.SelectJoins(out.root.get());
  CoalesceBucketsInJoin(out.root.get(), conf, &out.decisions);
  OneToManyBucketJoin(out.root.get(), conf, &out.decisions);  // variant, off by default
  EnsureRequirements(out.root.get(), conf, &out.inserted_sources, &out.decisions);
  DisableUnnecessaryBucketedScan(out.root.get(), conf, &out.decisions);
  CheckRunTasks(*out.root, false);  // before the matrices are built: as planned so far
  planner.MaterializeExchanges(out.root.get());
  CheckRunTasks(*out.root, true);  // scans whose tasks are their matrix's rows
  return out;
}

}  // namespace aqesim
