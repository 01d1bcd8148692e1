#include "tools/validate/nnls.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace aqesim::validate {
namespace {

/// Least squares on the columns in `passive` (others 0), by Cholesky-free Gaussian
/// elimination with partial pivoting on the normal equations of the scaled columns.
std::vector<double> SolvePassive(const std::vector<std::vector<double>>& a, const std::vector<double>& b,
                                 const std::vector<bool>& passive, const std::vector<double>& scale) {
  const size_t n = passive.size();
  std::vector<size_t> cols;
  for (size_t j = 0; j < n; ++j) {
    if (passive[j]) cols.push_back(j);
  }
  const size_t k = cols.size();
  std::vector<std::vector<double>> m(k, std::vector<double>(k + 1, 0.0));
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t p = 0; p < k; ++p) {
      const double ap = a[i][cols[p]] * scale[cols[p]];
      if (ap == 0) continue;
      for (size_t q = 0; q < k; ++q) m[p][q] += ap * a[i][cols[q]] * scale[cols[q]];
      m[p][k] += ap * b[i];
    }
  }
  // Tiny ridge keeps collinear columns solvable (they share the weight).
  for (size_t p = 0; p < k; ++p) m[p][p] += 1e-12 * (1.0 + m[p][p]);
  for (size_t p = 0; p < k; ++p) {
    size_t piv = p;
    for (size_t r = p + 1; r < k; ++r) {
      if (std::abs(m[r][p]) > std::abs(m[piv][p])) piv = r;
    }
    std::swap(m[p], m[piv]);
    if (m[p][p] == 0) continue;
    for (size_t r = 0; r < k; ++r) {
      if (r == p || m[r][p] == 0) continue;
      const double f = m[r][p] / m[p][p];
      for (size_t c = p; c <= k; ++c) m[r][c] -= f * m[p][c];
    }
  }
  std::vector<double> x(n, 0.0);
  for (size_t p = 0; p < k; ++p) x[cols[p]] = m[p][p] == 0 ? 0.0 : m[p][k] / m[p][p] * scale[cols[p]];
  return x;
}

}  // namespace

std::vector<double> NonNegativeLeastSquares(const std::vector<std::vector<double>>& a,
                                            const std::vector<double>& b) {
  if (a.empty() || a.size() != b.size()) return {};
  const size_t n = a[0].size();
  for (const auto& row : a) {
    if (row.size() != n) return {};
  }
  // Column scaling: features differ by 1e9 (bytes vs counts).
  std::vector<double> scale(n, 1.0);
  for (size_t j = 0; j < n; ++j) {
    double s = 0;
    for (const auto& row : a) s += row[j] * row[j];
    scale[j] = s > 0 ? 1.0 / std::sqrt(s) : 0.0;
  }
  std::vector<double> x(n, 0.0);
  std::vector<bool> passive(n, false);
  auto gradient = [&](const std::vector<double>& xv) {
    std::vector<double> w(n, 0.0);
    for (size_t i = 0; i < a.size(); ++i) {
      double r = b[i];
      for (size_t j = 0; j < n; ++j) r -= a[i][j] * xv[j];
      for (size_t j = 0; j < n; ++j) w[j] += a[i][j] * r;
    }
    return w;
  };
  const double tol = 1e-10;
  for (int outer = 0; outer < static_cast<int>(3 * n + 10); ++outer) {
    const std::vector<double> w = gradient(x);
    size_t best = n;
    double best_w = 0;
    for (size_t j = 0; j < n; ++j) {
      const double wj = w[j] * scale[j];  // gradient in scaled coordinates
      if (!passive[j] && scale[j] > 0 && wj > tol && wj > best_w) {
        best_w = wj;
        best = j;
      }
    }
    if (best == n) break;
    passive[best] = true;
    for (int inner = 0; inner < static_cast<int>(3 * n + 10); ++inner) {
      std::vector<double> z = SolvePassive(a, b, passive, scale);
      bool feasible = true;
      for (size_t j = 0; j < n; ++j) {
        if (passive[j] && z[j] <= 0) feasible = false;
      }
      if (feasible) {
        x = std::move(z);
        break;
      }
      // Step from x towards z until the first passive variable hits zero.
      double alpha = std::numeric_limits<double>::infinity();
      for (size_t j = 0; j < n; ++j) {
        if (passive[j] && z[j] <= 0) alpha = std::min(alpha, x[j] / (x[j] - z[j]));
      }
      if (!std::isfinite(alpha)) alpha = 0;
      for (size_t j = 0; j < n; ++j) {
        x[j] += alpha * (z[j] - x[j]);
        if (passive[j] && x[j] <= 1e-15 * (1 + std::abs(z[j]))) {
          passive[j] = false;
          x[j] = 0;
        }
      }
    }
  }
  for (double& v : x) v = std::max(v, 0.0);
  return x;
}

}  // namespace aqesim::validate
