#include "models/engine/map_output.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "models/engine/driver_statistics.h"
#include "models/plan/plan_error.h"
#include "models/shuffle/generators.h"
#include "models/shuffle/size_matrix.h"
#include "sim/floor_fraction.h"
#include "sim/units.h"

namespace aqesim {

namespace {

/// Splits the `n` cells of a planned row between its owners (task t, weight), adding to the `n`
/// cells at dst + t × stride, in proportion to
/// the weights, by cumulative rounding: owner k gets floor(cell × W_k ÷ W) − floor(cell × W_(k−1)
/// ÷ W) of each cell, W_k the weights up to k's, so every byte is kept. `max_cell` (the row's
/// largest cell, given when cells and weights are >= 0): AddFloorFractionSteps instead of a
/// 128-bit division per cell.
void SplitRow(const int64_t* cells, size_t n, const std::vector<std::pair<int, int64_t>>& own, int64_t wsum,
              std::optional<int64_t> max_cell, int64_t* dst, size_t stride, std::vector<int64_t>* prev) {
  int64_t cum = 0;
  prev->assign(n, 0);
  for (const auto& [t, w] : own) {
    cum += w;
    int64_t* to = dst + static_cast<size_t>(t) * stride;
    if (max_cell) {
      AddFloorFractionSteps(cells, n, cum, wsum, *max_cell, prev->data(), to);
    } else {
      for (size_t r = 0; r < n; ++r) {
        const int64_t upto = static_cast<int64_t>(static_cast<Int128>(cells[r]) * cum / wsum);
        to[r] += upto - (*prev)[r];
        (*prev)[r] = upto;
      }
    }
  }
}

}  // namespace

void ApportionMapOutput(const QueryStage& stage, const std::vector<Shares>& shares) {
  ShuffleData& d = *stage.output->shuffle->data;
  const ShuffleSizes& planned = d.planned;
  const int reducers = d.num_reducers;
  // Owners of each planned row: (task, weight).
  std::vector<std::vector<std::pair<int, int64_t>>> owners(planned.num_maps());
  for (int t = 0; t < stage.num_tasks; ++t)
    for (auto& [p, b] : shares[t])
      if (p >= 0 && p < planned.num_maps()) owners[p].push_back({t, b});
  // Task t wrote exactly planned row t (e.g. scan tasks): `actual` is `planned`; move it
  // instead of copying (planned is not read once its stage has finished).
  bool identity = planned.num_maps() == stage.num_tasks && planned.num_reducers() == reducers;
  for (int p = 0; identity && p < planned.num_maps(); ++p)
    identity = owners[p].size() == 1 && owners[p][0].first == p;
  // Otherwise the rows are apportioned into a dense matrix (a streamed `planned` is read
  // once, in row order).
  if (!identity)
    CheckMaterializable(*stage.output, "apportioning its rows to the map tasks that ran", stage.num_tasks,
                        reducers);
  SizeMatrix actual = identity ? SizeMatrix() : SizeMatrix(stage.num_tasks, reducers);
  // Rows several tasks read for, with bytes and weights >= 0 (always, but for a forged input),
  // of a dense `planned`: split below, a band of reducers at a time.
  std::vector<int> split_rows;
  std::vector<int64_t> weight_sums(identity ? 0 : planned.num_maps(), 0);
  std::vector<int64_t> max_cells(weight_sums.size(), 0);
  std::vector<int64_t> prev;  // SplitRow's scratch
  int last_owner = 0;
  for (int p = 0; !identity && p < planned.num_maps(); ++p) {
    auto& own = owners[p];
    auto row = planned.row(p);
    if (own.empty()) {
      // Nobody read this planned partition (an empty reducer dropped by coalescing): its
      // rows go with the previous task so that bytes are conserved.
      own.push_back({last_owner, 1});
    }
    int64_t& wsum = weight_sums[p];
    for (auto& o : own) wsum += o.second;
    last_owner = own.back().first;
    if (own.size() == 1 || wsum <= 0) {
      auto dst = actual.mutable_row(own[0].first);
      for (int r = 0; r < reducers; ++r) dst[r] += row[r];
      continue;
    }
    const auto [least, most] = std::minmax_element(row.begin(), row.end());
    const bool non_negative =
        (row.empty() || *least >= 0) &&
        std::all_of(own.begin(), own.end(), [](const auto& o) { return o.second >= 0; });
    max_cells[p] = row.empty() ? 0 : *most;
    if (non_negative && !planned.streamed())
      split_rows.push_back(p);
    else
      SplitRow(row.data(), row.size(), own, wsum, non_negative ? std::optional(max_cells[p]) : std::nullopt,
               actual.mutable_row(0).data(), static_cast<size_t>(reducers), &prev);
  }
  // A local shuffle read makes every task an owner of every row: tasks x rows x reducers cells
  // (2000^3 on a 2000-partition join). A band of reducers at a time, added up in a tile of
  // tasks x band (~512 KiB, contiguous: in cache) while every row passes over it, then into
  // `actual`; the sums are the same.
  if (!split_rows.empty()) {
    const size_t tasks = static_cast<size_t>(stage.num_tasks);
    const size_t band = std::clamp<size_t>((size_t{512} << 10) / 8 / std::max<size_t>(1, tasks), 16,
                                           std::max<size_t>(16, static_cast<size_t>(reducers)));
    std::vector<int64_t> tile;
    for (size_t r0 = 0; r0 < static_cast<size_t>(reducers); r0 += band) {
      const size_t width = std::min(static_cast<size_t>(reducers) - r0, band);
      tile.assign(tasks * width, 0);
      for (const int p : split_rows)
        SplitRow(planned.row(p).data() + r0, width, owners[p], weight_sums[p], max_cells[p], tile.data(),
                 width, &prev);
      for (size_t t = 0; t < tasks; ++t) {
        int64_t* to = actual.mutable_row(static_cast<int>(t)).data() + r0;
        for (size_t r = 0; r < width; ++r) to[r] += tile[t * width + r];
      }
    }
  }
  if (identity) {
    d.actual = std::move(d.planned);
    d.planned = ShuffleSizes();
  } else {
    d.actual = std::move(actual);
  }
}

void CheckMaterializable(const ExecNode& n, const char* why, int64_t maps, int64_t reducers) {
  if (maps * reducers <= kMaxSizeMatrixCells) return;
  throw PlanError{n.source ? n.source->pointer : "/plan",
                  n.id + ": " + why + " would materialise " + std::to_string(maps) + " x " +
                      std::to_string(reducers) + " cells; expected at most " +
                      std::to_string(kMaxSizeMatrixCells) +
                      " (map tasks x partitions) for a shuffle held densely"};
}

MapStatusConfig MapStatusConfigOf(const SqlConf& c) {
  MapStatusConfig m;
  m.min_num_partitions_to_highly_compress = c.min_num_partitions_to_highly_compress;
  m.accurate_block_threshold_bytes = c.accurate_block_threshold_bytes;
  m.accurate_block_skewed_factor = c.accurate_block_skewed_factor;
  m.max_accurate_skewed_block_number = c.max_accurate_skewed_block_number;
  return m;
}

double FinishMapStage(const QueryStage& st, const std::vector<Shares>& shares, std::vector<TaskResult>* tasks,
                      const SqlConf& conf, MapStatusMode mode, double seconds_per_block) {
  ApportionMapOutput(st, shares);
  ShuffleData& d = *st.output->shuffle->data;
  const std::vector<int64_t>& written = d.actual.MapBytes();
  for (int t = 0; t < st.num_tasks; ++t) (*tasks)[static_cast<size_t>(t)].shuffle_write_bytes = written[t];
  if (!conf.adaptive_enabled) return 0;
  return CollectDriverStatistics(*st.output, conf, mode) * seconds_per_block;
}

}  // namespace aqesim
