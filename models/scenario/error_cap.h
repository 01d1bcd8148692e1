// How many errors a command lists one by one: a document with 10^6 bad array elements printed
// 10^6 lines (132 MB of standard error). DiagnosticSink::Finish (json_reader.h) keeps the first
// kMaxErrorsListed errors of a document and counts the rest in one MoreErrorsMessage line; the
// aqesim CLI caps any list of error lines the same way.
#ifndef AQESIM_MODELS_SCENARIO_ERROR_CAP_H_
#define AQESIM_MODELS_SCENARIO_ERROR_CAP_H_

#include <cstddef>
#include <string>

namespace aqesim {

/// At most this many errors are listed one by one; the rest in one line.
inline constexpr size_t kMaxErrorsListed = 20;

/// "... and N more errors" ("... and 1 more error"): the line after the first kMaxErrorsListed.
inline std::string MoreErrorsMessage(size_t more) {
  return "... and " + std::to_string(more) + (more == 1 ? " more error" : " more errors");
}

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_ERROR_CAP_H_
