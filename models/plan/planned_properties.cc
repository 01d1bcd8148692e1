#include "models/plan/planned_properties.h"

#include <algorithm>
#include <limits>
#include <string>

#include "models/plan/join_selection_helper.h"
#include "models/plan/plan_error.h"

namespace aqesim {

void ComputePlannedProperties(ExecNode* n, const SqlConf& conf) {
  const PlanNode* p = n->source;
  auto est_override = [&](int64_t v) { return (p && p->estimated_bytes) ? *p->estimated_bytes : v; };
  const double sel = p ? p->selectivity : 1.0;
  switch (n->op) {
    case PlanOp::kScan: {
      const int64_t bytes = p ? p->scan_bytes : 0;
      if (n->bucketed_read_tasks) {
        n->planned_partitions = *n->bucketed_read_tasks;
      } else if (p && p->tasks) {
        n->planned_partitions = *p->tasks;
      } else if (n->scan_tasks_from_sizes) {
        if (*n->scan_tasks_from_sizes > kMaxPlannedTasks)
          throw PlanError{p ? p->pointer : "/plan",
                          "expected at most " + std::to_string(kMaxPlannedTasks) +
                              " scan tasks (the rows of the exchange's sizes above), found " +
                              std::to_string(*n->scan_tasks_from_sizes)};
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
      // Before the exchange is materialised: the count it was given (numPartitions; 1 for an
      // exchange EnsureRequirements inserts for AllTuples), else the configured one.
      n->planned_partitions = n->shuffle && n->shuffle->data->num_reducers > 0
                                  ? n->shuffle->data->num_reducers
                              : n->source && n->source->num_partitions ? *n->source->num_partitions
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
      // Its partitions are its children's, one after the other: bounded like a stage's tasks
      // before any matrix is built (a union of two 5 x 10^6-partition shuffles materialised
      // 1.2 GB of matrices before the run's task limit refused it). A child over the limit
      // alone is refused where it is planned, more precisely.
      int64_t parts = 0, largest_child = 0;
      int64_t est = 0;
      for (auto& c : n->children) {
        parts += c->planned_partitions;
        largest_child = std::max<int64_t>(largest_child, c->planned_partitions);
        est += c->estimated_bytes;
      }
      if (parts > kMaxPlannedTasks && largest_child <= kMaxPlannedTasks)
        throw PlanError{p ? p->pointer : "/plan",
                        "expected a union of at most " + std::to_string(kMaxPlannedTasks) +
                            " partitions (its children's together), found " + std::to_string(parts)};
      n->planned_partitions = static_cast<int>(std::min<int64_t>(parts, std::numeric_limits<int>::max()));
      n->estimated_bytes = est_override(est);
      break;
    }
    default:
      n->planned_partitions = n->child(0).planned_partitions;
      n->estimated_bytes =
          est_override(static_cast<int64_t>(static_cast<double>(n->child(0).estimated_bytes) * sel));
  }
}

namespace {

double DataBytesOf(const ExecNode& n) {
  const double sel = n.source ? n.source->selectivity : 1.0;
  switch (n.op) {
    case PlanOp::kScan:
      return n.source ? static_cast<double>(n.source->scan_bytes) : 0.0;
    case PlanOp::kExchange:
      if (n.shuffle && n.shuffle->data->planned.num_maps() > 0)
        return static_cast<double>(n.shuffle->data->planned.TotalBytes());
      return n.children.empty() ? 0.0 : DataBytesOf(n.child(0));
    case PlanOp::kJoin:
      return (DataBytesOf(n.child(0)) + DataBytesOf(n.child(1))) * sel;
    case PlanOp::kUnion: {
      double sum = 0;
      for (const auto& c : n.children) sum += DataBytesOf(*c);
      return sum;
    }
    case PlanOp::kSort:
      return DataBytesOf(n.child(0));
    default:
      return n.children.empty() ? 0.0 : DataBytesOf(n.child(0)) * sel;
  }
}

}  // namespace

int64_t DataBytes(const ExecNode& n) {
  constexpr double kMax = static_cast<double>(int64_t{1} << 62);
  return static_cast<int64_t>(std::clamp(DataBytesOf(n), 0.0, kMax));
}

void RecomputeUpToExchange(ExecNode* n, const SqlConf& conf) {
  for (ExecNode* p = n; p && !p->is_exchange(); p = p->parent) ComputePlannedProperties(p, conf);
}

}  // namespace aqesim
