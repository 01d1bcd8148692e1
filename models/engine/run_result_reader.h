// Reads run results back from the files `aqesim run --format json` writes (run_result.h:
// RunToJson; `aqesim explain`'s: explain_reader.h) into the RunResult the simulator produces, so
// that a tool working on a result file and one working on a fresh simulation share one struct.
//
// Members RunToJson / ExplainToJson write are read back exactly (RunToJson(RunFromJson(j)) == j
// for any j RunToJson wrote); members they do not write (e.g. `run`'s makespanSecondsLow) are
// ignored. A missing member takes the struct's default; a member of the wrong type, or a count,
// size or time that no simulated run can have, is an error "PATH: /pointer: expected ..., found
// ..." appended to `*errors` (the first few of each run), and the result is then nullopt.
#ifndef AQESIM_MODELS_ENGINE_RUN_RESULT_READER_H_
#define AQESIM_MODELS_ENGINE_RUN_RESULT_READER_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/engine/json_problems.h"
#include "models/engine/run_result.h"

namespace aqesim {

/// Seconds beyond which no simulated run can end: SimTime's range (int64 microseconds).
inline constexpr double kMaxRunSeconds = 9.2e12;

/// A `runs[]` element of `aqesim run --format json [--tasks]` at `pointer` ("/runs/0") of the
/// file `path`. It must be an object with `adaptive`, `makespanSeconds` and `stages`.
std::optional<RunResult> RunFromJson(const nlohmann::json& run, const std::string& path,
                                     const std::string& pointer, std::vector<std::string>* errors);

/// The band `run --format json` writes beside a modelled makespan: `run`'s makespanSecondsLow and
/// makespanSecondsHigh, nullopt when neither is present (a profiled makespan). Both must be numbers
/// with 0 <= low <= makespanSeconds <= high <= kMaxRunSeconds (a forged band is refused, not
/// printed): otherwise an error at `pointer`/makespanSecondsLow and nullopt.
std::optional<std::pair<double, double>> MakespanBandFromJson(const nlohmann::json& run,
                                                              double makespan_seconds,
                                                              const std::string& path,
                                                              const std::string& pointer,
                                                              std::vector<std::string>* errors);

/// The `decisions` array of a run or explain document at `pointer` (absent: none), appended to
/// `*out`; problems go to `*p`. ExplainFromJson (explain_reader.h) reads explain's with it.
void DecisionsFromJson(const nlohmann::json& doc, const std::string& pointer, json_read::Problems* p,
                       std::vector<Decision>* out);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_RUN_RESULT_READER_H_
