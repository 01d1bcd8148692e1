// A size matrix from a csv file (an exchange's `sizes: {"csv": FILE}`): one row per map task,
// one comma-separated byte count per reducer; blank lines are ignored, a UTF-8 BOM is skipped,
// and each problem is reported at its FILE: line L, column C.
#ifndef AQESIM_MODELS_SCENARIO_CSV_MATRIX_READER_H_
#define AQESIM_MODELS_SCENARIO_CSV_MATRIX_READER_H_

#include <cstddef>
#include <optional>
#include <string>

#include "models/scenario/json_reader.h"
#include "models/shuffle/size_matrix.h"

namespace aqesim {

/// Past this many problems in one matrix or csv file, the rest are only counted.
inline constexpr size_t kMaxProblemsPerTable = 20;

/// Reads the csv file named by `v` (relative to `dir`, the scenario's folder; "" = current).
/// nullopt after reporting problems.
std::optional<SizeMatrix> ReadCsvMatrix(const Json& v, const std::string& pointer, const std::string& dir,
                                        DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_CSV_MATRIX_READER_H_
