// A JSON pointer as a one-line message prints it: a plan 1000 nodes deep is pointed at by
// "/plan/child/child/..." 6 KB long ("/children/0/..." 10 KB), which made an error line of
// that length (hostile round X3).
#ifndef AQESIM_MODELS_SCENARIO_SHOWN_POINTER_H_
#define AQESIM_MODELS_SCENARIO_SHOWN_POINTER_H_

#include <cstddef>
#include <string>

namespace aqesim {

/// The longest pointer printed whole, bytes.
inline constexpr size_t kMaxShownPointerBytes = 200;

/// `pointer` when at most kMaxShownPointerBytes long; else its first and last tokens, up to
/// about 80 bytes each, around how many are left out ("/plan/child/child/…(990 tokens)…
/// /child/op", without the space), a token (a key) longer than 80 bytes cut to 80 with "…".
std::string ShownPointer(const std::string& pointer);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_SHOWN_POINTER_H_
