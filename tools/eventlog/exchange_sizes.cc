#include "tools/eventlog/exchange_sizes.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "sim/units.h"
#include "tools/eventlog/coalesced_read_sizes.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

/// Cells above which a reconstructed matrix is written as its marginals instead.
constexpr int64_t kMaxMatrixCells = 100000;

/// Bytes each task index of `st` read from storage (Input Metrics, first success per
/// index); empty when an index has no successful attempt or nothing was read.
std::vector<int64_t> InputBytesByIndex(const RecordedStage& st) {
  std::vector<int64_t> out(static_cast<size_t>(std::max(st.num_tasks, 0)), 0);
  std::vector<bool> seen(out.size(), false);
  int64_t total = 0;
  for (const RecordedTask& t : st.tasks) {
    if (!t.successful || t.index < 0 || static_cast<size_t>(t.index) >= out.size() || seen[t.index]) continue;
    seen[t.index] = true;
    out[t.index] = t.input_bytes;
    total += t.input_bytes;
  }
  if (out.empty() || total <= 0 || std::find(seen.begin(), seen.end(), false) != seen.end()) return {};
  return out;
}

/// Rows as planned without AQE from a stage that ran `n` coalesced tasks over `planned`
/// original partitions: task i covers a contiguous range whose length is proportional to
/// the bytes it read (coalescing aims at equal sizes), its written bytes split evenly.
std::vector<int64_t> ExpandRows(const RecordedStage& st, int planned) {
  const size_t n = st.map_output_bytes.size();
  std::vector<int64_t> weights(n, 1);
  std::set<int> seen;
  for (const RecordedTask& t : st.tasks) {
    if (t.successful && t.index >= 0 && static_cast<size_t>(t.index) < n && seen.insert(t.index).second) {
      weights[t.index] = std::max<int64_t>(t.shuffle_bytes_read(), 1);
    }
  }
  std::vector<int64_t> lengths(n, 0);
  if (static_cast<int>(n) <= planned) {
    // Every task covers at least one partition; the rest in proportion to the weights.
    std::vector<int64_t> extra = ScaleToTotal(weights, planned - static_cast<int64_t>(n));
    for (size_t i = 0; i < n; ++i) lengths[i] = 1 + extra[i];
  } else {
    lengths = ScaleToTotal(weights, planned);
  }
  std::vector<int64_t> rows;
  rows.reserve(planned);
  for (size_t i = 0; i < n; ++i) {
    if (lengths[i] == 0) continue;
    const std::vector<int64_t> part =
        ScaleToTotal(std::vector<int64_t>(lengths[i], 1), st.map_output_bytes[i]);
    rows.insert(rows.end(), part.begin(), part.end());
  }
  // Tasks with no range (more tasks than partitions): add their bytes to the last row.
  int64_t lost = Sum(st.map_output_bytes) - Sum(rows);
  if (!rows.empty()) rows.back() += lost;
  return rows;
}

