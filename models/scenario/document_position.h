// Where a JSON pointer lies in a document, for reporting problems in document order: the
// positions of its tokens (a key's index among its object's keys, or the array index), as far
// as the pointer resolves. Lexicographic order of these vectors is document order, with a
// parent before its descendants.
#ifndef AQESIM_MODELS_SCENARIO_DOCUMENT_POSITION_H_
#define AQESIM_MODELS_SCENARIO_DOCUMENT_POSITION_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace aqesim {

/// Top-level members of a document replaced (or added) by others, by key: the sections a
/// sweep point or a calibration probe edits (scenario_overrides.h). The values are not owned.
using ReplacedMembers = std::vector<std::pair<std::string, const nlohmann::ordered_json*>>;

/// Positions in `doc` with the `replaced` top-level members swapped in (a member doc lacks
/// goes where setting it would put it: in key order when doc's keys are sorted, as in a
/// document parsed into a key-sorted object, else last), without copying `doc`. Both must
/// outlive this object.
class DocumentPositions {
 public:
  using Json = nlohmann::ordered_json;
  DocumentPositions(const Json& doc, const ReplacedMembers& replaced);
  std::vector<size_t> Of(const std::string& pointer);

 private:
  const Json& doc_;
  const ReplacedMembers& replaced_;
  std::vector<std::pair<std::string, const Json*>> top_;  // with replaced_, computed once
  // Index of each key of the large objects looked up (a conf of 10^5 keys would otherwise be
  // searched key by key for each of its 10^5 warnings).
  std::unordered_map<const Json*, std::unordered_map<std::string_view, std::pair<size_t, const Json*>>>
      key_index_;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_DOCUMENT_POSITION_H_
