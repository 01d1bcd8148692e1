// Reads back the JSON `aqesim tune -o OUT.json` writes (tune_output.h) into the structs that wrote
// it, for `aqesim report TUNE.json`. Every member is checked where it is (a number where a number
// goes, the trace's values one per axis of `tune.space`); `best` is not read: the best
// evaluation is the trace's least objective (the earliest on a tie), as Search picks it.
#ifndef AQESIM_TOOLS_TUNE_TUNE_READER_H_
#define AQESIM_TOOLS_TUNE_TUNE_READER_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/tune/tune_output.h"

namespace aqesim::tune {

/// Whether `doc` looks like a tune output (members "tune" and "trace").
bool IsTuneDocument(const nlohmann::json& doc);

/// The outcome `doc` describes; nullopt with every problem in `*errors` ("PATH: /pointer:
/// message").
std::optional<TuneOutcome> TuneFromJson(const nlohmann::json& doc, const std::string& path,
                                        std::vector<std::string>* errors);

}  // namespace aqesim::tune

#endif  // AQESIM_TOOLS_TUNE_TUNE_READER_H_
