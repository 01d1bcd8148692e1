#include "models/shuffle/size_matrix_resample.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>
#include <vector>

namespace aqesim {

namespace {

/// Adds `total` split into parts proportional to `weights` (largest remainder, ties to the
/// first) to out[0..n), so the parts add up to `total` exactly. `wsum` is the weights' sum;
/// `rema` is scratch space (no allocation per cell: a matrix has up to 2 x 10^8 of them).
void Apportion(int64_t total, std::span<const double> weights, double wsum, int64_t* out,
               std::vector<std::pair<double, size_t>>* rema) {
  const size_t n = weights.size();
  if (n == 0 || total == 0) return;
  if (wsum <= 0) {
    out[0] += total;
    return;
  }
  if (n == 1) {  // the one part is the total (exact = total * w / w)
    out[0] += total;
    return;
  }
  rema->clear();
  int64_t assigned = 0;
  for (size_t i = 0; i < n; ++i) {
    const long double exact = static_cast<long double>(total) * weights[i] / wsum;
    const int64_t part = static_cast<int64_t>(std::floor(exact));
    out[i] += part;
    assigned += part;
    rema->push_back({static_cast<double>(exact - std::floor(exact)), i});
  }
  std::stable_sort(rema->begin(), rema->end(), [](auto& a, auto& b) { return a.first > b.first; });
  for (size_t k = 0; assigned < total && k < rema->size(); ++k, ++assigned) out[(*rema)[k].second] += 1;
}

}  // namespace

SizeMatrix ResampleReducers(const SizeMatrix& m, int new_reducers) {
  const int old_r = m.num_reducers();
  SizeMatrix out(m.num_maps(), new_reducers);
  if (old_r % new_reducers == 0) {
    for (int map = 0; map < m.num_maps(); ++map) {
      auto src = m.row(map);
      auto dst = out.mutable_row(map);
      for (int r = 0; r < old_r; ++r) dst[r % new_reducers] += src[r];
    }
    return out;
  }
  // The new reducers overlapping old reducer r's [r/old, (r+1)/old), and the overlaps, depend
  // on r only: computed once, not once per cell.
  std::vector<int> first(static_cast<size_t>(old_r));
  std::vector<size_t> offset(static_cast<size_t>(old_r) + 1, 0);
  std::vector<double> weights, sums(static_cast<size_t>(old_r), 0.0);
  for (int r = 0; r < old_r; ++r) {
    first[r] = static_cast<int>(static_cast<int64_t>(r) * new_reducers / old_r);
    const int last = static_cast<int>((static_cast<int64_t>(r + 1) * new_reducers - 1) / old_r);
    offset[r] = weights.size();
    for (int q = first[r]; q <= last; ++q) {
      const double lo = std::max(static_cast<double>(r) / old_r, static_cast<double>(q) / new_reducers);
      const double hi =
          std::min(static_cast<double>(r + 1) / old_r, static_cast<double>(q + 1) / new_reducers);
      weights.push_back(std::max(0.0, hi - lo));
      sums[r] += weights.back();
    }
  }
  offset[old_r] = weights.size();
  std::vector<std::pair<double, size_t>> rema;
  for (int map = 0; map < m.num_maps(); ++map) {
    auto src = m.row(map);
    auto dst = out.mutable_row(map);
    for (int r = 0; r < old_r; ++r) {
      if (src[r] == 0) continue;
      const std::span<const double> w(weights.data() + offset[r], offset[r + 1] - offset[r]);
      Apportion(src[r], w, sums[r], dst.data() + first[r], &rema);
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
