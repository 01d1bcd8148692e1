// Reads `aqesim scale --format json` output back (what `aqesim report SCALE.json` draws): the
// rows and the answers, with every value checked as scale writes it (docs/user-contract.md,
// `scale`). Nothing in the file is trusted: the answers (fastest, fewest executors within 5 % /
// 10 %, the critical path's row) are computed again from the rows (MarkAnswers) and must name
// the rows the file names.
//
// Errors: one message per problem, "FILE: /rows/3/makespanSeconds: expected a number >= 0";
// a band must hold its value (0 <= low <= value <= high), a row's executors an integer >= 1,
// at most kMaxScaleRows rows.
#ifndef AQESIM_TOOLS_SCALE_SCALE_READER_H_
#define AQESIM_TOOLS_SCALE_SCALE_READER_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/scale/scale_runner.h"

namespace aqesim::scale {

/// The most rows a scale result may hold (a --percent list of 10^4 percentages is far beyond
/// any question; each row is a simulation).
constexpr size_t kMaxScaleRows = 10000;

/// A scale result as read: the rows and answers, what it was run on and whether it was a log.
struct ScaleDocument {
  ScaleResult result;
  std::string subject;  // the scenario or event log as scale was given it
  bool log = false;     // an event log: the rows carry Sparklens' estimate
};

/// Whether a parsed document is scale's JSON output ({"rows", "baseExecutors", "scenario"|"log"}).
bool IsScaleDocument(const nlohmann::json& doc);

/// nullopt with every problem in `*errors` ("PATH: /pointer: message").
std::optional<ScaleDocument> ScaleFromJson(const nlohmann::json& doc, const std::string& path,
                                           std::vector<std::string>* errors);

}  // namespace aqesim::scale

#endif  // AQESIM_TOOLS_SCALE_SCALE_READER_H_
