// A range exchange's partitions (RangePartitioning: a global sort's exchange, or
// repartitionByRange): RangePartitioner's sampling and bounds (models/shuffle/range_partitioner.h)
// over the keys of the rows below it, and the partition sizes those bounds give
// (sql/core/.../exchange/ShuffleExchangeExec.scala, prepareShuffleDependency; README "Range
// partitioning", docs/aqe-behaviour.md §15).
//
// The rows: the exchange's map tasks are its child's partitions. Below filters, projects and
// sorts, a scan gives the keys (`keyDistribution`; none: uniform over 10^12 keys, i.e. nearly
// every row its own key). Rows in all: the first `rows` given on the way down to the scan, else
// one row per 100 bytes of the child's output (its data, DataBytes: not the planner's
// estimate); each map task has the rows of its bytes' share
// (explicit keys: its list). Map task bytes: the scan's task bytes scaled to the child's
// output, else the child's output split evenly.
//
// Sizes: a map task's bytes are split over the reducers in proportion to its rows' keys in each
// range — explicit keys: its own keys counted per range; generated keys: the distribution's
// probability of each range, the same for every map task (its expected share; a streamed
// `generate` matrix with those column weights). The shuffle has bounds + 1 reducers.
//
// Sampling a generated partition: a reservoir sample of rows whose keys are independent draws
// is itself min(k, rows) independent draws, so the sketch draws them directly; the second job's
// Bernoulli sample keeps round(fraction × rows) draws (its expected size; Spark's varies by
// about its square root). Explicit keys are sampled as Spark does (ReservoirSampleOf; each key
// kept with probability fraction).
#ifndef AQESIM_MODELS_ENGINE_RANGE_EXCHANGE_H_
#define AQESIM_MODELS_ENGINE_RANGE_EXCHANGE_H_

#include <cstdint>
#include <memory>

#include "models/plan/exec_node.h"
#include "models/shuffle/range_partitioner.h"
#include "models/shuffle/sizes_spec.h"

namespace aqesim {

struct RangeExchangePlan {
  /// The true sizes: a matrix (explicit keys) or a `generate` spec with the ranges' shares as
  /// column weights (generated keys), `reducers` columns.
  SizesSpec sizes;
  int reducers = 1;
  std::shared_ptr<const RangeSampling> sampling;
};

/// The sampling, bounds and sizes of range exchange `exchange` (planned properties of its child
/// set) at `requested_partitions`, with `sample_hint` =
/// spark.sql.execution.rangeExchange.sampleSizePerPartition. Throws PlanError when explicit keys
/// do not match the map tasks.
RangeExchangePlan PlanRangeExchange(const ExecNode& exchange, int requested_partitions, int sample_hint,
                                    uint64_t seed);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_RANGE_EXCHANGE_H_
