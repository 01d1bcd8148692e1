#include "tools/eventlog/collect_limit_import.h"

#include <cctype>
#include <string>

namespace aqesim::eventlog {

std::optional<RecordedCollectLimit> FindCollectLimit(const SqlPlanNode& root) {
  const SqlPlanNode* n = &root;
  for (int hops = 0; hops < 4; ++hops) {
    const std::string base = BaseNodeName(n->node_name);
    const auto kids = MainChildren(*n);
    if (base == "CollectLimit") {
      if (kids.size() != 1) return std::nullopt;
      // "CollectLimit 21"; Spark 3.4+ prints "CollectLimit 21, 5" with an offset.
      const std::string s = n->simple_string;
      size_t i = s.find(' ');
      if (i == std::string::npos) return std::nullopt;
      ++i;
      size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
      if (j == i || j - i > 9 || (j < s.size() && s[j] != ' ')) return std::nullopt;
      return RecordedCollectLimit{n, kids[0], std::stoll(s.substr(i, j - i))};
    }
    if ((base != "AdaptiveSparkPlan" && base != "ResultQueryStage") || kids.size() != 1) return std::nullopt;
    n = kids[0];
  }
  return std::nullopt;
}

std::optional<int64_t> CompleteChildRows(int64_t limit, std::optional<int64_t> recorded_rows) {
  if (!recorded_rows || *recorded_rows < 0 || *recorded_rows >= limit) return std::nullopt;
  return recorded_rows;
}

const SqlPlanNode* RowsNode(const SqlPlanNode& n) {
  const SqlPlanNode* p = &n;
  while (true) {
    if (p->MetricId("number of output rows")) return p;
    const auto kids = MainChildren(*p);
    const std::string base = BaseNodeName(p->node_name);
    if (kids.size() != 1 || base == "Exchange" || base == "ReusedExchange") return nullptr;
    p = kids[0];
  }
}

}  // namespace aqesim::eventlog
