#include "models/engine/ensure_requirements.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "models/aqe/decision.h"
#include "models/plan/bucketed_scan.h"
#include "models/plan/join_selection_helper.h"
#include "models/plan/plan_error.h"
#include "models/plan/planned_properties.h"

namespace aqesim {
namespace {

enum class Partitioning { kUnknown, kHash, kSingle, kRange };
enum class Required { kNone, kClustered, kAllTuples, kOrdered };

/// A node's output partitioning; `bucketed` names the bucketed scan whose
/// HashPartitioning(bucket keys, its tasks) it is (null for an exchange's).
struct OutPartitioning {
  Partitioning kind = Partitioning::kUnknown;
  const ExecNode* bucketed = nullptr;
};

OutPartitioning OutputPartitioning(const ExecNode& n) {
  switch (n.op) {
    case PlanOp::kScan:
      if (n.bucketed_read_tasks && n.source && n.source->bucketing) return {Partitioning::kHash, &n};
      return {};
    case PlanOp::kUnion:
      return {};
    case PlanOp::kExchange:
      if (n.single_partition()) return {Partitioning::kSingle};
      if (n.source && n.source->partitioning == ExchangePartitioning::kRange) return {Partitioning::kRange};
      return {n.origin() == ShuffleOrigin::kRebalancePartitionsByNone ? Partitioning::kUnknown
                                                                      : Partitioning::kHash};
    case PlanOp::kJoin:
      switch (n.join->strategy) {
        case JoinStrategy::kSortMerge:
        case JoinStrategy::kShuffledHash:
          return OutputPartitioning(n.child(0));
        case JoinStrategy::kBroadcastHash:
        case JoinStrategy::kBroadcastNestedLoop:
          return OutputPartitioning(
              n.child(StreamedChildIndex(n.join->build_side.value_or(BuildSide::kRight))));
        case JoinStrategy::kCartesianProduct:
          return {};
      }
      return {};
    default:
      return OutputPartitioning(n.child(0));
  }
}

Required RequiredOf(const ExecNode& n) {
  if (n.is_join())
    return n.join->strategy == JoinStrategy::kSortMerge || n.join->strategy == JoinStrategy::kShuffledHash
               ? Required::kClustered
               : Required::kNone;
  if (n.op == PlanOp::kAggregate) {
    if (n.source && n.source->partial_aggregate) return Required::kNone;
    return n.source && !n.source->grouped ? Required::kAllTuples : Required::kClustered;
  }
  if (n.op == PlanOp::kWindow) return Required::kClustered;  // ClusteredDistribution(partitionSpec)
  if (n.op == PlanOp::kSort && n.source && n.source->global_sort) return Required::kOrdered;
  return Required::kNone;
}

const std::vector<std::string>& BucketKeys(const ExecNode& scan) { return scan.source->bucketing->keys; }

/// The keys `parent` clusters child `i` by, as the scenario gives them (empty: not given).
const std::vector<std::string>& GivenKeys(const ExecNode& parent, size_t i) {
  static const std::vector<std::string> kNone;
  if (!parent.source) return kNone;
  if (parent.is_join()) return i == 0 ? parent.source->left_keys : parent.source->right_keys;
  return parent.source->grouping_keys;
}

/// HashPartitioning(exprs, n) satisfies ClusteredDistribution(keys) when every expr is among
/// the keys (spark.sql.requireAllClusterKeysForDistribution is off by default); keys not given
/// are taken to be what the child is partitioned by.
bool Satisfies(const OutPartitioning& p, Required r, const std::vector<std::string>& keys) {
  switch (r) {
    case Required::kNone:
      return true;
    case Required::kClustered:
      if (p.kind == Partitioning::kHash && p.bucketed && !keys.empty()) {
        for (const std::string& k : BucketKeys(*p.bucketed))
          if (std::find(keys.begin(), keys.end(), k) == keys.end()) return false;
      }
      return p.kind == Partitioning::kHash || p.kind == Partitioning::kSingle;
    case Required::kAllTuples:
      return p.kind == Partitioning::kSingle || (p.bucketed && *p.bucketed->bucketed_read_tasks == 1);
    case Required::kOrdered:  // RangePartitioning on the sort's keys, or one partition
      return p.kind == Partitioning::kRange || p.kind == Partitioning::kSingle;
  }
  return true;
}

/// The fixed partition count of a side that satisfies its distribution: an exchange (below
/// unary operators) with numPartitions.
std::optional<int> FixedCount(const ExecNode& n) {
  const ExecNode* x = &n;
  while (!x->is_exchange() && x->children.size() == 1) x = &x->child(0);
  if (x->is_exchange() && x->source && x->source->num_partitions) return x->source->num_partitions;
  return std::nullopt;
}

std::string SideName(const ExecNode& parent, size_t i) {
  if (parent.is_join()) return i == 0 ? "left" : "right";
  return "child";
}

class Inserter {
 public:
  Inserter(const SqlConf& conf, std::deque<PlanNode>* sources, std::vector<Decision>* decisions)
      : conf_(conf), sources_(sources), decisions_(decisions) {}

