#include "models/scenario/document_position.h"

#include <algorithm>

namespace aqesim {
namespace {

using Json = nlohmann::ordered_json;
using KeyIndex =
    std::unordered_map<const Json*, std::unordered_map<std::string_view, std::pair<size_t, const Json*>>>;

// From token `start` of `pointer` (the character after its '/') down from `cur`, appended
// to `position`.
void AppendPosition(const Json* cur, const std::string& pointer, size_t start, KeyIndex* key_index,
                    std::vector<size_t>* out) {
  std::vector<size_t>& position = *out;
  while (!pointer.empty() && start <= pointer.size() && pointer[0] == '/') {
    size_t end = pointer.find('/', start);
    if (end == std::string::npos) end = pointer.size();
    std::string token;
    for (size_t i = start; i < end; ++i) {
      if (pointer[i] == '~' && i + 1 < end) {
        token += pointer[i + 1] == '1' ? '/' : '~';
        ++i;
      } else {
        token += pointer[i];
      }
    }
    if (cur->is_object() && cur->size() > 32) {
      auto [cached, fresh] = key_index->try_emplace(cur);
      if (fresh) {
        size_t i = 0;
        for (auto it = cur->begin(); it != cur->end(); ++it, ++i)
          cached->second.emplace(it.key(), std::pair{i, &it.value()});
      }
      auto found = cached->second.find(token);
      if (found == cached->second.end()) break;
      position.push_back(found->second.first);
      cur = found->second.second;
    } else if (cur->is_object()) {
      size_t index = 0;
      const Json* next = nullptr;
      for (auto it = cur->begin(); it != cur->end(); ++it, ++index) {
        if (it.key() == token) {
          next = &it.value();
          break;
        }
      }
      if (next == nullptr) break;
      position.push_back(index);
      cur = next;
    } else if (cur->is_array()) {
      if (token.empty() || token.find_first_not_of("0123456789") != std::string::npos) break;
      const size_t index = std::stoull(token);
      if (index >= cur->size()) break;
      position.push_back(index);
      cur = &(*cur)[index];
    } else {
      break;
    }
    start = end + 1;
  }
}

std::vector<std::pair<std::string, const Json*>> TopLevelMembers(const Json& doc,
                                                                 const ReplacedMembers& replaced) {
  std::vector<std::pair<std::string, const Json*>> top;
  if (doc.is_object()) {
    for (auto it = doc.begin(); it != doc.end(); ++it) top.emplace_back(it.key(), &it.value());
  }
  const bool sorted =
      std::is_sorted(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& member : replaced) {
    // Named copies, not a structured binding: clang 14 cannot capture a binding in a lambda.
    const std::string& key = member.first;
    const Json* value = member.second;
    auto it = std::find_if(top.begin(), top.end(), [&](const auto& m) { return m.first == key; });
    if (it != top.end()) {
      it->second = value;
    } else if (sorted) {
      auto at = std::lower_bound(top.begin(), top.end(), key,
                                 [](const auto& m, const std::string& k) { return m.first < k; });
      top.emplace(at, key, value);
    } else {
      top.emplace_back(key, value);
    }
  }
  return top;
}

}  // namespace

DocumentPositions::DocumentPositions(const Json& doc, const ReplacedMembers& replaced)
    : doc_(doc), replaced_(replaced) {}

std::vector<size_t> DocumentPositions::Of(const std::string& p) {
  std::vector<size_t> position;
  if (replaced_.empty()) {
    AppendPosition(&doc_, p, 1, &key_index_, &position);
    return position;
  }
  if (top_.empty()) top_ = TopLevelMembers(doc_, replaced_);
  if (p.size() > 1 && p[0] == '/') {
    const size_t end = std::min(p.find('/', 1), p.size());
    std::string token = p.substr(1, end - 1);
    for (size_t i = token.find('~'); i != std::string::npos; i = token.find('~', i + 1))
      if (i + 1 < token.size()) token.replace(i, 2, token[i + 1] == '1' ? "/" : "~");
    auto it = std::find_if(top_.begin(), top_.end(), [&](const auto& m) { return m.first == token; });
    if (it != top_.end()) {
      position.push_back(static_cast<size_t>(it - top_.begin()));
      AppendPosition(it->second, p, end + 1, &key_index_, &position);
    }
  }
  return position;
}

}  // namespace aqesim
