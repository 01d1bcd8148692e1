#include "models/engine/shuffle_read_sums.h"

#include <algorithm>
#include <span>
#include <utility>
#include <variant>

#include "models/plan/query_stage.h"
#include "models/shuffle/shuffle_sizes.h"

namespace aqesim {

namespace {

const void* SpecsIdentity(const ShuffleState& read) {
  return read.read_specs ? static_cast<const void*>(read.read_specs->data()) : nullptr;
}

}  // namespace

bool ShuffleReadSums::Matches(const ShuffleState& read) const {
  return specs == SpecsIdentity(read) && num_specs == static_cast<size_t>(read.num_read_tasks()) &&
         !column.empty();
}

size_t ShuffleReadSums::RankOf(int executor) const {
  const auto it = std::lower_bound(executor_ids.begin(), executor_ids.end(), executor);
  return it != executor_ids.end() && *it == executor ? static_cast<size_t>(it - executor_ids.begin())
                                                     : executors;
}

size_t ShuffleReadSumsBlockSpecs(int num_executors, size_t max_cells) {
  return std::max<size_t>(1, max_cells / static_cast<size_t>(std::max(1, num_executors)));
}

void SumShuffleRead(const ShuffleState& read, int num_executors, bool fetch_in_batch, size_t spec,
                    ShuffleReadSums* out, size_t max_cells) {
  const ShuffleData& d = *read.data;
  const ShuffleSizes& a = d.actual;
  const bool batch = fetch_in_batch;
  const size_t num_specs = static_cast<size_t>(read.num_read_tasks());
  ShuffleReadSums& c = *out;
  c.specs = SpecsIdentity(read);
  c.num_specs = num_specs;
  c.executor_ids.clear();
  for (int me : d.map_executor)
    if (me >= 0 && me < num_executors) c.executor_ids.push_back(me);
  std::sort(c.executor_ids.begin(), c.executor_ids.end());
  c.executor_ids.erase(std::unique(c.executor_ids.begin(), c.executor_ids.end()), c.executor_ids.end());
  c.executors = c.executor_ids.size();
  // A map's group: its executor's rank (maps past map_executor, or on no executor: "unknown").
  std::vector<size_t> map_group(d.map_executor.size());
  for (size_t m = 0; m < map_group.size(); ++m) map_group[m] = c.RankOf(d.map_executor[m]);
  const auto group_of = [&](int m) {
    return m >= 0 && static_cast<size_t>(m) < map_group.size() ? map_group[static_cast<size_t>(m)]
                                                               : c.executors;
  };
  const size_t block = ShuffleReadSumsBlockSpecs(static_cast<int>(c.executors), max_cells);
  c.block_begin = std::min(spec, num_specs) / block * block;
  c.block_end = std::min(num_specs, c.block_begin + block);
  const size_t block_len = c.block_end - c.block_begin;
  c.bytes.assign(num_specs, 0);
  c.requests.assign(num_specs, 0);
  c.exec_bytes.assign(block_len * c.executors, 0);
  c.exec_requests.assign(block_len * c.executors, 0);
  // Coalesced ranges of the read, in spec order (other spec kinds are not summed here).
  std::vector<std::pair<int, int>> ranges(num_specs, {0, 0});
  for (size_t j = 0; j < num_specs; ++j) {
    if (!read.read_specs) {
      ranges[j] = {static_cast<int>(j), static_cast<int>(j) + 1};
    } else if (auto* cs = std::get_if<CoalescedPartitionSpec>(&(*read.read_specs)[j])) {
      ranges[j] = {std::max(0, cs->start_reducer_index), std::min(a.num_reducers(), cs->end_reducer_index)};
    }
  }
  // Skew-split reducers of the read: a streamed shuffle extracts their columns in the same
  // pass (EvalRead of a PartialReducerPartitionSpec then looks them up).
  std::vector<int> split;
  if (a.streamed() && read.read_specs)
    for (const ShufflePartitionSpec& x : *read.read_specs)
      if (auto* px = std::get_if<PartialReducerPartitionSpec>(&x)) split.push_back(px->reducer_index);
  const size_t reducers = static_cast<size_t>(a.num_reducers());
  const size_t groups = c.executors + 1;  // map executors, then "unknown"
  if (groups * (reducers + 1) <= max_cells) {
    // Bytes and block counts are sums over maps of sums over the range (cells are >= 0, so a
    // range summing to 0 has no block), so they are summed per (map executor, reducer) cell by
    // cell, then per range; only batch fetches (one request per non-empty map block range)
    // need a per-(map, spec) test, which stops at the first non-empty block.
    std::vector<int64_t> cell_bytes(groups * (reducers + 1), 0), cell_blocks(groups * (reducers + 1), 0);
    std::vector<uint8_t> group_used(groups, 0);
    // Batch fetches: a one-reducer range has a request per non-empty block, like non-batch.
    std::vector<size_t> multi;
    for (size_t j = 0; j < num_specs; ++j)
      if (ranges[j].second - ranges[j].first > 1) multi.push_back(j);
    a.ForEachRowExtracting(split, [&](int m, std::span<const int64_t> row_span) {
      const int64_t* row = row_span.data();
      const size_t g = group_of(m);
      group_used[g] = 1;
      AddRowBytesAndBlocks(row_span, cell_bytes.data() + g * (reducers + 1),
                           cell_blocks.data() + g * (reducers + 1));
      if (!batch) return;
      for (size_t j : multi) {
        bool any = false;
        for (int r = ranges[j].first; r < ranges[j].second && !any; ++r) any = row[r] > 0;
        if (!any) continue;
        ++c.requests[j];
        if (g < c.executors && c.HoldsSpec(j)) ++c.exec_requests[c.ExecIndex(g, j)];
      }
    });
    for (size_t g = 0; g < groups; ++g) {
      if (!group_used[g]) continue;
      // Exclusive prefix sums over reducers, so a range is one subtraction.
      int64_t* gb = cell_bytes.data() + g * (reducers + 1);
      int64_t* gk = cell_blocks.data() + g * (reducers + 1);
      int64_t pb = 0, pk = 0;
      for (size_t r = 0; r <= reducers; ++r) {
        const int64_t vb = gb[r], vk = gk[r];
        gb[r] = pb, gk[r] = pk;
        pb += vb, pk += vk;
      }
      for (size_t j = 0; j < num_specs; ++j) {
        if (ranges[j].first >= ranges[j].second) continue;
        const int64_t bytes = gb[ranges[j].second] - gb[ranges[j].first];
        const bool held = g < c.executors && c.HoldsSpec(j);
        c.bytes[j] += bytes;
        if (held) c.exec_bytes[c.ExecIndex(g, j)] += bytes;
        if (batch && ranges[j].second - ranges[j].first > 1) continue;
        const int64_t blocks = gk[ranges[j].second] - gk[ranges[j].first];
        c.requests[j] += blocks;
        if (held) c.exec_requests[c.ExecIndex(g, j)] += blocks;
      }
    }
    c.column = a.PartitionBytes();
    return;
  }
  // One pass over the rows (a streamed shuffle's column sums come from the same pass).
  a.ForEachRowExtracting(split, [&](int m, std::span<const int64_t> row_span) {
    const int64_t* row = row_span.data();
    const size_t g = group_of(m);
    const bool known = g < c.executors;
    for (size_t j = 0; j < num_specs; ++j) {
      int64_t sum = 0, blocks = 0;
      for (int r = ranges[j].first; r < ranges[j].second; ++r) {
        sum += row[r];
        blocks += row[r] > 0;
      }
      if (sum <= 0) continue;
      const int64_t req = batch ? 1 : blocks;
      c.bytes[j] += sum;
      c.requests[j] += req;
      if (known && c.HoldsSpec(j)) {
        c.exec_bytes[c.ExecIndex(g, j)] += sum;
        c.exec_requests[c.ExecIndex(g, j)] += req;
      }
    }
  });
  c.column = a.PartitionBytes();
}

const MapperRangeRead& MapperRangeReads::Of(const ShuffleData& d, const CoalescedMapperPartitionSpec& spec) {
  const bool done = d.stage && d.stage->done;
  MapperRangeRead* read = &unfinished_;
  if (done) {
    auto [it, fresh] = kept_.try_emplace({&d, spec.start_map_index, spec.end_map_index, spec.num_reducers});
    if (!fresh) return it->second;
    read = &it->second;
  }
  read->maps.clear();
  read->column.assign(static_cast<size_t>(std::max(spec.num_reducers, 0)), 0);
  for (int m = spec.start_map_index; m < spec.end_map_index; ++m) {
    const std::span<const int64_t> row = d.actual.row(m);
    int64_t bytes = 0, blocks = 0;
    for (int r = 0; r < spec.num_reducers; ++r) {
      bytes += row[r];
      blocks += row[r] > 0;
      read->column[r] += row[r];
    }
    read->maps.push_back({bytes, blocks});
  }
  return *read;
}

}  // namespace aqesim
