#include "models/scenario/records_reader.h"

#include <cstdint>
#include <string>
#include <vector>

namespace aqesim {

void ReadRowsByPartition(const Json& v, PlanNode* exchange, DiagnosticSink* sink) {
  const std::string p = PointerAppend(exchange->pointer, "rowsByPartition");
  if (!v.is_array() || v.empty() || v.size() > kMaxRowsByPartitionEntries) {
    sink->Error(p, "expected a non-empty array of record counts, one per reducer (at most " +
                       std::to_string(kMaxRowsByPartitionEntries) + "), found " + DescribeJson(v));
    return;
  }
  std::vector<int64_t> out;
  out.reserve(v.size());
  bool ok = true;
  int64_t sum = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const auto n = ReadInteger(v[i], PointerAppend(p, i), 0, INT64_MAX, "a non-negative integer", sink);
    if (!n) {
      ok = false;
      continue;
    }
    if (__builtin_add_overflow(sum, *n, &sum)) {
      sink->Error(p, "expected record counts whose sum fits in 63 bits, found a larger sum");
      return;
    }
    out.push_back(*n);
  }
  if (!ok) return;
  if (exchange->rows && *exchange->rows != sum) {
    sink->Error(p, "expected record counts summing to the exchange's rows (" +
                       std::to_string(*exchange->rows) + "), found a sum of " + std::to_string(sum));
    return;
  }
  exchange->rows_by_partition = std::move(out);
}

}  // namespace aqesim
