#include "models/engine/static_planner.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "models/shuffle/generators.h"
#include "models/shuffle/shuffle_sizes.h"
#include "sim/rng.h"

namespace aqesim {

namespace {

bool IsPartitionCountSet(const RawConf& raw) {
  return raw.count("spark.sql.shuffle.partitions") > 0 ||
         raw.count("spark.sql.adaptive.coalescePartitions.initialPartitionNum") > 0;
}

/// Splits `total` into `n` integer parts proportional to `weights` (largest remainder), so the
/// parts add up to `total` exactly.
std::vector<int64_t> Apportion(int64_t total, const std::vector<double>& weights) {
  const size_t n = weights.size();
  std::vector<int64_t> out(n, 0);
  double wsum = 0;
  for (double w : weights) wsum += w;
  if (n == 0 || total == 0) return out;
  if (wsum <= 0) {
    out[0] = total;
    return out;
  }
  std::vector<std::pair<double, size_t>> rema;
  int64_t assigned = 0;
  for (size_t i = 0; i < n; ++i) {
    const long double exact = static_cast<long double>(total) * weights[i] / wsum;
    out[i] = static_cast<int64_t>(std::floor(exact));
    assigned += out[i];
    rema.push_back({static_cast<double>(exact - std::floor(exact)), i});
  }
  std::stable_sort(rema.begin(), rema.end(), [](auto& a, auto& b) { return a.first > b.first; });
  for (size_t k = 0; assigned < total && k < rema.size(); ++k, ++assigned) out[rema[k].second] += 1;
  return out;
}

/// Changes the reducer count of a matrix. When the new count divides the old one, reducers
/// fold exactly as hash partitioning does (reducer r of N goes to r mod N'); otherwise each
/// old reducer's bytes spread over the new reducers its [r/N, (r+1)/N) interval overlaps.
SizeMatrix ResampleReducers(const SizeMatrix& m, int new_reducers) {
  const int old_r = m.num_reducers();
  SizeMatrix out(m.num_maps(), new_reducers);
  for (int map = 0; map < m.num_maps(); ++map) {
    auto src = m.row(map);
    auto dst = out.mutable_row(map);
    if (old_r % new_reducers == 0) {
      for (int r = 0; r < old_r; ++r) dst[r % new_reducers] += src[r];
      continue;
    }
    for (int r = 0; r < old_r; ++r) {
      if (src[r] == 0) continue;
      // New reducers overlapping [r/old, (r+1)/old).
      const int first = static_cast<int>(static_cast<int64_t>(r) * new_reducers / old_r);
      const int last = static_cast<int>((static_cast<int64_t>(r + 1) * new_reducers - 1) / old_r);
      std::vector<double> w;
      for (int q = first; q <= last; ++q) {
        const double lo = std::max(static_cast<double>(r) / old_r, static_cast<double>(q) / new_reducers);
        const double hi =
            std::min(static_cast<double>(r + 1) / old_r, static_cast<double>(q + 1) / new_reducers);
        w.push_back(std::max(0.0, hi - lo));
      }
      auto parts = Apportion(src[r], w);
      for (int q = first; q <= last; ++q) dst[q] += parts[q - first];
    }
  }
  return out;
}

}  // namespace

/// Changes the map-task count of a matrix (rows), spreading each old row over the new rows
/// its interval overlaps (or summing rows when shrinking).
SizeMatrix ResampleMaps(const SizeMatrix& m, int new_maps) {
  SizeMatrix t(m.num_reducers(), m.num_maps());  // transpose, resample "reducers", transpose back
  for (int a = 0; a < m.num_maps(); ++a)
    for (int r = 0; r < m.num_reducers(); ++r) t.at(r, a) = m.at(a, r);
  SizeMatrix rt = ResampleReducers(t, new_maps);
  SizeMatrix out(new_maps, m.num_reducers());
  for (int r = 0; r < m.num_reducers(); ++r)
    for (int a = 0; a < new_maps; ++a) out.at(a, r) = rt.at(r, a);
  return out;
}

namespace {

uint64_t IdSeed(uint64_t seed, const std::string& id) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : id) h = (h ^ c) * 1099511628211ULL;
  return MixSeed(seed, h);
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
      if (!j.build_side) {
        j.build_side = CanBuildBroadcastRight(p.join_type) ? BuildSide::kRight : BuildSide::kLeft;
      }
      return;
    }
    if (j.strategy != JoinStrategy::kSortMerge && j.strategy != JoinStrategy::kShuffledHash) return;
    if (p.left_hint == JoinHint::kMerge || p.right_hint == JoinHint::kMerge) return;
    const int64_t threshold = conf_.auto_broadcast_join_threshold_bytes;
    auto small = [&](const ExecNode& side, JoinHint hint) {
      if (hint == JoinHint::kBroadcast) return true;
      return threshold >= 0 && side.estimated_bytes >= 0 && side.estimated_bytes <= threshold;
    };
    const bool left_ok = CanBuildBroadcastLeft(p.join_type) && small(n->child(0), p.left_hint);
    const bool right_ok = CanBuildBroadcastRight(p.join_type) && small(n->child(1), p.right_hint);
    if (!left_ok && !right_ok) return;
    BuildSide build;
    if (left_ok && right_ok) {
      build =
          n->child(0).estimated_bytes < n->child(1).estimated_bytes ? BuildSide::kLeft : BuildSide::kRight;
    } else {
      build = left_ok ? BuildSide::kLeft : BuildSide::kRight;
    }
    const JoinStrategy from = j.strategy;
    j.strategy = JoinStrategy::kBroadcastHash;
    j.build_side = build;
    // A broadcast hash join needs no co-partitioning: the shuffles EnsureRequirements would
    // have inserted below it are not planned.
    for (auto& c : n->children) {
      if (c->is_exchange() && c->origin() == ShuffleOrigin::kEnsureRequirements) {
        std::unique_ptr<ExecNode> grand = std::move(c->children[0]);
        grand->parent = n;
        c = std::move(grand);
      }
    }
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
      const int configured = p.num_partitions.value_or(conf_.InitialShufflePartitions());
      int reducers = configured;
      std::optional<int> fixed = p.sizes ? FixedPartitionCount(*p.sizes) : std::nullopt;
      if (fixed && *fixed != configured) {
        if (p.num_partitions || IsPartitionCountSet(s_.raw_conf)) {
          out_->warnings.push_back(p.pointer + "/sizes: the matrix has " + std::to_string(*fixed) +
                                   " reducers but the configuration asks for " + std::to_string(configured) +
                                   "; resampled assuming keys spread evenly within each recorded reducer");
        } else {
          reducers = *fixed;
        }
      }
      ExecNode& child = n->child(0);
      // A scan without an explicit task count takes the matrix's row count.
      if (p.sizes) {
        if (auto rows = FixedMapTaskCount(*p.sizes);
            rows && child.op == PlanOp::kScan && !child.source->tasks) {
          child.scan_tasks_from_sizes = *rows;
          ComputePlannedProperties(&child, conf_);
        }
      }
      SizesContext ctx;
      ctx.configured_partitions = reducers;
      ctx.default_map_tasks = child.planned_partitions;
      ctx.default_total_bytes = child.estimated_bytes;
      ctx.seed = IdSeed(s_.seed, n->id);
      SizesSpec uniform;
      uniform.form = GenerateSizes{};
      uniform.source = "uniform (no sizes given)";
      const SizesSpec& spec = p.sizes ? *p.sizes : uniform;
      // A generated matrix of the planned shape is streamed; anything else (given, or
      // resampled) is materialised. Bound the cells either way.
      const SizesShape shape = ShapeOfSizes(spec, ctx);
      const bool streamed =
          shape.generated && shape.partitions == reducers && shape.map_tasks == child.planned_partitions;
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

