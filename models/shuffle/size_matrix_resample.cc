#include "models/shuffle/size_matrix_resample.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace aqesim {

namespace {

/// Splits `total` into `n` integer parts proportional to `weights` (largest remainder), so the
/// parts add up to `total` exactly.
std::vector<int64_t> Apportion(int64_t total, const std::vector<double>& weights) {
  const size_t n = weights.size();
  std::vector<int64_t> out(n, 0);
  double wsum = 0;
  for (double w : weights) wsum += w;
  if (n == 0 || total == 0) return out;
  if (wsum <= 0) {
    out[0] = total;
    return out;
  }
  std::vector<std::pair<double, size_t>> rema;
  int64_t assigned = 0;
  for (size_t i = 0; i < n; ++i) {
    const long double exact = static_cast<long double>(total) * weights[i] / wsum;
    out[i] = static_cast<int64_t>(std::floor(exact));
    assigned += out[i];
    rema.push_back({static_cast<double>(exact - std::floor(exact)), i});
  }
  std::stable_sort(rema.begin(), rema.end(), [](auto& a, auto& b) { return a.first > b.first; });
  for (size_t k = 0; assigned < total && k < rema.size(); ++k, ++assigned) out[rema[k].second] += 1;
  return out;
}

}  // namespace

SizeMatrix ResampleReducers(const SizeMatrix& m, int new_reducers) {
  const int old_r = m.num_reducers();
  SizeMatrix out(m.num_maps(), new_reducers);
  for (int map = 0; map < m.num_maps(); ++map) {
    auto src = m.row(map);
    auto dst = out.mutable_row(map);
    if (old_r % new_reducers == 0) {
      for (int r = 0; r < old_r; ++r) dst[r % new_reducers] += src[r];
      continue;
    }
    for (int r = 0; r < old_r; ++r) {
      if (src[r] == 0) continue;
      // New reducers overlapping [r/old, (r+1)/old).
      const int first = static_cast<int>(static_cast<int64_t>(r) * new_reducers / old_r);
      const int last = static_cast<int>((static_cast<int64_t>(r + 1) * new_reducers - 1) / old_r);
      std::vector<double> w;
      for (int q = first; q <= last; ++q) {
        const double lo = std::max(static_cast<double>(r) / old_r, static_cast<double>(q) / new_reducers);
        const double hi =
            std::min(static_cast<double>(r + 1) / old_r, static_cast<double>(q + 1) / new_reducers);
        w.push_back(std::max(0.0, hi - lo));
      }
      auto parts = Apportion(src[r], w);
      for (int q = first; q <= last; ++q) dst[q] += parts[q - first];
    }
  }
  return out;
}

SizeMatrix ResampleMaps(const SizeMatrix& m, int new_maps) {
  SizeMatrix t(m.num_reducers(), m.num_maps());  // transpose, resample "reducers", transpose back
  for (int a = 0; a < m.num_maps(); ++a)
    for (int r = 0; r < m.num_reducers(); ++r) t.at(r, a) = m.at(a, r);
  SizeMatrix rt = ResampleReducers(t, new_maps);
  SizeMatrix out(new_maps, m.num_reducers());
  for (int r = 0; r < m.num_reducers(); ++r)
    for (int a = 0; a < new_maps; ++a) out.at(a, r) = rt.at(r, a);
  return out;
}

}  // namespace aqesim
