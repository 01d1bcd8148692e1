#include "tools/eventlog/sql_plan_info.h"

#include <cctype>
#include <nlohmann/json.hpp>

#include "models/conf/property_value.h"
#include "tools/eventlog/event_fields.h"

namespace aqesim::eventlog {

using nlohmann::json;

std::optional<int64_t> SqlPlanNode::MetricId(std::string_view name) const {
  for (const auto& m : metrics) {
    if (m.name == name) return m.accumulator_id;
  }
  return std::nullopt;
}

SqlPlanNode ParseSparkPlanInfo(const json& info) {
  SqlPlanNode node;
  node.node_name = StringField(info, "nodeName");
  node.simple_string = StringField(info, "simpleString");
  const json& metrics = Field(info, "metrics");
  if (metrics.is_array()) {
    for (const json& m : metrics) {
      SqlMetric metric;
      metric.name = StringField(m, "name");
      metric.accumulator_id = IntField(m, "accumulatorId", -1);
      metric.metric_type = StringField(m, "metricType");
      node.metrics.push_back(std::move(metric));
    }
  }
  const json& children = Field(info, "children");
  if (children.is_array()) {
    for (const json& c : children) node.children.push_back(ParseSparkPlanInfo(c));
  }
  return node;
}

std::string NormalizeSimpleString(std::string_view s) {
  std::string out(s);
  for (const char* marker : {", [id=#", " [id=#", ", [plan_id=", " [plan_id="}) {
    size_t pos;
    while ((pos = out.find(marker)) != std::string::npos) {
      const size_t end = out.find(']', pos);
      out.erase(pos, end == std::string::npos ? std::string::npos : end - pos + 1);
    }
  }
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back()))) out.pop_back();
  return out;
}

std::string PlanShape(const SqlPlanNode& plan) {
  std::string out = plan.node_name + "(" + std::to_string(plan.children.size()) + ")";
  for (const SqlPlanNode& c : plan.children) {
    // Not "x" + std::string&&: a GCC 12 -Wrestrict false positive (GCC bug 105329).
    out += ' ';
    out += PlanShape(c);
  }
  return out;
}

std::string BaseNodeName(const std::string& name) { return name.substr(0, name.find('(')); }

bool IsJoinNode(const std::string& base) {
  return base == "SortMergeJoin" || base == "ShuffledHashJoin" || base == "BroadcastHashJoin" ||
         base == "BroadcastNestedLoopJoin" || base == "CartesianProduct";
}

std::string JoinKey(const SqlPlanNode& node) {
  std::string s = NormalizeSimpleString(node.simple_string);
  const size_t space = s.find(' ');
  s = space == std::string::npos ? "" : s.substr(space + 1);
  static const char* kTypes[] = {"Inner",     "Cross",    "LeftOuter", "RightOuter",
                                 "FullOuter", "LeftSemi", "LeftAnti",  "ExistenceJoin"};
  size_t best = std::string::npos, best_len = 0;
  for (const char* t : kTypes) {
    const size_t pos = s.find(std::string(", ") + t);
    if (pos != std::string::npos && (best == std::string::npos || pos < best)) {
      best = pos;
      best_len = std::string(t).size() + 2;
    }
  }
  if (best != std::string::npos) return s.substr(0, best + best_len);
  return s;
}

void Walk(const SqlPlanNode& node, const std::function<void(const SqlPlanNode&)>& fn) {
  fn(node);
  for (const auto& c : node.children) Walk(c, fn);
}

const SqlPlanNode* FindFirst(const SqlPlanNode& node, std::string_view name) {
  if (node.node_name == name) return &node;
  for (const auto& c : node.children) {
    if (const SqlPlanNode* f = FindFirst(c, name)) return f;
  }
  return nullptr;
}

bool IsSubqueryNode(const std::string& base) {
  return base == "Subquery" || base == "SubqueryBroadcast" || base == "ReusedSubquery" ||
         base == "SubqueryAdaptiveBroadcast" || base == "SubqueryExec";
}
bool IsAggregateNode(const std::string& base) {
  return base == "HashAggregate" || base == "SortAggregate" || base == "ObjectHashAggregate";
}
bool IsExchangeNode(const std::string& base) { return base == "Exchange" || base == "ShuffleExchange"; }

std::vector<const SqlPlanNode*> MainChildren(const SqlPlanNode& n) {
  std::vector<const SqlPlanNode*> out;
  for (const auto& c : n.children) {
    if (!IsSubqueryNode(BaseNodeName(c.node_name))) out.push_back(&c);
  }
  return out;
}

std::string JoinTypeOf(const std::string& simple, std::vector<std::string>* notes) {
  static const std::pair<const char*, const char*> kTypes[] = {
      {", Inner", "Inner"},           {", Cross", "Cross"},           {", LeftOuter", "LeftOuter"},
      {", RightOuter", "RightOuter"}, {", FullOuter", "FullOuter"},   {", LeftSemi", "LeftSemi"},
      {", LeftAnti", "LeftAnti"},     {", ExistenceJoin", "LeftSemi"}};
  size_t best = std::string::npos;
  std::string type = "Inner";
  for (const auto& [needle, name] : kTypes) {
    const size_t pos = simple.find(needle);
    if (pos != std::string::npos && pos < best) {
      best = pos;
      type = name;
    }
  }
  if (best == std::string::npos) notes->push_back("join type not found in \"" + simple + "\", assumed Inner");
  if (simple.find(", ExistenceJoin") == best && best != std::string::npos) {
    notes->push_back("ExistenceJoin imported as LeftSemi");
  }
  return type;
}

std::optional<int> ParsePartitionCount(const std::string& simple) {
  if (simple.find("SinglePartition") != std::string::npos) return 1;
  const size_t open = simple.find('(');
  if (open == std::string::npos) return std::nullopt;
  // The partitioning expression ends at the ')' matching its '('.
  int depth = 0;
  size_t close = std::string::npos;
  for (size_t i = open; i < simple.size(); ++i) {
    if (simple[i] == '(') ++depth;
    if (simple[i] == ')' && --depth == 0) {
      close = i;
      break;
    }
  }
  if (close == std::string::npos) return std::nullopt;
  size_t end = close;
  size_t begin = end;
  while (begin > open && std::isdigit(static_cast<unsigned char>(simple[begin - 1]))) --begin;
  if (begin == end) return std::nullopt;
  return ParseInt(std::string_view(simple).substr(begin, end - begin));
}

std::string ParseOrigin(const std::string& simple) {
  for (const char* o : {"REPARTITION_BY_COL", "REPARTITION_BY_NUM", "REBALANCE_PARTITIONS_BY_NONE",
                        "REBALANCE_PARTITIONS_BY_COL", "ENSURE_REQUIREMENTS"}) {
    if (simple.find(o) != std::string::npos) return o;
  }
  return "ENSURE_REQUIREMENTS";
}

}  // namespace aqesim::eventlog
