#include "models/aqe/decision_outcome.h"

namespace aqesim {

std::string DecisionSubject(const std::string& prefix, const Decision& d) {
  std::string subject = prefix + d.rule;
  for (const char* key : {"join", "joins", "exchange", "exchanges", "node", "target"})
    if (d.fields.contains(key)) subject += std::string(" ") + key + "=" + d.fields.at(key).dump();
  return subject;
}

std::string DecisionOutcome(const std::string& prefix, const Decision& d) {
  // Without structured fields the message is all there is to tell the outcome by.
  if (d.fields.empty()) return DecisionSubject(prefix, d) + " message=" + nlohmann::json(d.message).dump();
  nlohmann::json kept = nlohmann::json::object();
  for (auto it = d.fields.begin(); it != d.fields.end(); ++it) {
    const std::string& key = it.key();
    const bool bytes = key.size() >= 5 && key.compare(key.size() - 5, 5, "Bytes") == 0;
    if (bytes || key == "minNumPartitions" || key == "numbers" || key == "atSeconds") continue;
    kept[key] = it.value();
  }
  return DecisionSubject(prefix, d) + " " + kept.dump();
}

}  // namespace aqesim
