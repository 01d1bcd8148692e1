// The task work model: what one task of a stage reads, sorts, builds, probes, aggregates,
// streams and writes — the inputs of the cost model (TaskWork, models/cost/cost_model.h).
//
// A task of the stage rooted at `subtree` is evaluated bottom-up over the stage's operators
// (models/plan/stage_walk.h), each returning the bytes it outputs for the task:
//
//   scan            its split: taskBytes[task] when given, else an even split of the scan's
//                   bytes (the first bytes % tasks splits one byte larger)  → scan_bytes, input
//   exchange read   the true bytes of its spec's blocks of the finished shuffle: local when the
//                   map ran on the task's executor (a local shuffle read always is), remote
//                   otherwise; a block is a non-empty block, or a map's contiguous reducer range
//                   with spark.sql.adaptive.fetchShuffleBlocksInBatch (AQE on); local blocks are
//                   read one by one, remote ones grouped per map executor into Spark's fetch
//                   requests and sent in rounds (models/shuffle/fetch_requests.h)
//   filter, project                          stream += in;             out = in × selectivity
//   aggregate       aggregate += in; working set += out;               out = in × selectivity
//   sort            sort += in; working set += in;                     out = in
//   union           the child holding the task (stage_walk.h UnionTaskOf); stream += out
//   broadcast hash / nested-loop join        probe += streamed side;   out = probe × sel
//   cartesian product                        probe += left + right;    out = (l + r) × sel
//   shuffled hash join  build += build side, probe += the other, working set += build side
//   sort-merge join     sort += l + r, probe += l + r, working set += l + r;  out = (l + r) × sel
//
// Rows (the cost model's per-row terms): a scan's split and a read's bytes carry rows in
// proportion, the node's `rows` ÷ its bytes (a read: the exchange's records written ÷ the
// shuffle's true bytes) — one row per kRowBytesWithoutRows bytes where the node gives none —
// → rows_read; operators pass rows on × their selectivity; a join outputs its `rows` ÷ the rows
// of the inputs it streams (both sides, a broadcast join's streamed side) × the task's input
// rows when all are given, else input rows × selectivity → join_output_rows; a map task writes
// the exchange's rows in proportion to the bytes it writes (MapTaskWriteRows) → rows_written.
//
// Shares: every task also says, per planned partition of the stage's output, how many bytes
// it read for it (scan split t is partition t; a read's reducer r is partition r; a union
// shifts its children's partitions; a cartesian product pairs them). A map task writes the
// planned rows of the exchange above in proportion: row p × (bytes it read for p ÷ bytes
// every task read for p); a row its readers read no byte of goes to the first task reading it.
#ifndef AQESIM_MODELS_ENGINE_TASK_WORK_H_
#define AQESIM_MODELS_ENGINE_TASK_WORK_H_

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "models/conf/spark_conf.h"
#include "models/cost/cost_model.h"
#include "models/engine/shuffle_read_sums.h"
#include "models/plan/exec_node.h"
#include "models/plan/query_stage.h"
#include "models/shuffle/fetch_requests.h"

namespace aqesim {

/// (planned partition of a node's output, bytes a task read for it).
using Shares = std::vector<std::pair<int, int64_t>>;

/// Sorts by planned partition and sums duplicates.
void NormalizeShares(Shares* s);

/// One task's work.
struct TaskEval {
  /// The cost model's input. shuffle_write_bytes is set by MapTaskWriteBytes (map stages);
  /// the executor-state fields (first wave, fresh JVM, cold budget) by executor_state.h.
  TaskWork work;
  /// Bytes the stage's root outputs for this task (a broadcast stage: its share of the relation).
  int64_t output_bytes = 0;
  /// Bytes read from storage (Spark's Input Size / Records) and from shuffles (Shuffle Read).
  int64_t input_bytes = 0;
  int64_t shuffle_read_bytes = 0;
  /// See the header comment; in operator order (NormalizeShares sorts them).
  Shares shares;
};

/// Spark's fetch limits from the configuration: spark.reducer.maxSizeInFlight, maxReqsInFlight,
/// maxBlocksInFlightPerAddress; batch = spark.sql.adaptive.fetchShuffleBlocksInBatch with AQE on.
FetchLimits FetchLimitsOf(const SqlConf& conf);

/// Bytes per row of a node that gives no `rows` (the per-row terms of cost_model.h; the same one
/// row per 100 bytes a range exchange samples without rows: models/engine/range_exchange.h).
inline constexpr int64_t kRowBytesWithoutRows = 100;

/// Rows per byte of a node of `bytes` bytes that gives `rows` (1 / kRowBytesWithoutRows when it
/// gives none or has no bytes).
double RowsPerByte(std::optional<int64_t> rows, int64_t bytes);

class TaskWorkModel {
 public:
  /// `fetch`: Spark's fetch limits (spark.reducer.*; `batch`: spark.sql.adaptive.
  /// fetchShuffleBlocksInBatch and AQE on). `num_executors`: the executors a map may have run
  /// on (local reads and fetch addresses are counted per executor).
  TaskWorkModel(FetchLimits fetch, int num_executors);
  /// Spark's default limits, `fetch_in_batch` as above.
  TaskWorkModel(bool fetch_in_batch, int num_executors);

