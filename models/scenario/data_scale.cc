#include "models/scenario/data_scale.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <variant>

#include "models/plan/plan.h"

namespace aqesim {

namespace {

constexpr int64_t kMaxScaledCount = int64_t{1} << 62;

// Set when a scaled count reached kMaxScaledCount (ScaleData reports it).
thread_local bool capped = false;

int64_t Scaled(int64_t count, double factor) {
  const int64_t out = ScaleCount(count, factor);
  capped |= out >= kMaxScaledCount;
  return out;
}

void ScaleAll(std::vector<int64_t>* counts, double factor) {
  for (int64_t& c : *counts) c = Scaled(c, factor);
}

// Saturating at kMaxScaledCount (each term is at most that, so the sum cannot wrap first).
int64_t Sum(const std::vector<int64_t>& v) {
  int64_t total = 0;
  for (int64_t x : v) {
    capped |= x >= kMaxScaledCount - total;
    total = x >= kMaxScaledCount - total ? kMaxScaledCount : total + x;
  }
  return total;
}

void ScaleSizes(SizesSpec* spec, double factor) {
  if (auto* m = std::get_if<SizeMatrix>(&spec->form)) {
    int64_t total = 0;  // the exchange's bytes must stay countable too
    for (int map = 0; map < m->num_maps(); ++map) {
      for (int64_t& cell : m->mutable_row(map)) {
        cell = Scaled(cell, factor);
        capped |= cell >= kMaxScaledCount - total;
        total = cell >= kMaxScaledCount - total ? kMaxScaledCount : total + cell;
      }
    }
  } else if (auto* marginals = std::get_if<MarginalsSizes>(&spec->form)) {
    ScaleAll(&marginals->map_bytes, factor);
    ScaleAll(&marginals->partition_bytes, factor);
    Sum(marginals->map_bytes);  // flags a total past the cap
    // One total for both margins: the largest map entry absorbs the rounding difference.
    const int64_t diff = Sum(marginals->partition_bytes) - Sum(marginals->map_bytes);
    if (diff != 0 && !marginals->map_bytes.empty()) {
      auto largest = std::max_element(marginals->map_bytes.begin(), marginals->map_bytes.end());
      *largest = std::max<int64_t>(0, *largest + diff);
    }
  } else if (auto* g = std::get_if<GenerateSizes>(&spec->form)) {
    if (g->total_bytes) g->total_bytes = Scaled(*g->total_bytes, factor);
    if (g->map_bytes) ScaleAll(&*g->map_bytes, factor);
  }
}

void ScaleNode(PlanNode* node, double factor) {
  if (node->rows) node->rows = Scaled(*node->rows, factor);
  if (!node->rows_by_partition.empty()) {  // an exchange's records per reducer: `rows` stays their sum
    ScaleAll(&node->rows_by_partition, factor);
    if (node->rows) node->rows = Sum(node->rows_by_partition);
  }
  if (node->estimated_bytes) node->estimated_bytes = Scaled(*node->estimated_bytes, factor);
  if (node->op == PlanOp::kScan) {
    if (!node->task_bytes.empty()) {
      ScaleAll(&node->task_bytes, factor);
      node->scan_bytes = Sum(node->task_bytes);
    } else {
      node->scan_bytes = Scaled(node->scan_bytes, factor);
    }
    if (node->bucketing && !node->bucketing->bucket_bytes.empty())
      ScaleAll(&node->bucketing->bucket_bytes, factor);
  }
  if (node->sizes) ScaleSizes(&*node->sizes, factor);
  if (node->data_size_bytes) node->data_size_bytes = Scaled(*node->data_size_bytes, factor);
  for (auto& child : node->children) ScaleNode(child.get(), factor);
}

}  // namespace

int64_t ScaleCount(int64_t count, double factor) {
  if (count <= 0) return count;
  const double scaled = std::round(static_cast<double>(count) * factor);  // half away from zero
  if (!(scaled < static_cast<double>(kMaxScaledCount))) return kMaxScaledCount;
  return std::max<int64_t>(1, static_cast<int64_t>(scaled));
}

bool ScaleData(double factor, Scenario* scenario) {
  if (factor == 1) return true;
  capped = false;
  if (scenario->plan) ScaleNode(scenario->plan.get(), factor);
  for (Subquery& q : scenario->subqueries)
    if (q.plan) ScaleNode(q.plan.get(), factor);
  if (scenario->collect_limit && scenario->collect_limit->rows)
    scenario->collect_limit->rows = ScaleCount(*scenario->collect_limit->rows, factor);
  return !capped;
}

}  // namespace aqesim
