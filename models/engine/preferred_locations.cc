#include "models/engine/preferred_locations.h"

#include <algorithm>
#include <optional>
#include <span>
#include <variant>

#include "models/plan/join_selection_helper.h"
#include "models/plan/query_stage.h"
#include "models/plan/stage_walk.h"

namespace aqesim {

std::vector<int> PreferredLocations::Of(const ExecNode& n, int task) {
  switch (n.op) {
    case PlanOp::kExchange:
      return OfRead(n, task);
    case PlanOp::kScan:
      return {};
    case PlanOp::kUnion: {
      const std::optional<UnionTask> u = UnionTaskOf(n, task);
      return u ? Of(*n.children[u->child], u->task) : std::vector<int>{};
    }
    case PlanOp::kJoin: {
      const JoinState& j = *n.join;
      if (n.is_broadcast_join()) return Of(StreamedChild(n), task);
      std::vector<int> l, r;
      if (j.strategy == JoinStrategy::kCartesianProduct) {
        const auto [lt, rt] = CartesianTaskOf(n, task);
        l = Of(n.child(0), lt);
        r = Of(n.child(1), rt);
      } else {
        l = Of(n.child(0), task);
        r = Of(n.child(1), task);
        std::vector<int> both;
        for (int e : l) {
          if (std::find(r.begin(), r.end(), e) != r.end()) both.push_back(e);
        }
        if (!both.empty()) return both;
      }
      for (int e : r) {
        if (std::find(l.begin(), l.end(), e) == l.end()) l.push_back(e);
      }
      return l;
    }
    default:
      return n.children.empty() ? std::vector<int>{} : Of(n.child(0), task);
  }
}

const std::map<int, std::vector<int64_t>>& PreferredLocations::ReducerBytesByExecutor(const ShuffleData& d) {
  auto [it, inserted] = reducer_bytes_by_executor_.try_emplace(&d);
  std::map<int, std::vector<int64_t>>& out = it->second;
  if (!inserted) return out;
  const ShuffleSizes& a = d.actual;
  constexpr int kPrefThreshold = 1000;  // SHUFFLE_PREF_MAP_THRESHOLD, SHUFFLE_PREF_REDUCE_THRESHOLD
  if (a.num_maps() >= kPrefThreshold || a.num_reducers() >= kPrefThreshold) return out;
  const size_t reducers = static_cast<size_t>(a.num_reducers());
  a.ForEachRow([&](int m, std::span<const int64_t> row) {
    const int e = m < static_cast<int>(d.map_executor.size()) ? d.map_executor[m] : -1;
    if (e < 0) return;
    std::vector<int64_t>& bytes = out[e];
    bytes.resize(reducers, 0);
    for (size_t r = 0; r < reducers; ++r) bytes[r] += row[r];
  });
  return out;
}

std::vector<int> PreferredLocations::OfRead(const ExecNode& n, int task) {
  const ShuffleData& d = *n.shuffle->data;
  if (!d.stage || !d.stage->done) return {};
  const ShufflePartitionSpec spec = n.shuffle->read_spec(task);
  std::vector<int> out;
  auto add = [&](int e) {
    if (e >= 0 && std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
  };
  auto maps = [&](int lo, int hi) {
    for (int m = std::max(lo, 0); m < hi && m < static_cast<int>(d.map_executor.size()); ++m)
      add(d.map_executor[m]);
  };
  if (const auto* c = std::get_if<CoalescedPartitionSpec>(&spec)) {
    const std::map<int, std::vector<int64_t>>& bytes = ReducerBytesByExecutor(d);
    const int reducers = d.actual.num_reducers();
    for (int r = std::max(0, c->start_reducer_index);
         r < std::min(reducers, c->end_reducer_index) && !bytes.empty(); ++r) {
      long double total = 0;
      for (const auto& [e, b] : bytes) total += static_cast<long double>(b[static_cast<size_t>(r)]);
      if (total <= 0) continue;
      for (const auto& [e, b] : bytes) {
        if (static_cast<long double>(b[static_cast<size_t>(r)]) >= 0.2L * total) add(e);
      }
    }
  } else if (const auto* p = std::get_if<PartialReducerPartitionSpec>(&spec)) {
    maps(p->start_map_index, p->end_map_index);
  } else if (const auto* pm = std::get_if<PartialMapperPartitionSpec>(&spec)) {
    maps(pm->map_index, pm->map_index + 1);
  } else if (const auto* cm = std::get_if<CoalescedMapperPartitionSpec>(&spec)) {
    maps(cm->start_map_index, cm->end_map_index);
  }
  return out;
}

}  // namespace aqesim