  /// What task `task` of the stage rooted at `subtree` does on `executor` (-1: nowhere — every
  /// fetch counts as remote; shares and bytes do not depend on the executor).
  TaskEval Evaluate(const ExecNode& subtree, int task, int executor);

  /// True bytes read task `task` of exchange read `read` fetches (explain's trueBytes).
  int64_t ReadBytes(const ExecNode& read, int task);

  /// Bytes task `task` of map stage `stage` writes, from its normalized shares: its part of
  /// each planned row it read for (header comment).
  Bytes MapTaskWriteBytes(const QueryStage& stage, const Shares& task_shares, int task);

  /// Records a task of map stage `stage` writing `written` bytes writes: the exchange's `rows`
  /// in proportion to its planned bytes (header comment).
  double MapTaskWriteRows(const QueryStage& stage, Bytes written);

 private:
  /// What an operator outputs for a task: bytes and rows.
  struct Flow {
    int64_t bytes = 0;
    double rows = 0;
  };
  Flow Eval(const ExecNode& n, int task, int executor, TaskEval* ev, Shares* shares);
  Flow EvalJoin(const ExecNode& n, int task, int executor, TaskEval* ev, Shares* shares, double sel);
  Flow EvalRead(const ExecNode& n, int task, int executor, TaskEval* ev, Shares* shares);
  /// Rows per byte a read of `read` fetches: its `rows` ÷ the shuffle's true bytes.
  double ReadRowsPerByte(const ExecNode& read);
  /// The read's sums, holding the per-executor sums of spec `spec` (re-formed for its block when
  /// they are of another block); `spec` < 0: whichever block is held.
  const ShuffleReadSums& ReadSums(const ExecNode& read, int spec);

  /// Per planned partition of a map stage's output: the bytes every task read for it, and the
  /// first task that read it.
  struct PartitionReads {
    std::vector<int64_t> total_bytes;
    std::vector<int> first_task;
  };
  const PartitionReads& PartitionReadsOf(const QueryStage& stage);

  FetchLimits fetch_;
  int num_executors_;
  // Memos (results derived from a finished shuffle or a created stage, which no longer change):
  /// Per exchange read of a finished shuffle: its per-spec sums, formed in one pass when its
  /// first task runs instead of a column-wise pass per task. Re-formed if the read's specs
  /// change (ShuffleReadSums::Matches) or a task's spec is of another block (HoldsSpec).
  std::map<const ExecNode*, ShuffleReadSums> read_sums_;
  /// Per map stage: every task's reads per planned partition, needed by each task's
  /// MapTaskWriteBytes; evaluating every task per task would be quadratic.
  std::map<const QueryStage*, PartitionReads> partition_reads_;
  /// Per finished shuffle: rows per byte its reads fetch; per map stage: rows per byte written.
  std::map<const ShuffleData*, double> read_rows_per_byte_;
  std::map<const QueryStage*, double> write_rows_per_byte_;
  /// Per local read of a finished shuffle: its sums (read once, not once per evaluation).
  MapperRangeReads mapper_range_reads_;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_TASK_WORK_H_
