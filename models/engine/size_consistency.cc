#include "models/engine/size_consistency.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "models/aqe/decision.h"  // FormatBytes
#include "models/plan/planned_properties.h"

namespace aqesim {

namespace {

/// What a stage reads: its scans and the exchanges below it.
struct StageInputs {
  double bytes = 0;
  std::optional<double> rows = 0.0;   // nullopt once an input has no `rows`
  std::vector<std::string> pointers;  // where each input's bytes are given
};

void CollectInputs(const ExecNode& n, StageInputs* in) {
  if (n.op == PlanOp::kScan || n.is_exchange()) {
    in->bytes += static_cast<double>(DataBytes(n));
    if (n.source && n.source->rows && in->rows) {
      *in->rows += static_cast<double>(*n.source->rows);
    } else {
      in->rows.reset();
    }
    if (n.source) {
      const bool given = n.op == PlanOp::kScan || n.source->sizes.has_value();
      in->pointers.push_back(n.source->pointer + (n.op == PlanOp::kScan ? "/bytes" : given ? "/sizes" : ""));
    }
    return;
  }
  for (const auto& c : n.children) CollectInputs(*c, in);
}

std::string Ratio(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", r);
  return buf;
}

std::string Named(const StageInputs& in) {
  if (in.pointers.empty()) return "";
  std::string s = in.pointers.front();
  if (in.pointers.size() > 1) s += " and " + std::to_string(in.pointers.size() - 1) + " more";
  return s;
}

}  // namespace

std::optional<std::string> SizeConsistencyWarning(const ExecNode& exchange, int64_t written_bytes) {
  if (!exchange.source || !exchange.source->sizes || exchange.children.empty()) return std::nullopt;
  const ExecNode& child = exchange.child(0);
  const std::string at = exchange.source->pointer + "/sizes";
  const double written = static_cast<double>(written_bytes);

  StageInputs in;
  CollectInputs(child, &in);
  // The rows' own growth, when the output's and every input's rows are given.
  std::optional<int64_t> out_rows = exchange.source->rows;
  if (!out_rows && child.source) out_rows = child.source->rows;
  double row_growth = 1.0;
  if (out_rows && in.rows && *in.rows > 0) row_growth = static_cast<double>(*out_rows) / *in.rows;
  if (in.bytes > 0 && written > kMaxUnexplainedGrowth * in.bytes * std::max(1.0, row_growth)) {
    std::string why = row_growth > 1.0 ? "its rows grow only " + Ratio(row_growth) + "×"
                                       : "no row ratio says the data grows";
    return at + ": the shuffle writes " + FormatBytes(written_bytes) + ", " + Ratio(written / in.bytes) +
           "× what its stage reads (" + FormatBytes(static_cast<int64_t>(in.bytes)) + " at " + Named(in) +
           "), and " + why + "; check the sizes, or give `rows` on the exchange and its inputs";
  }

  const double planned = static_cast<double>(DataBytes(child));
  if (planned <= 0 || written <= 0) return std::nullopt;
  // Less than the plan lets through is what shuffles usually write (pruned columns, partial
  // aggregates, compression); more needs a reason.
  const double excess = written / planned;
  if (excess <= kMaxPlanDisagreement) return std::nullopt;
  // Rows given at both ends explain sizes that follow them (bytes per row kept).
  if (row_growth > 1.0 && in.bytes > 0 && written <= kMaxPlanDisagreement * in.bytes * row_growth)
    return std::nullopt;
  const std::string plan_at = child.source ? child.source->pointer : Named(in);
  return at + ": the sizes total " + FormatBytes(written_bytes) + ", " + Ratio(excess) +
         "× the plan's bytes at " + plan_at + " (" + FormatBytes(static_cast<int64_t>(planned)) +
         ": its inputs × the selectivities above them); tasks read the sizes: set the selectivities or the "
         "sizes so they agree";
}

}  // namespace aqesim
