// The subqueries of a SQL execution's plan as the scenario's `subqueries` (models/plan/subquery.h;
// part of SqlPlanImporter, sql_plan_import.h). Spark logs a subquery as a child of the operator
// that evaluates it (IsSubqueryNode): a runtime bloom filter's Subquery under the Filter above
// the scan it prunes, a dynamic-pruning SubqueryAdaptiveBroadcast under the scan. Each gates the
// scan built next on the way down (none when an exchange, join, union or aggregate comes first:
// warned and left out). One subquery expression (subquery#N, dynamicpruning#N) is imported
// once, however many places use it (ReusedSubquery):
//   dynamicPruning  SubqueryAdaptiveBroadcast / SubqueryBroadcast: `reusesBroadcast` the join
//                   whose broadcast build side is the same plan (PlanAdaptiveDynamicPruningFilters
//                   reuses that exchange); without one, its build plan as a job of its own
//   bloomFilter     a Subquery whose plan aggregates bloom_filter_agg (InjectRuntimeFilter)
//   scalar          any other Subquery
// A subquery's `plan` is imported like the query's (its exchanges are "eN map" stages); its final
// stage "<id> result" is the recorded stage that ran the plan's top operator.
#include <algorithm>
#include <cctype>

#include "tools/eventlog/sql_plan_import.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

/// The expression a subquery node stands for: "subquery#921", "dynamicpruning#918" (a
/// ReusedSubquery names the one it reuses).
std::string ExpressionKey(const SqlPlanNode& n) {
  const std::string& s = n.simple_string;
  size_t hash = s.find('#');
  if (hash == std::string::npos) return NormalizeSimpleString(s);
  size_t begin = s.rfind(' ', hash);
  begin = begin == std::string::npos ? 0 : begin + 1;
  size_t end = hash + 1;
  while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
  return s.substr(begin, end - begin);
}

bool MentionsBloomFilter(const SqlPlanNode& n) {
  bool found = false;
  Walk(n, [&](const SqlPlanNode& c) {
    found = found || c.simple_string.find("bloom_filter_agg") != std::string::npos;
  });
  return found;
}

}  // namespace

void SqlPlanImporter::NoteSubqueries(const SqlPlanNode& n) {
  for (const SqlPlanNode& c : n.children)
    if (IsSubqueryNode(BaseNodeName(c.node_name))) pending_subqueries_.push_back(&c);
}

void SqlPlanImporter::DropPendingSubqueries(const std::string& where) {
  for (const SqlPlanNode* q : pending_subqueries_)
    ctx_.warnings->push_back("subquery \"" + NormalizeSimpleString(q->simple_string) + "\" reaches " + where +
                             " before a scan: it gates no scan of the scenario and is left out");
  pending_subqueries_.clear();
}

std::string SqlPlanImporter::BuildPlanKey(const SqlPlanNode& n) {
  const SqlPlanNode* at = &n;
  for (;;) {
    const std::string base = BaseNodeName(at->node_name);
    const auto kids = MainChildren(*at);
    if (kids.size() != 1 || !(IsPlanWrapper(base) || base == "BroadcastExchange")) break;
    at = kids.front();
  }
  return NormalizeSimpleString(at->simple_string);
}

json SqlPlanImporter::BuildSubqueries() {
  // One entry per expression, in plan order; the definition is the node that has a plan.
  struct Found {
    std::string key;
    const SqlPlanNode* node = nullptr;
    std::vector<std::string> gates;
  };
  std::vector<Found> found;
  for (const auto& [node, scan] : gated_scans_) {
    const std::string key = ExpressionKey(*node);
    auto it = std::find_if(found.begin(), found.end(), [&](const Found& f) { return f.key == key; });
    if (it == found.end()) it = found.insert(found.end(), Found{key, nullptr, {}});
    if (it->node == nullptr && !node->children.empty()) it->node = node;
    if (std::find(it->gates.begin(), it->gates.end(), scan) == it->gates.end()) it->gates.push_back(scan);
  }
  json out = json::array();
  for (const Found& f : found) {
    if (f.node == nullptr) {
      ctx_.warnings->push_back("subquery " + f.key + ": only reused, its plan is not in the log; left out");
      continue;
    }
    ImportedSubquery q;
    q.id = "sq" + std::to_string(ctx_.out->subqueries.size() + 1);
    q.gates = f.gates;
    const std::string base = BaseNodeName(f.node->node_name);
    const bool pruning = base == "SubqueryAdaptiveBroadcast" || base == "SubqueryBroadcast" ||
                         f.key.rfind("dynamicpruning", 0) == 0;
    q.kind = pruning ? "dynamicPruning" : MentionsBloomFilter(*f.node) ? "bloomFilter" : "scalar";
    const std::string ptr = "/subqueries/" + std::to_string(out.size());
    json s = {{"id", q.id}, {"kind", q.kind}, {"gates", q.gates}};
    const SqlPlanNode& child = f.node->children.front();
    if (auto b = broadcast_builds_.find(BuildPlanKey(child)); pruning && b != broadcast_builds_.end()) {
      q.reuses_broadcast = b->second;
      s["reusesBroadcast"] = b->second;
    } else {
      // Its own plan; subqueries nested in it are not imported (gates name the query's scans).
      const size_t gated_before = gated_scans_.size();
      ScanPrepass(child);
      s["plan"] = BuildNode(child, ptr + "/plan");
      gated_scans_.resize(gated_before);
      DropPendingSubqueries("the end of a subquery's plan");
      // Its final stage: the stage that ran the plan's top operator.
      const SqlPlanNode* top = &child;
      while (IsPlanWrapper(BaseNodeName(top->node_name)) && MainChildren(*top).size() == 1)
        top = MainChildren(*top).front();
      if (const SqlPlanNode* twin = index_.Twin(*top, "")) {
        for (const SqlMetric& m : twin->metrics) {
          if (!index_.MetricRan(m.accumulator_id)) continue;
          if (const RecordedStage* st = index_.StageOfMetric(m.accumulator_id))
            q.result_stage_id = st->stage_id;
          break;
        }
      }
    }
    ctx_.out->subqueries.push_back(std::move(q));
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace aqesim::eventlog
