// Size consistency of a scenario's shuffles: an exchange's given sizes against the bytes its
// plan says flow into it. A hand-written scenario can contradict itself (a 1 GiB scan whose
// exchange writes 100 GiB, a filter of selectivity 0.003 above a shuffle that writes the whole
// scan); the simulator runs the sizes as given (tasks read what the matrix says), so the
// contradiction is a warning naming both places, never an error.
//
// Two checks, on an exchange with `sizes`:
//  * growth: the shuffle writes more than kMaxUnexplainedGrowth × its stage's input (the bytes
//    its stage reads: scans' `bytes`, lower exchanges' shuffle bytes) and no row ratio says the
//    data grows that much (the growth beyond the rows' own: `rows` on the exchange or its child
//    ÷ the `rows` of every input, when all are given);
//  * disagreement: otherwise, the sizes' total is more than kMaxPlanDisagreement × the plan's
//    bytes (DataBytes: the inputs × the selectivities between them and the exchange), unless the
//    rows say so too (the total within kMaxPlanDisagreement × the input × the rows' growth).
//    Less than the plan's bytes is not warned: shuffles usually write less than they read
//    (pruned columns, partial aggregation, compression).
// An exchange without `sizes` writes the plan's bytes, so neither check applies to it.
#ifndef AQESIM_MODELS_ENGINE_SIZE_CONSISTENCY_H_
#define AQESIM_MODELS_ENGINE_SIZE_CONSISTENCY_H_

#include <cstdint>
#include <optional>
#include <string>

#include "models/plan/exec_node.h"

namespace aqesim {

/// Bytes written ÷ stage input beyond which a growth needs rows to explain it.
inline constexpr double kMaxUnexplainedGrowth = 10.0;
/// Factor by which given sizes may exceed the plan's bytes.
inline constexpr double kMaxPlanDisagreement = 2.0;

/// The warning for `exchange` (an exchange of a scenario node with `sizes`, its child planned)
/// writing `written_bytes`, or nullopt when the sizes are consistent. The text starts with the
/// exchange's `/sizes` pointer and names the pointer of the other side of the comparison.
std::optional<std::string> SizeConsistencyWarning(const ExecNode& exchange, int64_t written_bytes);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_SIZE_CONSISTENCY_H_
