#include "models/shuffle/sizes_spec.h"

#include <algorithm>
#include <numeric>

#include "models/shuffle/generators.h"

namespace aqesim {

SizeMatrix FitMarginals(const std::vector<int64_t>& map_bytes, const std::vector<int64_t>& partition_bytes) {
  const int num_maps = static_cast<int>(map_bytes.size());
  const int num_reducers = static_cast<int>(partition_bytes.size());
  SizeMatrix m(num_maps, num_reducers);
  if (num_maps == 0 || num_reducers == 0) return m;
  const int64_t row_total = std::accumulate(map_bytes.begin(), map_bytes.end(), int64_t{0});
  std::vector<int64_t> col_target = partition_bytes;
  const int64_t col_total = std::accumulate(col_target.begin(), col_target.end(), int64_t{0});
  if (col_total != row_total) {
    // Precondition broken (the loader checks it): rescale the columns to the row total.
    std::vector<double> w(col_target.begin(), col_target.end());
    col_target = SplitByLargestRemainder(row_total, w);
  }
  if (row_total == 0) return m;

  // IPF started from a matrix of ones converges in one sweep to the outer product
  // a_i * b_j / T, which meets both margins in real numbers. Integerise row by row with
  // the largest-remainder method (rows exact), rotating ties so the odd bytes spread.
  std::vector<double> col_weights(col_target.begin(), col_target.end());
  std::vector<int64_t> col_sum(num_reducers, 0);
  for (int i = 0; i < num_maps; ++i) {
    const std::vector<int64_t> row =
        SplitByLargestRemainder(map_bytes[i], col_weights, static_cast<size_t>(i) % num_reducers);
    auto dst = m.mutable_row(i);
    for (int j = 0; j < num_reducers; ++j) {
      dst[j] = row[j];
      col_sum[j] += row[j];
    }
  }
  // Transport-style correction: move bytes within a row from a column that has too many to
  // one that has too few. Row sums never change, cells stay >= 0, and each step closes at
  // least one column's gap, so both margins end exact. A column with a surplus always has
  // a positive cell to take from.
  std::vector<int> surplus, deficit;
  for (int j = 0; j < num_reducers; ++j) {
    if (col_sum[j] > col_target[j]) surplus.push_back(j);
    if (col_sum[j] < col_target[j]) deficit.push_back(j);
  }
  size_t si = 0, di = 0;
  int row_cursor = 0;
  while (si < surplus.size() && di < deficit.size()) {
    const int from = surplus[si], to = deficit[di];
    const int64_t need = std::min(col_sum[from] - col_target[from], col_target[to] - col_sum[to]);
    int64_t moved = 0;
    for (int scanned = 0; scanned < num_maps && moved < need; ++scanned) {
      const int i = (row_cursor + scanned) % num_maps;
      const int64_t take = std::min(need - moved, m.at(i, from));
      if (take <= 0) continue;
      m.at(i, from) -= take;
      m.at(i, to) += take;
      moved += take;
    }
    row_cursor = (row_cursor + 1) % num_maps;
    col_sum[from] -= moved;
    col_sum[to] += moved;
    if (col_sum[from] == col_target[from]) ++si;
    if (col_sum[to] == col_target[to]) ++di;
  }
  return m;
}

SizeMatrix MaterializeSizes(const SizesSpec& spec, const SizesContext& ctx) {
  if (const auto* matrix = std::get_if<SizeMatrix>(&spec.form)) return *matrix;
  if (const auto* marginals = std::get_if<MarginalsSizes>(&spec.form))
    return FitMarginals(marginals->map_bytes, marginals->partition_bytes);
  const auto& g = std::get<GenerateSizes>(spec.form);
  const int map_tasks = g.map_tasks   ? *g.map_tasks
                        : g.map_bytes ? static_cast<int>(g.map_bytes->size())
                                      : ctx.default_map_tasks;
  const int partitions = g.partitions.value_or(ctx.configured_partitions);
  int64_t total = g.total_bytes.value_or(ctx.default_total_bytes);
  if (g.map_bytes) total = std::accumulate(g.map_bytes->begin(), g.map_bytes->end(), int64_t{0});
  return GenerateSizeMatrix(g, map_tasks, partitions, total, g.seed.value_or(ctx.seed));
}

std::optional<int> FixedPartitionCount(const SizesSpec& spec) {
  if (const auto* matrix = std::get_if<SizeMatrix>(&spec.form)) return matrix->num_reducers();
  if (const auto* marginals = std::get_if<MarginalsSizes>(&spec.form))
    return static_cast<int>(marginals->partition_bytes.size());
  return std::get<GenerateSizes>(spec.form).partitions;
}

std::optional<int> FixedMapTaskCount(const SizesSpec& spec) {
  if (const auto* matrix = std::get_if<SizeMatrix>(&spec.form)) return matrix->num_maps();
  if (const auto* marginals = std::get_if<MarginalsSizes>(&spec.form))
    return static_cast<int>(marginals->map_bytes.size());
  const auto& g = std::get<GenerateSizes>(spec.form);
  if (g.map_tasks) return g.map_tasks;
  if (g.map_bytes) return static_cast<int>(g.map_bytes->size());
  return std::nullopt;
}

}  // namespace aqesim
