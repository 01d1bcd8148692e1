#include "models/scenario/subquery_reader.h"

#include <map>
#include <set>
#include <utility>

#include "models/conf/did_you_mean.h"
#include "models/scenario/plan_reader.h"

namespace aqesim {

namespace {

const std::vector<std::string> kKindNames = {"scalar", "inSubquery", "bloomFilter", "dynamicPruning"};

/// Every node of `root` in pre-order.
void Collect(const PlanNode& n, std::vector<const PlanNode*>* out) {
  out->push_back(&n);
  for (const auto& c : n.children) Collect(*c, out);
}

/// `names` as "\"a\", \"b\", ..." (the first 20).
std::string ListNames(const std::vector<std::string>& names) {
  std::string list;
  for (size_t i = 0; i < names.size() && i < 20; ++i) list += (i ? ", " : "") + Json(names[i]).dump();
  if (names.size() > 20) list += ", ... (" + std::to_string(names.size()) + " in all)";
  return list;
}

/// An id of `what` nodes of /plan: the scans a subquery gates, the join whose broadcast it reuses.
void CheckNamed(const std::string& id, const std::string& pointer, const std::vector<std::string>& ids,
                const std::string& what, DiagnosticSink* sink) {
  for (const std::string& known : ids)
    if (known == id) return;
  sink->Error(pointer,
              "expected the id of a " + what + " of /plan, found " + Json(id).dump() +
                  (ids.empty() ? " (/plan has none)" : " (its " + what + "s: " + ListNames(ids) + ")") +
                  DidYouMeanSuffix(id, ids));
}

}  // namespace

void ReadSubqueries(const Json& v, const std::string& pointer, const std::string& scenario_dir,
                    const PlanNode* plan, std::vector<Subquery>* out, DiagnosticSink* sink) {
  if (!v.is_array()) {
    sink->Error(pointer, "expected an array of subqueries, found " + DescribeJson(v));
    return;
  }
  // Ids in use (id → the pointer of its "id" field, or of its node when generated).
  std::map<std::string, std::string> in_use;
  std::vector<std::string> scans, joins;
  if (plan != nullptr) {
    std::vector<const PlanNode*> nodes;
    Collect(*plan, &nodes);
    for (const PlanNode* n : nodes) {
      in_use.emplace(n->id, n->pointer);
      if (n->op == PlanOp::kScan) scans.push_back(n->id);
      if (n->op == PlanOp::kJoin) joins.push_back(n->id);
    }
  }
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string p = PointerAppend(pointer, i);
    const Json& s = v[i];
    if (!s.is_object()) {
      sink->Error(
          p, "expected a subquery (an object with \"gates\" and \"plan\" or \"reusesBroadcast\"), found " +
                 DescribeJson(s));
      continue;
    }
    CheckFields(s, p, {"id", "kind", "gates", "plan", "reusesBroadcast"}, "a subquery", sink);
    Subquery q;
    q.pointer = p;
    q.id = "sq" + std::to_string(i + 1);
    if (s.contains("id")) {
      if (auto id = ReadString(s["id"], PointerAppend(p, "id"), sink)) {
        if (auto it = in_use.find(*id); it != in_use.end()) {
          sink->Error(PointerAppend(p, "id"), "expected a unique id, found " + Json(*id).dump() +
                                                  " (already used at " + it->second + ")");
        }
        q.id = *id;
      }
    }
    in_use.emplace(q.id, s.contains("id") ? PointerAppend(p, "id") : p);
    if (s.contains("kind")) {
      if (auto k = ReadEnum<SubqueryKind>(
              s["kind"], PointerAppend(p, "kind"),
              [](const std::string& name) { return ParseSubqueryKind(name); }, kKindNames, "a subquery kind",
              sink))
        q.kind = *k;
    }
    const std::string gp = PointerAppend(p, "gates");
    if (!s.contains("gates")) {
      sink->Error(p, "missing field \"gates\" (the ids of the scans that wait for the subquery's result)");
    } else if (!s["gates"].is_array() || s["gates"].empty()) {
      sink->Error(gp, "expected a non-empty array of scan ids, found " + DescribeJson(s["gates"]));
    } else {
      std::set<std::string> seen;
      for (size_t g = 0; g < s["gates"].size(); ++g) {
        const std::string ep = PointerAppend(gp, g);
        auto id = ReadString(s["gates"][g], ep, sink);
        if (!id) continue;
        if (!seen.insert(*id).second) {
          sink->Error(ep, "expected each scan once, found " + Json(*id).dump() + " again");
          continue;
        }
        if (plan != nullptr) CheckNamed(*id, ep, scans, "scan", sink);
        q.gates.push_back(*id);
      }
    }
    const bool has_plan = s.contains("plan"), reuses = s.contains("reusesBroadcast");
    if (has_plan == reuses) {
      sink->Error(p,
                  std::string("expected either \"plan\" (the subquery's own job) or \"reusesBroadcast\" (the "
                              "join whose broadcast a dynamicPruning subquery reads), found ") +
                      (has_plan ? "both" : "neither"));
    } else if (reuses) {
      const std::string rp = PointerAppend(p, "reusesBroadcast");
      if (auto j = ReadString(s["reusesBroadcast"], rp, sink)) {
        if (q.kind != SubqueryKind::kDynamicPruning) {
          sink->Error(rp, "expected no reusesBroadcast on a " + std::string(SubqueryKindName(q.kind)) +
                              " subquery (only a dynamicPruning subquery reuses a join's broadcast), found " +
                              Json(*j).dump());
        } else {
          if (plan != nullptr) CheckNamed(*j, rp, joins, "join", sink);
          q.reuses_broadcast = *j;
        }
      }
    } else {
      q.plan = ReadPlan(s["plan"], PointerAppend(p, "plan"), scenario_dir, sink, &in_use);
      if (q.plan) {
        std::vector<const PlanNode*> nodes;
        Collect(*q.plan, &nodes);
        for (const PlanNode* n : nodes) in_use.emplace(n->id, n->pointer);
      }
    }
    out->push_back(std::move(q));
  }
}

}  // namespace aqesim
