// Reading an exchange's `rowsByPartition`: the records each reducer receives (README "Named
// variants"; models/shuffle/shuffle_records.h). Only the variants that count records read it;
// Apache Spark's rules never see records.
#ifndef AQESIM_MODELS_SCENARIO_RECORDS_READER_H_
#define AQESIM_MODELS_SCENARIO_RECORDS_READER_H_

#include "models/plan/plan.h"
#include "models/scenario/json_reader.h"

namespace aqesim {

/// Most entries of a `rowsByPartition` (as many as a generated shuffle may have reducers).
inline constexpr size_t kMaxRowsByPartitionEntries = 10'000'000;

/// `v`: a non-empty array of non-negative integers, at most kMaxRowsByPartitionEntries, whose
/// sum fits in 63 bits and equals the exchange's `rows` when it gives them (read after `rows`).
/// That it has one entry per reducer is checked when the reducers are known (the static planner).
void ReadRowsByPartition(const Json& v, PlanNode* exchange, DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_RECORDS_READER_H_
