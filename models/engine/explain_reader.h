// Reads an `aqesim explain` document (run_result.h: ExplainToJson) back into the RunResult the
// simulator produces, under the rules of run_result_reader.h: members ExplainToJson writes are
// read back exactly, a missing member takes the struct's default, a member of the wrong type is
// an error "PATH: /pointer: expected ..., found ..." and the result nullopt.
#ifndef AQESIM_MODELS_ENGINE_EXPLAIN_READER_H_
#define AQESIM_MODELS_ENGINE_EXPLAIN_READER_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/engine/run_result.h"

namespace aqesim {

/// An `aqesim explain` document at `pointer` of `path`: a RunResult with its adaptive flag,
/// exchanges, reads, joins, decisions, why-nots (`notApplied`, whose `numbers` the report acts on
/// must be of the types the rules write), failures and variants (no stages, makespan 0).
std::optional<RunResult> ExplainFromJson(const nlohmann::json& explain, const std::string& path,
                                         const std::string& pointer, std::vector<std::string>* errors);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_EXPLAIN_READER_H_