/// Per-reducer blocks behind a coalesced read (coalesced_read_sizes.h) as `sizes`: a matrix,
/// or its marginals beyond kMaxMatrixCells. False when the read's specs do not fit the
/// exchange (then the caller falls back to a uniform estimate).
bool CoalescedSizes(ImportContext& ctx, const std::string& ptr, const std::vector<int64_t>& map_bytes,
                    const CoalescedRead& read, ImportedExchange* ex, json* sizes) {
  const int reducers = ex->num_partitions;
  const std::vector<int> starts = EstimateGroupStarts(read.combined_driver_bytes, reducers);
  if (starts.empty() || starts.size() != read.driver_bytes.size()) return false;
  const int64_t total = Sum(map_bytes);
  std::vector<int64_t> group_bytes = read.read_bytes;
  if (group_bytes.size() != starts.size() || Sum(group_bytes) <= 0) {
    ctx.warnings->push_back("exchange " + ex->id +
                            ": no task read its coalesced partitions; their sizes follow " +
                            "Spark's partition data sizes, scaled to the bytes written");
    group_bytes = ScaleToTotal(read.driver_bytes, total);
  } else if (Sum(group_bytes) != total) {
    ctx.warnings->push_back("exchange " + ex->id + ": its coalesced partitions read " +
                            std::to_string(Sum(group_bytes)) + " bytes but map tasks wrote " +
                            std::to_string(total) + "; scaled to the written total");
    group_bytes = ScaleToTotal(group_bytes, total);
  }
  double ratio = 1.0;
  if (read.compressed_map_status) {
    ratio = EstimateReportedSizeRatio(map_bytes, starts, reducers, group_bytes, read.driver_bytes);
    if (ratio != 1.0) {
      std::ostringstream os;
      os.precision(3);
      os << "exchange " << ex->id << ": Spark's driver saw " << Sum(read.driver_bytes) << " bytes in its "
         << read.driver_bytes.size() << " coalesced partitions, x"
         << static_cast<double>(Sum(read.driver_bytes)) / static_cast<double>(total) << " the " << total
         << " bytes read: outside what MapStatus encoding of the bytes written allows (at most 10% above, "
            "never"
         << " below), so this build's MapStatus reported other sizes (e.g. uncompressed); "
            "reportedSizeRatio "
         << ratio
         << " (estimated: the largest ratio whose MapStatus-encoded blocks stay within Spark's total, "
         << "below the x" << static_cast<double>(Sum(read.driver_bytes)) / static_cast<double>(total)
         << " above since the encoding itself rounds sizes up, by ~5%)";
      ctx.warnings->push_back(os.str());
    }
  }
  ex->reported_size_ratio = ratio;
  const std::vector<std::vector<int64_t>> blocks = ReconstructCoalescedBlocks(
      map_bytes, starts, reducers, group_bytes,
      read.compressed_map_status ? read.driver_bytes : std::vector<int64_t>{}, ratio);
  if (read.compressed_map_status) {
    const std::vector<int64_t> encoded = EncodedGroupBytes(blocks, starts, ratio);
    const int64_t seen = Sum(encoded), recorded = Sum(read.driver_bytes);
    // Within 1% of every recorded size: as close as the encoding steps allow; say nothing.
    int reached = 0;
    for (size_t g = 0; g < encoded.size(); ++g) {
      const long double gap = std::abs(static_cast<long double>(encoded[g]) - read.driver_bytes[g]);
      reached += gap * 100 <= static_cast<long double>(read.driver_bytes[g]) ? 1 : 0;
    }
    if (reached != static_cast<int>(encoded.size())) {
      std::ostringstream os;
      os.precision(3);
      os << "exchange " << ex->id << ": reconstructed blocks come within 1% of Spark's driver size for "
         << reached << " of " << encoded.size() << " coalesced partitions; encoded they total " << seen
         << " bytes where Spark's driver saw " << recorded << " (x"
         << static_cast<double>(recorded) / std::max<int64_t>(seen, 1) << ")";
      ctx.warnings->push_back(os.str());
    }
  }
  if (static_cast<int64_t>(blocks.size()) * reducers <= kMaxMatrixCells) {
    (*sizes)["matrix"] = blocks;
    ctx.Estimated(ptr + "/sizes/matrix");
  } else {
    std::vector<int64_t> cols(static_cast<size_t>(reducers), 0);
    for (const auto& row : blocks) {
      for (int r = 0; r < reducers; ++r) cols[r] += row[r];
    }
    (*sizes)["marginals"] = {{"mapBytes", map_bytes}, {"partitionBytes", cols}};
    ctx.Estimated(ptr + "/sizes/marginals/partitionBytes");
  }
  ex->partition_sizes_reconstructed = true;
  return true;
}

}  // namespace

