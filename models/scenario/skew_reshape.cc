#include "models/scenario/skew_reshape.h"

#include <algorithm>
#include <cmath>
#include <variant>
#include <vector>

#include "models/plan/plan.h"
#include "models/scenario/data_scale.h"

namespace aqesim {

namespace {

// Per-column factors target_j ÷ c_j for column totals `c` (0 for an empty column).
std::vector<double> ColumnFactors(const std::vector<int64_t>& c, double gamma) {
  double total = 0, weights = 0;
  for (int64_t x : c) {
    total += static_cast<double>(x);
    if (x > 0) weights += std::pow(static_cast<double>(x), gamma);
  }
  std::vector<double> f(c.size(), 0);
  if (!(weights > 0) || !std::isfinite(weights)) return std::vector<double>(c.size(), 1.0);
  for (size_t j = 0; j < c.size(); ++j)
    if (c[j] > 0)
      f[j] = total * std::pow(static_cast<double>(c[j]), gamma) / weights / static_cast<double>(c[j]);
  return f;
}

void ReshapeSizes(SizesSpec* spec, double gamma) {
  if (auto* m = std::get_if<SizeMatrix>(&spec->form)) {
    std::vector<int64_t> columns(static_cast<size_t>(m->num_reducers()), 0);
    for (int map = 0; map < m->num_maps(); ++map) {
      const auto row = m->row(map);
      for (int r = 0; r < m->num_reducers(); ++r)
        columns[static_cast<size_t>(r)] += row[static_cast<size_t>(r)];
    }
    const std::vector<double> f = ColumnFactors(columns, gamma);
    for (int map = 0; map < m->num_maps(); ++map) {
      auto row = m->mutable_row(map);
      for (int r = 0; r < m->num_reducers(); ++r)
        row[static_cast<size_t>(r)] = ScaleCount(row[static_cast<size_t>(r)], f[static_cast<size_t>(r)]);
    }
  } else if (auto* marginals = std::get_if<MarginalsSizes>(&spec->form)) {
    std::vector<int64_t>& p = marginals->partition_bytes;
    const std::vector<double> f = ColumnFactors(p, gamma);
    int64_t before = 0, after = 0;
    for (size_t j = 0; j < p.size(); ++j) {
      before += p[j];
      p[j] = ScaleCount(p[j], f[j]);
      after += p[j];
    }
    if (after != before && !p.empty()) {  // the largest entry absorbs the rounding
      auto largest = std::max_element(p.begin(), p.end());
      *largest = std::max<int64_t>(0, *largest + (before - after));
    }
  } else if (auto* g = std::get_if<GenerateSizes>(&spec->form)) {
    if (g->distribution == GenerateSizes::Distribution::kZipf) g->exponent *= gamma;
    for (double& w : g->column_weights) w = w > 0 ? std::pow(w, gamma) : 0;
  }
}

void ReshapeNode(PlanNode* node, double gamma) {
  if (node->sizes) ReshapeSizes(&*node->sizes, gamma);
  for (auto& child : node->children) ReshapeNode(child.get(), gamma);
}

}  // namespace

void ReshapeSkew(double gamma, Scenario* scenario) {
  if (gamma == 1 || !scenario->plan) return;
  ReshapeNode(scenario->plan.get(), gamma);
  for (Subquery& q : scenario->subqueries)
    if (q.plan) ReshapeNode(q.plan.get(), gamma);
}

}  // namespace aqesim