bool CanBuildBroadcastLeft(JoinType t) {
  return t == JoinType::kInner || t == JoinType::kCross || t == JoinType::kRightOuter;
}
bool CanBuildBroadcastRight(JoinType t) {
  return t == JoinType::kInner || t == JoinType::kCross || t == JoinType::kLeftOuter ||
         t == JoinType::kLeftSemi || t == JoinType::kLeftAnti;
}
bool CanBuildShuffledHashLeft(JoinType t) {
  return t == JoinType::kInner || t == JoinType::kCross || t == JoinType::kLeftOuter ||
         t == JoinType::kRightOuter || t == JoinType::kFullOuter;
}
bool CanBuildShuffledHashRight(JoinType) { return true; }

// Most tasks a planned operator may have (scan splits, CartesianProduct partitions).
constexpr int64_t kMaxPlannedTasks = 100'000'000;

void ComputePlannedProperties(ExecNode* n, const SqlConf& conf) {
  const PlanNode* p = n->source;
  auto est_override = [&](int64_t v) { return (p && p->estimated_bytes) ? *p->estimated_bytes : v; };
  const double sel = p ? p->selectivity : 1.0;
  switch (n->op) {
    case PlanOp::kScan: {
      const int64_t bytes = p ? p->scan_bytes : 0;
      if (p && p->tasks) {
        n->planned_partitions = *p->tasks;
      } else if (n->scan_tasks_from_sizes) {
        n->planned_partitions = *n->scan_tasks_from_sizes;
      } else {
        const int64_t split = std::max<int64_t>(1, conf.files_max_partition_bytes);
        const int64_t tasks =
            std::max<int64_t>(1, bytes / split + (bytes % split != 0));  // ceil, no overflow
        if (tasks > kMaxPlannedTasks)
          throw PlanError{p ? p->pointer : "/plan",
                          "expected at most " + std::to_string(kMaxPlannedTasks) +
                              " scan tasks (bytes / spark.sql.files.maxPartitionBytes), found " +
                              std::to_string(tasks) + "; give \"tasks\""};
        n->planned_partitions = static_cast<int>(tasks);
      }
      n->estimated_bytes = est_override(bytes);
      break;
    }
    case PlanOp::kExchange:
      n->planned_partitions = n->shuffle && n->shuffle->data->num_reducers > 0
                                  ? n->shuffle->data->num_reducers
                                  : conf.InitialShufflePartitions();
      n->estimated_bytes = est_override(n->child(0).estimated_bytes);
      break;
    case PlanOp::kJoin: {
      const JoinState& j = *n->join;
      const ExecNode& l = n->child(0);
      const ExecNode& r = n->child(1);
      switch (j.strategy) {
        case JoinStrategy::kBroadcastHash:
        case JoinStrategy::kBroadcastNestedLoop:
          n->planned_partitions =
              n->child(StreamedChildIndex(j.build_side.value_or(BuildSide::kRight))).planned_partitions;
          break;
        case JoinStrategy::kCartesianProduct: {
          const int64_t product = int64_t{l.planned_partitions} * r.planned_partitions;
          if (product > kMaxPlannedTasks)
            throw PlanError{p ? p->pointer : "/plan",
                            "expected a CartesianProduct of at most " + std::to_string(kMaxPlannedTasks) +
                                " partitions, found " + std::to_string(l.planned_partitions) + " x " +
                                std::to_string(r.planned_partitions)};
          n->planned_partitions = static_cast<int>(product);
          break;
        }
        default:
          n->planned_partitions = l.planned_partitions;
      }
      n->estimated_bytes = est_override(
          static_cast<int64_t>(static_cast<double>(l.estimated_bytes + r.estimated_bytes) * sel));
      break;
    }
    case PlanOp::kUnion: {
      int parts = 0;
      int64_t est = 0;
      for (auto& c : n->children) {
        parts += c->planned_partitions;
        est += c->estimated_bytes;
      }
      n->planned_partitions = parts;
      n->estimated_bytes = est_override(est);
      break;
    }
    default:
      n->planned_partitions = n->child(0).planned_partitions;
      n->estimated_bytes =
          est_override(static_cast<int64_t>(static_cast<double>(n->child(0).estimated_bytes) * sel));
  }
}

void RecomputeUpToExchange(ExecNode* n, const SqlConf& conf) {
  for (ExecNode* p = n; p && !p->is_exchange(); p = p->parent) ComputePlannedProperties(p, conf);
}

StaticPlan PlanStatically(const Scenario& scenario, const SqlConf& conf) {
  StaticPlan out;
  Planner planner(scenario, conf, &out);
  out.root = planner.Build(*scenario.plan, nullptr);
  planner.SelectJoins(out.root.get());
  planner.MaterializeExchanges(out.root.get());
  return out;
}

}  // namespace aqesim