  /// Remembers every id of the plan, so that inserted exchanges get ids of their own.
  void CollectIds(const ExecNode& n) {
    used_.insert(n.id);
    for (const auto& c : n.children) CollectIds(*c);
  }

  void Visit(ExecNode* n) {
    for (auto& c : n->children) Visit(c.get());
    const Required req = RequiredOf(*n);
    if (req == Required::kNone) return;
    std::vector<bool> ok(n->children.size());
    bool bucketed = false;
    for (size_t i = 0; i < n->children.size(); ++i) {
      const OutPartitioning part = OutputPartitioning(*n->children[i]);
      ok[i] = Satisfies(part, req, GivenKeys(*n, i));
      bucketed |= part.bucketed != nullptr;
    }
    if (bucketed && n->is_join()) {
      CoPartitionBucketedJoin(n, ok);
    } else {
      for (size_t i = 0; i < n->children.size(); ++i) {
        if (ok[i]) {
          NoteBucketedScan(n, i);
          continue;
        }
        std::optional<int> count;
        if (req == Required::kAllTuples) count = 1;
        if (n->is_join()) {
          const size_t other = 1 - i;
          if (ok[other]) count = FixedCount(*n->children[other]);
        }
        Insert(n, i, req, count);
      }
    }
    ComputePlannedProperties(n, conf_);
  }

 private:
  /// One side of a shuffled join as EnsureRequirements' co-partitioning step sees it (Spark's
  /// ShuffleSpec of the side's partitioning, after the first step shuffled every side that does
  /// not satisfy its distribution).
  struct SideSpec {
    int partitions = 0;
    std::vector<std::string> exprs;  // the hash expressions
    std::vector<std::string> keys;   // the side's clustering (join) keys
    bool is_shuffle = false;         // the side is (or will be) an exchange
    bool can_create = true;          // HashShuffleSpec.canCreatePartitioning
    const ExecNode* bucketed = nullptr;
  };

  /// HashShuffleSpec.isCompatibleWith: as many keys, partitions and hash expressions, and each
  /// pair of hash expressions at the same position of the two sides' keys.
  static bool Compatible(const SideSpec& a, const SideSpec& b) {
    if (a.keys.size() != b.keys.size() || a.partitions != b.partitions || a.exprs.size() != b.exprs.size())
      return false;
    for (size_t j = 0; j < a.exprs.size(); ++j) {
      const auto pa = std::find(a.keys.begin(), a.keys.end(), a.exprs[j]) - a.keys.begin();
      const auto pb = std::find(b.keys.begin(), b.keys.end(), b.exprs[j]) - b.keys.begin();
      if (pa != pb || pa == static_cast<std::ptrdiff_t>(a.keys.size())) return false;
    }
    return true;
  }

  static std::string HashName(const SideSpec& s) {
    return "HashPartitioning(" + KeyList(s.exprs) + ", " + std::to_string(s.partitions) + ")";
  }

  /// The key a new shuffle's default count comes from.
  std::string DefaultCountKey() const {
    return conf_.adaptive_enabled && conf_.coalesce_partitions_enabled && conf_.initial_partition_num
               ? "spark.sql.adaptive.coalescePartitions.initialPartitionNum"
               : "spark.sql.shuffle.partitions";
  }

  /// The join keys of each side: as given, else the bucket keys of the side's (or the other
  /// side's) bucketed scan.
  void JoinKeys(const ExecNode& n, SideSpec spec[2]) const {
    for (size_t i = 0; i < 2; ++i) {
      spec[i].keys = GivenKeys(n, i);
      if (!spec[i].keys.empty()) continue;
      const ExecNode* b = spec[i].bucketed ? spec[i].bucketed : OutputPartitioning(n.child(i)).bucketed;
      if (!b) b = spec[1 - i].bucketed ? spec[1 - i].bucketed : OutputPartitioning(n.child(1 - i)).bucketed;
      if (b) spec[i].keys = BucketKeys(*b);
    }
    if (spec[0].keys.size() != spec[1].keys.size())
      throw PlanError{n.source ? n.source->pointer : "/plan",
                      "expected join sides on as many keys, found the bucket keys " + KeyList(spec[0].keys) +
                          " and " + KeyList(spec[1].keys) +
                          "; give \"keys\" or \"leftKeys\" / \"rightKeys\""};
  }