std::vector<int64_t> ScaleToTotal(const std::vector<int64_t>& v, int64_t target) {
  const long double total = std::accumulate(v.begin(), v.end(), 0.0L);
  std::vector<int64_t> out(v.size(), 0);
  if (v.empty() || total <= 0) {
    if (!out.empty()) {
      for (size_t i = 0; i < out.size(); ++i) out[i] = target / static_cast<int64_t>(out.size());
      out[0] += target - std::accumulate(out.begin(), out.end(), int64_t{0});
    }
    return out;
  }
  std::vector<std::pair<long double, size_t>> rem;
  int64_t assigned = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const long double exact = static_cast<long double>(v[i]) * target / total;
    out[i] = static_cast<int64_t>(exact);
    assigned += out[i];
    rem.emplace_back(exact - out[i], i);
  }
  std::sort(rem.begin(), rem.end(), [](auto& a, auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  for (size_t k = 0; assigned < target && k < rem.size(); ++k, ++assigned) ++out[rem[k].second];
  return out;
}

int64_t Sum(const std::vector<int64_t>& v) {
  int64_t total = 0;
  for (int64_t x : v) total = SaturatingAdd(total, x);
  return total;
}

std::vector<int64_t> ReadBytesByIndex(const RecordedStage& st, const std::set<int64_t>& ids) {
  std::vector<int64_t> out(static_cast<size_t>(std::max(st.num_tasks, 0)), 0);
  std::set<int> seen;
  for (const RecordedTask& t : st.tasks) {
    if (!t.successful || t.index < 0 || static_cast<size_t>(t.index) >= out.size()) continue;
    if (!seen.insert(t.index).second) continue;
    if (ids.empty()) {
      out[t.index] = t.shuffle_bytes_read();
    } else {
      for (const auto& [id, v] : t.sql_metric_updates) {
        if (ids.count(id)) out[t.index] += v;
      }
    }
  }
  return out;
}

void SetScanTaskBytes(const RecordedStage& st, json* node) {
  std::vector<int64_t> per_task = InputBytesByIndex(st);
  if (per_task.empty()) return;
  const auto [lo, hi] = std::minmax_element(per_task.begin(), per_task.end());
  (*node)["bytes"] = std::accumulate(per_task.begin(), per_task.end(), int64_t{0});
  (*node)["tasks"] = static_cast<int64_t>(per_task.size());
  if (*hi - *lo > *hi / 100) (*node)["taskBytes"] = std::move(per_task);  // > 1% apart
}

json ExchangeSizes(ImportContext& ctx, const std::string& ptr, const RecordedStage& map_stage,
                   const std::vector<int64_t>* partition_bytes, ImportedExchange* ex, int planned_map_tasks,
                   const CoalescedRead* coalesced) {
  std::vector<int64_t> map_bytes = map_stage.map_output_bytes;
  if (planned_map_tasks > 0 && planned_map_tasks != static_cast<int>(map_bytes.size())) {
    map_bytes = ExpandRows(map_stage, planned_map_tasks);
    ctx.warnings->push_back("exchange " + ex->id + ": its map stage " + std::to_string(map_stage.stage_id) +
                            " ran " + std::to_string(map_stage.map_output_bytes.size()) +
                            " tasks over AQE-coalesced input; rows spread over the " +
                            std::to_string(planned_map_tasks) + " planned partitions (estimated)");
    ctx.Estimated(ptr + (partition_bytes != nullptr && !partition_bytes->empty()
                             ? "/sizes/marginals/mapBytes"
                             : "/sizes/generate/mapBytes"));
  }
  const int64_t total = Sum(map_bytes);
  ex->map_tasks = static_cast<int>(map_bytes.size());
  ex->shuffle_bytes = total;
  json sizes;
  if (partition_bytes != nullptr && !partition_bytes->empty()) {
    std::vector<int64_t> cols = *partition_bytes;
    if (Sum(cols) != total) {
      ctx.warnings->push_back("exchange " + ex->id + ": reduce tasks read " + std::to_string(Sum(cols)) +
                              " bytes but map tasks wrote " + std::to_string(total) +
                              "; per-reducer sizes scaled to the written total");
      cols = ScaleToTotal(cols, total);
      ctx.Estimated(ptr + "/sizes/marginals/partitionBytes");
    }
    sizes["marginals"] = {{"mapBytes", map_bytes}, {"partitionBytes", cols}};
    ex->partition_sizes_observed = true;
    if (!map_stage.missing_map_indexes.empty()) ctx.Estimated(ptr + "/sizes/marginals/mapBytes");
  } else if (coalesced != nullptr && total > 0 &&
             CoalescedSizes(ctx, ptr, map_bytes, *coalesced, ex, &sizes)) {
    // CoalescedSizes listed the reconstructed sizes as estimated.
  } else {
    sizes["generate"] = {{"distribution", "uniform"}, {"mapBytes", map_bytes}};
    ctx.Estimated(ptr + "/sizes/generate/distribution");
    if (!map_stage.missing_map_indexes.empty()) ctx.Estimated(ptr + "/sizes/generate/mapBytes");
  }
  if (!map_stage.missing_map_indexes.empty()) {
    ctx.warnings->push_back("exchange " + ex->id + ": " +
                            std::to_string(map_stage.missing_map_indexes.size()) + " map tasks of stage " +
                            std::to_string(map_stage.stage_id) +
                            " have no successful TaskEnd; their rows are 0");
  }
  return sizes;
}

}  // namespace aqesim::eventlog
