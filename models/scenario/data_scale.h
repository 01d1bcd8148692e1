// simulation.dataScale: the scenario's data volume × F — "what if the input were twice as large?"
// and the guardrails of `aqesim tune` (its ×0.5 and ×2 copies). Applied when a scenario is built
// (scenario_overrides.h), after its plan is read; F = 1 changes nothing.
//
// Scaled, each to the nearest integer (half away from zero), a non-zero count never below 1 so
// that an empty partition stays empty and a non-empty one non-empty:
//   scan        bytes, rows, each task's bytes (taskBytes; the scan's bytes are then their sum),
//               each bucket's bytes (bucketBytes)
//   every node  rows (records an operator outputs or an exchange writes), the planner's size
//               estimate (estimatedBytes)
//   exchange    every cell of a partition-size matrix (inline or CSV), a marginals form's map and
//               partition bytes (the largest map entry absorbs the rounding, so both margins keep
//               one total), a generated form's totalBytes and mapBytes, the uncompressed data size
//               (dataSize), each reducer's records (rowsByPartition; `rows` is then their sum)
//   collect     the rows the child yields (collectLimit rows)
// Not scaled: task and partition counts a scenario fixes (taskBytes' length, tasks, a matrix's
// shape, numPartitions) — a scan that leaves its task count to spark.sql.files.maxPartitionBytes
// gets as many tasks as its scaled bytes need, as Spark would —, key distributions (their shape,
// not their volume), the cluster, the configuration, the cost model and recorded profiles: a
// profiled stage's tasks are timed by its fitted rates on their new rows and bytes
// (models/cost/stage_profile.h), and one whose task count changes by ×2 or more is marked
// resized and carries the band. A scaled count is capped at 2^62.
#ifndef AQESIM_MODELS_SCENARIO_DATA_SCALE_H_
#define AQESIM_MODELS_SCENARIO_DATA_SCALE_H_

#include <cstdint>

#include "models/scenario/scenario.h"

namespace aqesim {

/// Bounds of simulation.dataScale.
inline constexpr double kMinDataScale = 0.001;
inline constexpr double kMaxDataScale = 1000;

/// `count` × `factor` rounded as the header says (0 stays 0; a positive count stays >= 1).
int64_t ScaleCount(int64_t count, double factor);

/// Scales `scenario`'s data by `factor` (kMinDataScale..kMaxDataScale) as the header says; false
/// when a count reached the 2^62 cap (the caller refuses the factor: the data would not fit).
bool ScaleData(double factor, Scenario* scenario);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_DATA_SCALE_H_
