#include "models/aqe/rules/las_skew_joins_under_union.h"

#include <set>

namespace aqesim {

std::string UnionBranchOf(const ExecNode& join) {
  const ExecNode* cur = &join;
  for (const ExecNode* p = join.parent; p && !p->is_exchange(); cur = p, p = p->parent) {
    if (p->op != PlanOp::kUnion) continue;
    for (size_t i = 0; i < p->children.size(); ++i)
      if (p->children[i].get() == cur) return p->id + "#" + std::to_string(i);
  }
  return "";
}

std::vector<ExecNode*> WithdrawnWithUnionBranches(const std::vector<ExecNode*>& rewritten,
                                                  const std::vector<ExecNode*>& broken) {
  std::set<std::string> branches;
  for (const ExecNode* j : broken) branches.insert(UnionBranchOf(*j));
  std::vector<ExecNode*> out;
  for (ExecNode* j : rewritten)
    if (branches.count(UnionBranchOf(*j))) out.push_back(j);
  return out;
}

}  // namespace aqesim
