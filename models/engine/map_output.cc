#include "models/engine/map_output.h"

#include <memory>
#include <string>
#include <utility>

#include "models/engine/driver_statistics.h"
#include "models/plan/plan_error.h"
#include "models/shuffle/generators.h"
#include "models/shuffle/size_matrix.h"
#include "sim/units.h"

namespace aqesim {

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
  int last_owner = 0;
  for (int p = 0; !identity && p < planned.num_maps(); ++p) {
    auto& own = owners[p];
    auto row = planned.row(p);
    if (own.empty()) {
      // Nobody read this planned partition (an empty reducer dropped by coalescing): its
      // rows go with the previous task so that bytes are conserved.
      own.push_back({last_owner, 1});
    }
    int64_t wsum = 0;
    for (auto& o : own) wsum += o.second;
    if (own.size() == 1 || wsum <= 0) {
      auto dst = actual.mutable_row(own[0].first);
      for (int r = 0; r < reducers; ++r) dst[r] += row[r];
    } else {
      // Cumulative rounding: every cell is split exactly.
      int64_t cum = 0;
      std::vector<int64_t> prev(reducers, 0);
      for (auto& [t, w] : own) {
        cum += w;
        auto dst = actual.mutable_row(t);
        for (int r = 0; r < reducers; ++r) {
          const int64_t upto = static_cast<int64_t>(static_cast<Int128>(row[r]) * cum / wsum);
          dst[r] += upto - prev[r];
          prev[r] = upto;
        }
      }
    }
    last_owner = own.back().first;
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
