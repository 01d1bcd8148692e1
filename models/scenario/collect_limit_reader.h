// A plan rooted at `{"op": "collectLimit", "limit": 21, "rows": 12, "child": {...}}`: Spark's
// CollectLimitExec at the top of a collect / show() / take() (sql/core/.../execution/limit.scala),
// whose executeCollect runs SparkPlan.executeTake over its child's final stage — a few partitions
// per job until `limit` rows are in (models/engine/execute_take.h). `rows` (optional) = the rows
// the child yields over all its partitions, spread over them in proportion to the bytes each reads;
// without it every partition that reads any byte yields at least `limit` rows.
#ifndef AQESIM_MODELS_SCENARIO_COLLECT_LIMIT_READER_H_
#define AQESIM_MODELS_SCENARIO_COLLECT_LIMIT_READER_H_

#include <cstdint>
#include <optional>
#include <string>

#include "models/scenario/json_reader.h"

namespace aqesim {

/// Reads the collectLimit node at `pointer` (fields op, id, limit, rows, child; limit and child
/// required) into `out`; problems go to `sink`. The caller reads the child as the plan.
void ReadCollectLimit(const Json& v, const std::string& pointer, CollectLimit* out, DiagnosticSink* sink);

/// Whether `v` is a plan node whose op is "collectLimit".
bool IsCollectLimit(const Json& v);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_COLLECT_LIMIT_READER_H_
