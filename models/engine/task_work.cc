#include "models/engine/task_work.h"

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <variant>

#include "models/plan/bucketed_scan.h"
#include "models/plan/join_selection_helper.h"
#include "models/plan/stage_walk.h"
#include "models/shuffle/shuffle_sizes.h"
#include "sim/units.h"

namespace aqesim {

namespace {

int64_t Scale(int64_t bytes, double factor) {
  return static_cast<int64_t>(static_cast<double>(bytes) * factor);
}

void MergeShares(Shares* into, const Shares& add) { into->insert(into->end(), add.begin(), add.end()); }

}  // namespace

void NormalizeShares(Shares* s) {
  std::sort(s->begin(), s->end());
  size_t w = 0;
  for (size_t i = 0; i < s->size(); ++i) {
    if (w > 0 && (*s)[w - 1].first == (*s)[i].first) {
      (*s)[w - 1].second += (*s)[i].second;
    } else {
      (*s)[w++] = (*s)[i];
    }
  }
  s->resize(w);
}

FetchLimits FetchLimitsOf(const SqlConf& conf) {
  FetchLimits f;
  f.max_bytes_in_flight = conf.reducer_max_size_in_flight_bytes;
  f.max_reqs_in_flight = conf.reducer_max_reqs_in_flight;
  f.max_blocks_per_address = conf.reducer_max_blocks_in_flight_per_address;
  f.batch = conf.fetch_shuffle_blocks_in_batch && conf.adaptive_enabled;
  return f;
}

TaskWorkModel::TaskWorkModel(FetchLimits fetch, int num_executors)
    : fetch_(fetch), num_executors_(num_executors) {}

TaskWorkModel::TaskWorkModel(bool fetch_in_batch, int num_executors)
    : TaskWorkModel(FetchLimits{.batch = fetch_in_batch}, num_executors) {}

TaskEval TaskWorkModel::Evaluate(const ExecNode& subtree, int task, int executor) {
  TaskEval ev;
  ev.output_bytes = Eval(subtree, task, executor, &ev, &ev.shares).bytes;
  return ev;
}

int64_t TaskWorkModel::ReadBytes(const ExecNode& read, int task) {
  TaskEval ev;
  Shares shares;
  return EvalRead(read, task, -1, &ev, &shares).bytes;
}

Bytes TaskWorkModel::MapTaskWriteBytes(const QueryStage& stage, const Shares& task_shares, int task) {
  const ShuffleSizes& planned = stage.output->shuffle->data->planned;
  int64_t total = 0;
  for (auto& [p, bytes] : task_shares) {
    if (p < 0 || p >= planned.num_maps()) continue;
    const int64_t row = planned.RowTotal(p);
    const PartitionReads& reads = PartitionReadsOf(stage);
    const int64_t denom = reads.total_bytes[p];
    if (denom <= 0) {
      total += reads.first_task[p] == task ? row : 0;
    } else {
      total += static_cast<int64_t>(static_cast<Int128>(row) * bytes / denom);
    }
  }
  return Bytes(total);
}

const TaskWorkModel::PartitionReads& TaskWorkModel::PartitionReadsOf(const QueryStage& stage) {
  auto [it, inserted] = partition_reads_.try_emplace(&stage);
  PartitionReads& out = it->second;
  if (!inserted) return out;
  // Shares do not depend on the executor: every task is evaluated once with none.
  const int parts = stage.output->shuffle->data->planned.num_maps();
  out.total_bytes.assign(parts, 0);
  out.first_task.assign(parts, -1);
  for (int t = 0; t < stage.num_tasks; ++t) {
    TaskEval ev = Evaluate(*stage.subtree, t, -1);
    NormalizeShares(&ev.shares);
    for (auto& [p, b] : ev.shares) {
      if (p < 0 || p >= parts) continue;
      out.total_bytes[p] += b;
      if (out.first_task[p] < 0) out.first_task[p] = t;
    }
  }
  return out;
}

const ShuffleReadSums& TaskWorkModel::ReadSums(const ExecNode& read, int spec) {
  ShuffleReadSums& sums = read_sums_[&read];
  const bool held = sums.Matches(*read.shuffle) && (spec < 0 || sums.HoldsSpec(static_cast<size_t>(spec)));
  if (!held)
    SumShuffleRead(*read.shuffle, num_executors_, fetch_.batch, static_cast<size_t>(std::max(0, spec)),
                   &sums);
  return sums;
}

// Output bytes and rows of `n` for task `task` (index among its tasks); accumulates work;
// appends (planned partition of n, bytes) to shares.
TaskWorkModel::Flow TaskWorkModel::Eval(const ExecNode& n, int task, int executor, TaskEval* ev,
                                        Shares* shares) {
  const double sel = n.source ? n.source->selectivity : 1.0;
  switch (n.op) {
    case PlanOp::kExchange:
      return EvalRead(n, task, executor, ev, shares);
    case PlanOp::kScan: {
      const int64_t bytes = n.source ? n.source->scan_bytes : 0;
      const int tasks = std::max(1, n.planned_partitions);
      const std::vector<int64_t>* given = n.source ? &n.source->task_bytes : nullptr;
      const int64_t part = n.bucketed_read_tasks && n.source && n.source->bucketing
                               ? BucketedTaskBytes(*n.source->bucketing, bytes, tasks, task)
                           : given && static_cast<int>(given->size()) == tasks && task >= 0 && task < tasks
                               ? (*given)[task]
                               : bytes / tasks + (task < bytes % tasks ? 1 : 0);
      const double rows =
          static_cast<double>(part) * RowsPerByte(n.source ? n.source->rows : std::nullopt, bytes);
      ev->work.scan_bytes += Bytes(part);
      ev->work.rows_read += rows;
      ev->input_bytes += part;
      shares->push_back({task, part});
      if (BucketUnionFilters(n)) {  // hash(keys) mod tasks == task keeps numBuckets / tasks of it
        ev->work.stream_bytes += Bytes(part);
        const double kept = static_cast<double>(n.source->bucketing->num_buckets) / *n.bucketed_read_tasks;
        return {static_cast<int64_t>(static_cast<Int128>(part) * n.source->bucketing->num_buckets /
                                     *n.bucketed_read_tasks),
                rows * kept};
      }
      return {part, rows};
    }
    case PlanOp::kUnion: {
      const std::optional<UnionTask> u = UnionTaskOf(n, task);
      if (!u) return {};
      Shares sub;
      const Flow out = Eval(*n.children[u->child], u->task, executor, ev, &sub);
      for (auto& [p, b] : sub) shares->push_back({p + u->partition_offset, b});
      ev->work.stream_bytes += Bytes(out.bytes);
      return out;
    }
    case PlanOp::kJoin:
      return EvalJoin(n, task, executor, ev, shares, sel);
    case PlanOp::kAggregate: {
      const Flow in = Eval(n.child(0), task, executor, ev, shares);
      const int64_t out = Scale(in.bytes, sel);
      ev->work.aggregate_bytes += Bytes(in.bytes);
      ev->work.working_set_bytes += Bytes(out);
      return {out, in.rows * sel};
    }
    case PlanOp::kSort: {
      const Flow in = Eval(n.child(0), task, executor, ev, shares);
      ev->work.sort_bytes += Bytes(in.bytes);
      ev->work.working_set_bytes += Bytes(in.bytes);
      return in;
    }
    case PlanOp::kWindow: {  // the sort by partition and order keys under it, then one pass
      const Flow in = Eval(n.child(0), task, executor, ev, shares);
      ev->work.sort_bytes += Bytes(in.bytes);
      ev->work.stream_bytes += Bytes(in.bytes);
      ev->work.working_set_bytes += Bytes(in.bytes);
      return {Scale(in.bytes, sel), in.rows * sel};
    }
    default: {
      const Flow in = Eval(n.child(0), task, executor, ev, shares);
      ev->work.stream_bytes += Bytes(in.bytes);
      return {Scale(in.bytes, sel), in.rows * sel};
    }
  }
}

TaskWorkModel::Flow TaskWorkModel::EvalJoin(const ExecNode& n, int task, int executor, TaskEval* ev,
                                            Shares* shares, double sel) {
  const JoinState& j = *n.join;
  // Output rows: the join's rows ÷ the rows of the inputs its tasks stream (both sides; a
  // broadcast join's streamed side), as given; else the input rows × the byte ratio.
  auto joined = [&](double in_rows, std::initializer_list<const ExecNode*> inputs) {
    std::optional<double> total = 0.0;
    for (const ExecNode* c : inputs) {
      if (c->source && c->source->rows && total) {
        *total += static_cast<double>(*c->source->rows);
      } else {
        total.reset();
      }
    }
    const double ratio = n.source && n.source->rows && total && *total > 0
                             ? static_cast<double>(*n.source->rows) / *total
                             : sel;
    ev->work.join_output_rows += in_rows * ratio;
    return in_rows * ratio;
  };
  switch (j.strategy) {
    case JoinStrategy::kBroadcastHash:
    case JoinStrategy::kBroadcastNestedLoop: {
      const ExecNode& streamed = StreamedChild(n);
      const Flow probe = Eval(streamed, task, executor, ev, shares);
      ev->work.probe_bytes += Bytes(probe.bytes);
      return {Scale(probe.bytes, sel), joined(probe.rows, {&streamed})};
    }
    case JoinStrategy::kCartesianProduct: {
      const auto [lt, rt] = CartesianTaskOf(n, task);
      Shares ls, rs;
      const Flow l = Eval(n.child(0), lt, executor, ev, &ls);
      const Flow r = Eval(n.child(1), rt, executor, ev, &rs);
      const int rp = n.child(1).planned_partitions;
      for (auto& [pl, bl] : ls)
        for (auto& [pr, br] : rs) shares->push_back({pl * rp + pr, bl + br});
      ev->work.probe_bytes += Bytes(l.bytes + r.bytes);
      return {Scale(l.bytes + r.bytes, sel), joined(l.rows + r.rows, {&n.child(0), &n.child(1)})};
    }
    default: {
      Shares ls, rs;
      const Flow lf = Eval(n.child(0), task, executor, ev, &ls);
      const Flow rf = Eval(n.child(1), task, executor, ev, &rs);
      const int64_t l = lf.bytes, r = rf.bytes;
      MergeShares(shares, ls);
      MergeShares(shares, rs);
      if (j.strategy == JoinStrategy::kShuffledHash) {
        const bool build_left = j.build_side == BuildSide::kLeft;
        const int64_t build = build_left ? l : r;
        ev->work.hash_build_bytes += Bytes(build);
        ev->work.probe_bytes += Bytes(build_left ? r : l);
        ev->work.working_set_bytes += Bytes(build);
      } else {
        ev->work.sort_bytes += Bytes(l + r);
        ev->work.probe_bytes += Bytes(l + r);
        ev->work.working_set_bytes += Bytes(l + r);
      }
      return {Scale(l + r, sel), joined(lf.rows + rf.rows, {&n.child(0), &n.child(1)})};
    }
  }
}

// Bytes (and their rows) one read spec of exchange `n` fetches; fills fetch terms and shares.
TaskWorkModel::Flow TaskWorkModel::EvalRead(const ExecNode& n, int task, int executor, TaskEval* ev,
                                            Shares* shares) {
  const ShuffleData& d = *n.shuffle->data;
  const ShuffleSizes& a = d.actual;
  const ShufflePartitionSpec spec = n.shuffle->read_spec(task);
  const bool batch = fetch_.batch;
  int64_t total = 0;
  // Remote blocks per map executor serving this task (only those: 10^6 executors), in executor
  // order; the last key: maps whose executor is not known, taken as one address.
  std::map<int, AddressFetch> remote;
  auto remote_at = [&](int map_executor) -> AddressFetch& {
    const bool known = map_executor >= 0 && map_executor < num_executors_;
    return remote[known ? map_executor : std::numeric_limits<int>::max()];
  };
  auto fetch = [&](int map, int64_t bytes, int64_t blocks, bool force_local) {
    if (bytes <= 0) return;
    const int map_executor = map < static_cast<int>(d.map_executor.size()) ? d.map_executor[map] : -1;
    const bool local = force_local || map_executor == executor;
    const int64_t requests = batch ? 1 : blocks;
    if (local) {
      ev->work.local_shuffle_bytes += Bytes(bytes);
      ev->work.local_fetch_requests += requests;
    } else {
      ev->work.remote_shuffle_bytes += Bytes(bytes);
      AddressFetch& address = remote_at(map_executor);
      address.blocks += requests;
      address.bytes += bytes;
    }
    total += bytes;
  };
  const auto* c = std::get_if<CoalescedPartitionSpec>(&spec);
  // A finished streamed shuffle: the read's sums (and skew-split columns) in one pass.
  if (a.streamed() && d.stage && d.stage->done) ReadSums(n, -1);
  if (c && d.stage && d.stage->done) {
    // The finished shuffle's coalesced reads, summed once per (spec, map executor) in one
    // row-major pass (a spec's per-map loop would walk the matrix column-wise per task).
    const ShuffleReadSums& sums = ReadSums(n, task);
    const size_t j = static_cast<size_t>(task);
    const size_t e = executor >= 0 ? sums.RankOf(executor) : sums.executors;  // its rank
    const bool has_local = e < sums.executors;
    const int64_t local_bytes = has_local ? sums.exec_bytes[sums.ExecIndex(e, j)] : 0;
    const int64_t local_requests = has_local ? sums.exec_requests[sums.ExecIndex(e, j)] : 0;
    ev->work.local_shuffle_bytes += Bytes(local_bytes);
    ev->work.local_fetch_requests += local_requests;
    ev->work.remote_shuffle_bytes += Bytes(sums.bytes[j] - local_bytes);
    total = sums.bytes[j];
    if (sums.bytes[j] > local_bytes) {
      AddressFetch unknown{sums.requests[j], sums.bytes[j]};
      for (size_t x = 0; x < sums.executors; ++x) {
        const AddressFetch served{sums.exec_requests[sums.ExecIndex(x, j)],
                                  sums.exec_bytes[sums.ExecIndex(x, j)]};
        unknown.blocks -= served.blocks;
        unknown.bytes -= served.bytes;
        if (!(has_local && x == e)) remote_at(sums.executor_ids[x]) = served;
      }
      if (unknown.bytes > 0) remote_at(-1) = unknown;
    }
    for (int r = c->start_reducer_index; r < c->end_reducer_index; ++r)
      shares->push_back({r, sums.column[r]});
  } else if (c) {
    const int lo = c->start_reducer_index, hi = c->end_reducer_index;
    std::vector<int64_t> col(std::max(0, hi - lo), 0);
    for (int m = 0; m < a.num_maps(); ++m) {
      auto row = a.row(m);
      int64_t s = 0, blocks = 0;
      for (int r = lo; r < hi; ++r) {
        s += row[r];
        blocks += row[r] > 0;
        col[r - lo] += row[r];
      }
      fetch(m, s, blocks, false);
    }
    for (int r = lo; r < hi; ++r) shares->push_back({r, col[r - lo]});
  } else if (auto* p = std::get_if<PartialReducerPartitionSpec>(&spec)) {
    // A streamed shuffle: every skew-split reducer of this read extracted in one pass.
    if (a.streamed() && !a.HasColumn(p->reducer_index) && n.shuffle->read_specs) {
      std::vector<int> split;
      for (const ShufflePartitionSpec& x : *n.shuffle->read_specs)
        if (auto* px = std::get_if<PartialReducerPartitionSpec>(&x)) split.push_back(px->reducer_index);
      a.PrefetchColumns(split);
    }
    int64_t sum = 0;
    for (int m = p->start_map_index; m < p->end_map_index; ++m) {
      const int64_t v = a.streamed() ? a.Column(p->reducer_index)[m] : a.at(m, p->reducer_index);
      fetch(m, v, 1, false);
      sum += v;
    }
    shares->push_back({p->reducer_index, sum});
  } else if (auto* pm = std::get_if<PartialMapperPartitionSpec>(&spec)) {
    auto row = a.row(pm->map_index);
    for (int r = pm->start_reducer_index; r < pm->end_reducer_index; ++r) {
      fetch(pm->map_index, row[r], 1, true);
      shares->push_back({r, row[r]});
    }
  } else if (auto* cm = std::get_if<CoalescedMapperPartitionSpec>(&spec)) {
    const MapperRangeRead& read = mapper_range_reads_.Of(d, *cm);
    for (int m = cm->start_map_index; m < cm->end_map_index; ++m) {
      const auto& [map_bytes, map_blocks] = read.maps[static_cast<size_t>(m - cm->start_map_index)];
      fetch(m, map_bytes, map_blocks, true);
    }
    for (int r = 0; r < cm->num_reducers; ++r) shares->push_back({r, read.column[r]});
  }
  if (!remote.empty()) {
    std::vector<AddressFetch> addresses;
    for (const auto& [address, f] : remote) addresses.push_back(f);
    const FetchPlan plan = PlanRemoteFetch(addresses, fetch_);
    ev->work.remote_fetch_requests += plan.requests;
    ev->work.remote_fetch_rounds += plan.rounds;
  }
  ev->shuffle_read_bytes += total;
  const double rows = static_cast<double>(total) * ReadRowsPerByte(n);
  ev->work.rows_read += rows;
  return {total, rows};
}

double RowsPerByte(std::optional<int64_t> rows, int64_t bytes) {
  if (rows && bytes > 0) return static_cast<double>(*rows) / static_cast<double>(bytes);
  return 1.0 / static_cast<double>(kRowBytesWithoutRows);
}

double TaskWorkModel::ReadRowsPerByte(const ExecNode& read) {
  const ShuffleData& d = *read.shuffle->data;
  const std::optional<int64_t> rows = read.source ? read.source->rows : std::nullopt;
  if (!rows) return RowsPerByte(std::nullopt, 0);
  const bool done = d.stage && d.stage->done;
  if (done) {
    auto it = read_rows_per_byte_.find(&d);
    if (it != read_rows_per_byte_.end()) return it->second;
  }
  const double r = RowsPerByte(rows, d.actual.TotalBytes());
  if (done) read_rows_per_byte_[&d] = r;
  return r;
}

double TaskWorkModel::MapTaskWriteRows(const QueryStage& stage, Bytes written) {
  auto [it, inserted] = write_rows_per_byte_.try_emplace(&stage, 0.0);
  if (inserted) {
    const ExecNode& out = *stage.output;
    const std::optional<int64_t> rows = out.source ? out.source->rows : std::nullopt;
    it->second = RowsPerByte(rows, rows ? out.shuffle->data->planned.TotalBytes() : 0);
  }
  return static_cast<double>(written.count()) * it->second;
}

}  // namespace aqesim
