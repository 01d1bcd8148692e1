#include "models/aqe/not_applied.h"

#include <algorithm>
#include <cstdint>

namespace aqesim {

int64_t NotApplied::Integer(const char* key) const {
  const auto it = numbers.find(key);
  if (it == numbers.end() || !it->is_number_integer()) return 0;
  if (it->is_number_unsigned() && it->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) return 0;
  return it->get<int64_t>();
}

bool NotApplied::Flag(const char* key) const {
  const auto it = numbers.find(key);
  return it != numbers.end() && it->is_boolean() && it->get<bool>();
}

std::string NotApplied::Text(const char* key) const {
  const auto it = numbers.find(key);
  return it != numbers.end() && it->is_string() ? it->get<std::string>() : std::string();
}

void MergeNotApplied(std::vector<NotApplied> entries, std::vector<NotApplied>* list) {
  for (NotApplied& e : entries) {
    auto same = std::find_if(list->begin(), list->end(),
                             [&](const NotApplied& x) { return x.rule == e.rule && x.target == e.target; });
    if (same != list->end()) {
      // The same stop again keeps the first time it was seen.
      if (same->reason != e.reason || same->message != e.message) *same = std::move(e);
    } else {
      list->push_back(std::move(e));
    }
  }
}

std::string DecisionTarget(const Decision& d) {
  const nlohmann::json& f = d.fields;
  if (!f.is_object()) return "";
  if (auto a = f.find("applied"); a != f.end() && *a == false) return "";
  if (auto j = f.find("join"); j != f.end() && j->is_string()) return j->get<std::string>();
  if (auto e = f.find("exchange"); e != f.end() && e->is_string()) return e->get<std::string>();
  if (auto e = f.find("exchanges"); e != f.end()) {
    if (e->is_string()) return e->get<std::string>();
    std::string ids;
    if (e->is_array())
      for (const auto& x : *e) {
        if (!x.is_string()) continue;
        if (!ids.empty()) ids += ',';
        ids += x.get_ref<const std::string&>();
      }
    return ids;
  }
  return "";
}

void DropActedOn(const std::vector<Decision>& decisions, std::vector<NotApplied>* list) {
  for (const Decision& d : decisions) {
    const std::string target = DecisionTarget(d);
    if (target.empty()) continue;
    std::erase_if(*list, [&](const NotApplied& x) { return x.rule == d.rule && x.target == target; });
    // A split of several joins together (las.multipleSkewedJoinsInStage) acted on each of them.
    auto joins = d.fields.find("joins");
    if (joins == d.fields.end() || !joins->is_array()) continue;
    for (const auto& j : *joins) {
      if (!j.is_string()) continue;
      const std::string id = j.get<std::string>();
      std::erase_if(*list, [&](const NotApplied& x) { return x.rule == d.rule && x.target == id; });
    }
  }
}

}  // namespace aqesim
