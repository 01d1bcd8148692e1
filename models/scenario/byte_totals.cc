#include "models/scenario/byte_totals.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <variant>
#include <vector>

namespace aqesim {
namespace {

// 2^63: byte counts are int64 (Spark's long). long double is exact for every int64 value
// and has room above, so sums and products are computed without wrapping.
constexpr long double kLimit = 9223372036854775808.0L;

std::string About(long double bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3Le", bytes);
  return buf;
}

long double SizesTotal(const SizesSpec& spec) {
  if (const auto* m = std::get_if<SizeMatrix>(&spec.form)) {
    long double total = 0;
    for (int i = 0; i < m->num_maps(); ++i)
      for (int64_t v : m->row(i)) total += static_cast<long double>(v);
    return total;
  }
  if (const auto* mg = std::get_if<MarginalsSizes>(&spec.form)) {
    long double total = 0;
    for (int64_t v : mg->map_bytes) total += static_cast<long double>(v);
    return total;
  }
  const auto& g = std::get<GenerateSizes>(spec.form);
  long double total = 0;
  if (g.map_bytes) {
    for (int64_t v : *g.map_bytes) total += static_cast<long double>(v);
  } else if (g.total_bytes) {
    total = static_cast<long double>(*g.total_bytes);
  }
  return total;
}

class TotalsChecker {
 public:
  explicit TotalsChecker(DiagnosticSink* sink) : sink_(sink) {}

  // The node's estimated output bytes (exact), or a negative value after reporting.
  long double Estimate(const PlanNode& n) {
    std::vector<long double> in;
    for (const auto& c : n.children) {
      const long double e = Estimate(*c);
      if (e < 0) return -1;
      in.push_back(e);
    }
    long double est = 0;
    const char* how = "";
    switch (n.op) {
      case PlanOp::kScan:
        est = static_cast<long double>(n.scan_bytes);
        break;
      case PlanOp::kExchange:
      case PlanOp::kSort:
        est = in.empty() ? 0 : in[0];
        break;
      case PlanOp::kJoin:
        est = (in.size() == 2 ? in[0] + in[1] : 0) * static_cast<long double>(n.selectivity);
        how = " ((left + right) x selectivity)";
        break;
      case PlanOp::kUnion:
        est = std::accumulate(in.begin(), in.end(), 0.0L);
        how = " (the sum of its children)";
        break;
      default:
        est = (in.empty() ? 0 : in[0]) * static_cast<long double>(n.selectivity);
        how = " (child x selectivity)";
    }
    if (n.estimated_bytes) est = static_cast<long double>(*n.estimated_bytes);
    if (!(est < kLimit)) {
      sink_->Error(
          n.pointer.empty() ? "/plan" : n.pointer,
          "expected an estimated output below 2^63 bytes, found about " + About(est) + " bytes" + how);
      return -1;
    }
    if (n.op == PlanOp::kExchange && n.reported_size_ratio != 1.0) {
      // What the driver adds up (MapStatus sizes) must fit too.
      const long double reported = std::max(est, n.sizes ? SizesTotal(*n.sizes) : 0.0L) *
                                   static_cast<long double>(n.reported_size_ratio);
      if (!(reported < kLimit)) {
        sink_->Error(
            n.pointer + "/reportedSizeRatio",
            "expected the shuffle's reported sizes (bytes x reportedSizeRatio) to total below 2^63 bytes, "
            "found about " +
                About(reported) + " bytes");
        return -1;
      }
    }
    plan_total_ += est;
    if (n.sizes) plan_total_ += SizesTotal(*n.sizes);
    if (n.data_size_bytes) plan_total_ += static_cast<long double>(*n.data_size_bytes);
    return est;
  }

  long double plan_total() const { return plan_total_; }

 private:
  DiagnosticSink* sink_;
  long double plan_total_ = 0;
};

}  // namespace

void CheckPlanByteTotals(const PlanNode& root, DiagnosticSink* sink) {
  TotalsChecker checker(sink);
  if (checker.Estimate(root) < 0) return;
  if (!(checker.plan_total() < kLimit))
    sink->Error(
        root.pointer.empty() ? "/plan" : root.pointer,
        "expected the plan's byte counts (estimated outputs, shuffle sizes) to total below 2^63 bytes, "
        "found about " +
            About(checker.plan_total()) + " bytes");
}

}  // namespace aqesim
