// Test helpers: Spark's test vectors (tests/data/spark-aqe/vectors.json, cases.json) and a
// printable form of partition specs for readable failures.
#ifndef AQESIM_TESTS_MODELS_SHUFFLE_SPARK_VECTORS_H_
#define AQESIM_TESTS_MODELS_SHUFFLE_SPARK_VECTORS_H_

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/shuffle/partition_spec.h"

namespace aqesim::testing {

inline const nlohmann::json& LoadJsonFile(const std::string& name) {
  static std::vector<std::pair<std::string, nlohmann::json>> cache;
  for (const auto& [n, j] : cache)
    if (n == name) return j;
  const std::string path = std::string(AQESIM_SOURCE_DIR) + "/tests/data/spark-aqe/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  cache.emplace_back(name, nlohmann::json::parse(in));
  return cache.back().second;
}

/// All vectors whose id starts with `prefix`.
inline std::vector<nlohmann::json> VectorsWithPrefix(const std::string& prefix) {
  std::vector<nlohmann::json> out;
  for (const auto& v : LoadJsonFile("vectors.json"))
    if (v.at("id").get<std::string>().rfind(prefix, 0) == 0) out.push_back(v);
  return out;
}

inline const nlohmann::json& Vector(const std::string& id) {
  for (const auto& v : LoadJsonFile("vectors.json"))
    if (v.at("id") == id) return v;
  throw std::runtime_error("no vector " + id);
}

inline const nlohmann::json& Case(const std::string& id) {
  for (const auto& c : LoadJsonFile("cases.json").at("cases"))
    if (c.at("id") == id) return c;
  throw std::runtime_error("no case " + id);
}

inline ShufflePartitionSpec SpecFromJson(const nlohmann::json& j) {
  const std::string kind = j.at("kind");
  if (kind == "Coalesced") {
    CoalescedPartitionSpec s{j.at("start"), j.at("end"), std::nullopt};
    if (j.contains("dataSize") && !j.at("dataSize").is_null())
      s.data_size_bytes = j.at("dataSize").get<int64_t>();
    return s;
  }
  if (kind == "PartialReducer")
    return PartialReducerPartitionSpec{j.at("reducer"), j.at("startMap"), j.at("endMap"), j.at("dataSize")};
  if (kind == "PartialMapper") return PartialMapperPartitionSpec{j.at("map"), j.at("start"), j.at("end")};
  if (kind == "CoalescedMapper")
    return CoalescedMapperPartitionSpec{j.at("startMap"), j.at("endMap"), j.at("numReducers")};
  throw std::runtime_error("unknown spec kind " + kind);
}

inline std::vector<ShufflePartitionSpec> SpecsFromJson(const nlohmann::json& j) {
  std::vector<ShufflePartitionSpec> out;
  for (const auto& s : j) out.push_back(SpecFromJson(s));
  return out;
}

inline std::string ToString(const ShufflePartitionSpec& spec) {
  std::ostringstream o;
  if (const auto* c = std::get_if<CoalescedPartitionSpec>(&spec)) {
    o << "C(" << c->start_reducer_index << "," << c->end_reducer_index << ","
      << (c->data_size_bytes ? std::to_string(*c->data_size_bytes) : "none") << ")";
  } else if (const auto* p = std::get_if<PartialReducerPartitionSpec>(&spec)) {
    o << "PR(" << p->reducer_index << "," << p->start_map_index << "," << p->end_map_index << ","
      << p->data_size_bytes << ")";
  } else if (const auto* m = std::get_if<PartialMapperPartitionSpec>(&spec)) {
    o << "PM(" << m->map_index << "," << m->start_reducer_index << "," << m->end_reducer_index << ")";
  } else if (const auto* cm = std::get_if<CoalescedMapperPartitionSpec>(&spec)) {
    o << "CM(" << cm->start_map_index << "," << cm->end_map_index << "," << cm->num_reducers << ")";
  }
  return o.str();
}

inline std::string ToString(const std::vector<ShufflePartitionSpec>& specs) {
  std::string out = "[";
  for (size_t i = 0; i < specs.size(); ++i) {
    // Not "x" + std::string&&: a GCC 12 -Wrestrict false positive (GCC bug 105329).
    if (i) out += ' ';
    out += ToString(specs[i]);
  }
  return out + "]";
}

inline std::string ToString(const std::vector<std::vector<ShufflePartitionSpec>>& lists) {
  std::string out;
  for (const auto& l : lists) out += ToString(l) + "\n";
  return out;
}

inline int64_t SpecDataSize(const ShufflePartitionSpec& spec) {
  if (const auto* c = std::get_if<CoalescedPartitionSpec>(&spec)) return c->data_size_bytes.value_or(0);
  if (const auto* p = std::get_if<PartialReducerPartitionSpec>(&spec)) return p->data_size_bytes;
  return 0;
}

}  // namespace aqesim::testing

#endif  // AQESIM_TESTS_MODELS_SHUFFLE_SPARK_VECTORS_H_