  /// A sort-merge or shuffled hash join with a bucketed side: Spark 4.0's
  /// ensureDistributionAndOrdering for two clustered children (header comment).
  void CoPartitionBucketedJoin(ExecNode* n, const std::vector<bool>& ok) {
    SideSpec spec[2];
    for (size_t i = 0; i < 2; ++i) {
      const OutPartitioning part = OutputPartitioning(n->child(i));
      if (ok[i] && part.bucketed) spec[i].bucketed = part.bucketed;
    }
    JoinKeys(*n, spec);
    for (size_t i = 0; i < 2; ++i) {
      SideSpec& s = spec[i];
      if (s.bucketed) {
        s.partitions = *s.bucketed->bucketed_read_tasks;
        s.exprs = BucketKeys(*s.bucketed);
        s.can_create = SameKeySet(s.exprs, s.keys);  // requireAllClusterKeysForCoPartition
      } else {
        s.partitions = ok[i] ? n->child(i).planned_partitions : conf_.InitialShufflePartitions();
        s.exprs = s.keys;
        s.is_shuffle = !ok[i] || n->child(i).is_exchange();
      }
    }
    int target[2] = {spec[0].partitions, spec[1].partitions};
    bool reshuffle[2] = {!ok[0], !ok[1]};
    std::string whence[2] = {DefaultCountKey(), DefaultCountKey()};
    if (!Compatible(spec[0], spec[1])) {
      // Spark considers spark.sql.shuffle.partitions only when every side needs a shuffle anyway.
      const bool min_parallelism =
          (!spec[0].can_create || spec[0].is_shuffle) && (!spec[1].can_create || spec[1].is_shuffle);
      std::vector<size_t> candidates, unshuffled;
      for (size_t i = 0; i < 2; ++i)
        if (spec[i].can_create && (!min_parallelism || spec[i].partitions >= conf_.shuffle_partitions))
          candidates.push_back(i);
      for (size_t i : candidates)
        if (!spec[i].is_shuffle) unshuffled.push_back(i);
      // The side without a shuffle first, then the most partitions (the first on a tie).
      std::optional<size_t> best;
      for (size_t i : unshuffled.empty() ? candidates : unshuffled)
        if (!best || spec[i].partitions > spec[*best].partitions) best = i;
      for (size_t i = 0; i < 2; ++i) {
        if (best && (i == *best || Compatible(spec[*best], spec[i]))) continue;
        reshuffle[i] = true;
        target[i] = best ? spec[*best].partitions : conf_.InitialShufflePartitions();
        if (best)
          whence[i] = "the " + SideName(*n, *best) + " side's " + HashName(spec[*best]) +
                      (spec[*best].bucketed ? " of bucketed scan " + spec[*best].bucketed->id : "");
      }
    }
    for (size_t i = 0; i < 2; ++i) {
      if (!reshuffle[i]) {
        NoteBucketedScan(n, i);
      } else if (ok[i] && n->child(i).is_exchange()) {
        Recount(n, i, target[i], whence[i]);  // Spark re-partitions an existing shuffle in place
      } else {
        const std::string why = !ok[i] ? std::string()
                                       : "bucketed scan " + spec[i].bucketed->id + "'s " + HashName(spec[i]) +
                                             " is not co-partitioned with the other side";
        Insert(n, i, Required::kClustered, target[i], why, whence[i]);
      }
    }
  }

  /// "bucketed scan a satisfies ClusteredDistribution (join) …: no exchange".
  void NoteBucketedScan(ExecNode* parent, size_t i) {
    const OutPartitioning part = OutputPartitioning(parent->child(i));
    if (!part.bucketed) return;
    const ExecNode& scan = *part.bucketed;
    Decision d;
    d.rule = "EnsureRequirements";
    d.message =
        parent->id + ": bucketed scan " + scan.id + " satisfies " + RequiredName(*parent) +
        " with HashPartitioning(" + KeyList(BucketKeys(scan)) + ", " +
        std::to_string(*scan.bucketed_read_tasks) + ")" +
        (*scan.bucketed_read_tasks > scan.source->bucketing->num_buckets
             ? " as a bucket union of its " + std::to_string(scan.source->bucketing->num_buckets) + " buckets"
             : "") +
        ": no exchange on the " + SideName(*parent, i) +
        " (AQE cannot coalesce or split a side without a shuffle)";
    d.fields = {{"node", parent->id},
                {"scan", scan.id},
                {"side", SideName(*parent, i)},
                {"numPartitions", *scan.bucketed_read_tasks},
                {"static", true}};
    decisions_->push_back(std::move(d));
  }

