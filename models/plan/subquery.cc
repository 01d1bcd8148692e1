#include "models/plan/subquery.h"

#include <array>
#include <utility>

namespace aqesim {

namespace {

constexpr std::array<std::pair<SubqueryKind, std::string_view>, 4> kKinds = {{
    {SubqueryKind::kScalar, "scalar"},
    {SubqueryKind::kInSubquery, "inSubquery"},
    {SubqueryKind::kBloomFilter, "bloomFilter"},
    {SubqueryKind::kDynamicPruning, "dynamicPruning"},
}};

}  // namespace

std::string_view SubqueryKindName(SubqueryKind k) {
  for (const auto& [kind, name] : kKinds)
    if (kind == k) return name;
  return "scalar";
}

std::optional<SubqueryKind> ParseSubqueryKind(std::string_view s) {
  for (const auto& [kind, name] : kKinds)
    if (name == s) return kind;
  return std::nullopt;
}

std::vector<Subquery> CloneSubqueries(const std::vector<Subquery>& subqueries) {
  std::vector<Subquery> out;
  for (const Subquery& s : subqueries) {
    Subquery c;
    c.id = s.id;
    c.pointer = s.pointer;
    c.kind = s.kind;
    c.gates = s.gates;
    if (s.plan) c.plan = ClonePlan(*s.plan);
    c.reuses_broadcast = s.reuses_broadcast;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace aqesim
