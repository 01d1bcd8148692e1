// JSON texts as the scenario loader reads them: the document parsed with every problem at its
// line and column (nesting too deep, syntax, numbers beyond a double, a NUL byte, duplicate
// keys at their pointer), and bytes shown one line long in messages.
#ifndef AQESIM_MODELS_SCENARIO_JSON_TEXT_H_
#define AQESIM_MODELS_SCENARIO_JSON_TEXT_H_

#include <string>
#include <vector>

#include "models/scenario/json_reader.h"
#include "models/scenario/scenario.h"

namespace aqesim {

/// `text` with control characters (and, when `escape_non_ascii`, every byte above 0x7e)
/// written as \xNN, so that it prints as one line of the bytes given.
std::string EscapeBytes(const std::string& text, bool escape_non_ascii);

/// Parses a JSON text as the scenario loader does, into `doc`: nesting deeper than
/// kMaxJsonDepth (nlohmann recurses), syntax errors and numbers beyond a double at their line
/// and column, a NUL byte, duplicate keys at their pointer. False, with `errors`, on any.
bool ParseJsonText(const std::string& path, const std::string& text, Json* doc,
                   std::vector<Diagnostic>* errors);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_JSON_TEXT_H_
