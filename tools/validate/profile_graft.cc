#include "tools/validate/profile_graft.h"

#include <array>
#include <utility>

namespace aqesim::validate {
namespace {

using nlohmann::json;

bool IsBroadcastJoin(const json& node) {
  return node.value("op", "") == "join" && node.value("strategy", "").rfind("Broadcast", 0) == 0;
}

const char* BuildKey(const json& node) {
  return node.value("buildSide", "BuildRight") == "BuildLeft" ? "left" : "right";
}

/// The node's operator and the attributes that make its shape (no ids, sizes or counts).
std::string Head(const json& node) {
  std::string out = node.value("op", "?");
  for (const char* key : {"joinType", "strategy", "buildSide", "grouped", "singlePartition"}) {
    if (!node.contains(key)) continue;
    const json& v = node[key];
    out += std::string(" ") + key + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  }
  return out;
}

/// The shape of `node`'s subtree; `cut`: other stages' parts (exchanges below the top, the
/// build side of a broadcast join) written as a leaf.
std::string Shape(const json& node, bool cut, bool top) {
  if (!node.is_object()) return "?";
  if (cut && !top && node.value("op", "") == "exchange") return "<stage>";
  std::string out = Head(node) + "(";
  bool first = true;
  auto add = [&](const std::string& s) {
    out += (first ? "" : ", ") + s;
    first = false;
  };
  const bool broadcast = IsBroadcastJoin(node);
  for (const char* key : {"child", "left", "right"}) {
    if (!node.contains(key)) continue;
    if (cut && broadcast && std::string(key) == BuildKey(node)) {
      add("<broadcast>");
    } else {
      add(Shape(node[key], cut, false));
    }
  }
  if (node.contains("children") && node["children"].is_array())
    for (const json& c : node["children"]) add(Shape(c, cut, false));
  return out + ")";
}

struct Top {
  std::string name;
  const json* node;
  std::string path;
};

void Walk(const json& node, const std::string& path, std::vector<Top>* tops) {
  if (!node.is_object()) return;
  const std::string id = node.value("id", "");
  if (node.value("op", "") == "exchange" && node.contains("child"))
    tops->push_back({id + " map", &node, path});
  if (IsBroadcastJoin(node) && node.contains(BuildKey(node)))
    tops->push_back({id + " broadcast", &node[BuildKey(node)], path + "/" + BuildKey(node)});
  for (const char* key : {"child", "left", "right"})
    if (node.contains(key)) Walk(node[key], path + "/" + key, tops);
  if (node.contains("children") && node["children"].is_array())
    for (size_t i = 0; i < node["children"].size(); ++i)
      Walk(node["children"][i], path + "/children/" + std::to_string(i), tops);
}

}  // namespace

std::map<std::string, StageShape> StageShapes(const json& plan) {
  std::vector<Top> tops = {{"result", &plan, ""}};
  Walk(plan, "", &tops);
  std::map<std::string, StageShape> out;
  std::map<std::string, int> deep_seen, own_seen;
  for (const auto& [name, node, path] : tops) {
    // The role is part of the shape: a build side and an exchange's subtree may look alike.
    const std::string role = name == "result"                                            ? "result:"
                             : name.size() > 4 && name.substr(name.size() - 4) == " map" ? "map:"
                                                                                         : "broadcast:";
    StageShape s;
    s.deep = role + Shape(*node, false, true);
    s.own = role + Shape(*node, true, true);
    s.deep_rank = deep_seen[s.deep]++;
    s.own_rank = own_seen[s.own]++;
    s.path = path;
    out.emplace(name, std::move(s));
  }
  return out;
}

GraftResult GraftProfiles(const std::vector<ProfileSource>& sources, json* document) {
  const std::map<std::string, StageShape> wanted = StageShapes(document->value("plan", json::object()));
  GraftResult best;
  const ProfileSource* best_source = nullptr;
  std::map<std::string, std::string> best_names;  // B stage → A stage
  for (const ProfileSource& src : sources) {
    if (!src.scenario.contains("profiles") || !src.scenario.contains("plan")) continue;
    const json& profiles = src.scenario["profiles"];
    const std::map<std::string, StageShape> have = StageShapes(src.scenario["plan"]);
    std::map<std::string, std::string> names;
    for (const auto& [b_name, b] : wanted) {
      // Best first: deep shape at the same place, deep shape of the same rank, own shape at the
      // same place, own shape of the same rank.
      std::array<const std::string*, 4> found{};
      for (const auto& [a_name, a] : have) {
        if (!profiles.contains(a_name)) continue;
        if (a.deep == b.deep && a.path == b.path) found[0] = &a_name;
        if (a.deep == b.deep && a.deep_rank == b.deep_rank) found[1] = &a_name;
        if (a.own == b.own && a.path == b.path) found[2] = &a_name;
        if (a.own == b.own && a.own_rank == b.own_rank) found[3] = &a_name;
      }
      for (const std::string* f : found) {
        if (f == nullptr) continue;
        names[b_name] = *f;
        break;
      }
    }
    if (names.size() > best_names.size()) {
      best_names = std::move(names);
      best_source = &src;
    }
  }
  json profiles = json::object();
  if (best_source != nullptr) {
    best.source_label = best_source->label;
    for (const auto& [b_name, a_name] : best_names) {
      const json& p = best_source->scenario["profiles"][a_name];
      profiles[b_name] = p;
      std::string from = best_source->label + ": " + a_name;
      if (p.contains("recordedStage") && p["recordedStage"].is_number_integer())
        from += " (stage " + std::to_string(p["recordedStage"].get<int>()) + ")";
      best.stage_sources[b_name] = std::move(from);
    }
  }
  document->erase("profiles");
  document->erase("driver");
  if (!profiles.empty()) (*document)["profiles"] = std::move(profiles);
  if (best_source != nullptr && best_source->scenario.contains("driver"))
    (*document)["driver"] = best_source->scenario["driver"];
  return best;
}

}  // namespace aqesim::validate