  /// A scenario's exchange beside a bucketed side takes the count co-partitioning chose.
  void Recount(ExecNode* parent, size_t i, int count, const std::string& whence) {
    ExecNode& ex = parent->child(i);
    const int before = ex.planned_partitions;
    ex.shuffle->data->num_reducers = count;
    ComputePlannedProperties(&ex, conf_);
    Decision d;
    d.rule = "EnsureRequirements";
    d.message = parent->id + ": ShuffleExchange " + ex.id + " on the " + SideName(*parent, i) +
                " re-partitioned " + std::to_string(before) + " → " + Counted(count, "partition") + " (" +
                whence + ")";
    d.fields = {{"node", parent->id},     {"exchange", ex.id}, {"side", SideName(*parent, i)},
                {"numPartitions", count}, {"recounted", true}, {"static", true}};
    decisions_->push_back(std::move(d));
  }

  static std::string RequiredName(const ExecNode& parent) {
    if (RequiredOf(parent) == Required::kOrdered) return "OrderedDistribution (a global sort)";
    return RequiredOf(parent) == Required::kAllTuples
               ? "AllTuples (a global aggregate)"
               : "ClusteredDistribution (" + std::string(PlanOpName(parent.op)) + ")";
  }

  void Insert(ExecNode* parent, size_t i, Required req, std::optional<int> count,
              const std::string& reason = "", const std::string& source_of_count = "") {
    ExecNode& child = *parent->children[i];
    PlanNode& p = sources_->emplace_back();
    p.op = PlanOp::kExchange;
    p.id = FreeId(child.id + "-exchange");
    p.pointer = parent->source ? parent->source->pointer : "/plan";
    p.origin = ShuffleOrigin::kEnsureRequirements;
    p.num_partitions = count;
    p.single_partition = req == Required::kAllTuples;
    if (req == Required::kOrdered) p.partitioning = ExchangePartitioning::kRange;
    auto ex = std::make_unique<ExecNode>();
    ex->op = PlanOp::kExchange;
    ex->id = p.id;
    ex->source = &p;
    ex->parent = parent;
    ex->shuffle = std::make_unique<ShuffleState>();
    std::unique_ptr<ExecNode> moved = std::move(parent->children[i]);
    moved->parent = ex.get();
    ex->children.push_back(std::move(moved));
    ComputePlannedProperties(ex.get(), conf_);
    const std::string partitions = Counted(count ? *count : conf_.InitialShufflePartitions(),
                                           req == Required::kOrdered ? "range partition" : "partition");
    const std::string whence = req == Required::kAllTuples ? "SinglePartition"
                               : !source_of_count.empty()  ? source_of_count
                               : count                     ? "the other side's fixed count"
                                                           : DefaultCountKey();
    const std::string why = !reason.empty()
                                ? reason
                                : std::string(PlanOpName(ex->child(0).op)) + " " + ex->child(0).id +
                                      " does not satisfy " + RequiredName(*parent);
    Decision d;
    d.rule = "EnsureRequirements";
    d.message = parent->id + ": ShuffleExchange " + p.id + " inserted on the " + SideName(*parent, i) + " (" +
                why + "), " + partitions + " (" + whence + ")";
    d.fields = {{"node", parent->id},
                {"exchange", p.id},
                {"side", SideName(*parent, i)},
                {"numPartitions", count ? *count : conf_.InitialShufflePartitions()},
                {"static", true}};
    decisions_->push_back(std::move(d));
    parent->children[i] = std::move(ex);
  }

  /// `wanted`, or `wanted-2`, `wanted-3`, … when the scenario already uses it (ids name stages and
  /// profiles: two exchanges must never share one).
  std::string FreeId(const std::string& wanted) {
    std::string id = wanted;
    for (int k = 2; used_.count(id) > 0; ++k) id = wanted + "-" + std::to_string(k);
    used_.insert(id);
    return id;
  }

  const SqlConf& conf_;
  std::set<std::string> used_;
  std::deque<PlanNode>* sources_;
  std::vector<Decision>* decisions_;
};

}  // namespace

void EnsureRequirements(ExecNode* root, const SqlConf& conf, std::deque<PlanNode>* sources,
                        std::vector<Decision>* decisions) {
  Inserter inserter(conf, sources, decisions);
  inserter.CollectIds(*root);
  inserter.Visit(root);
}

}  // namespace aqesim
