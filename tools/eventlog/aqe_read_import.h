// What the AQE reads of an execution's final plan (AQEShuffleRead, 3.2+; CustomShuffleReader,
// 3.0-3.1: RecordedShuffleRead) say about the exchanges below them: the partition count and
// kind Spark read with, and, for a purely coalescing read, the sizes from which the
// exchange's per-reducer blocks are reconstructed (coalesced_read_sizes.h).
#ifndef AQESIM_TOOLS_EVENTLOG_AQE_READ_IMPORT_H_
#define AQESIM_TOOLS_EVENTLOG_AQE_READ_IMPORT_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "tools/eventlog/exchange_sizes.h"
#include "tools/eventlog/recorded_application.h"
#include "tools/eventlog/sql_stage_index.h"

namespace aqesim::eventlog {

/// The AQE read, in execution `execution_id`'s final plan, over the exchange whose "shuffle
/// bytes written" metric is `write_metric_id` (the last one listed); nullptr when none.
const RecordedShuffleRead* RecordedReadOf(const RecordedApplication& app, int64_t execution_id,
                                          std::optional<int64_t> write_metric_id);

/// The read's kind, its simpleString after the node name: "coalesced", "skewed",
/// "coalesced and skewed", "local"; "" when the simpleString does not start with the name.
std::string RecordedReadKind(const RecordedShuffleRead& read);

/// What a purely coalescing AQE read over an exchange of `partitions` reducers recorded, when
/// its specs can be laid over them: one "partition data size" per spec, fewer specs than
/// reducers. Shuffles read through coalesced specs by the same stage, with as many specs, were
/// coalesced together (both sides of a join): their sizes are summed to place the shared spec
/// boundaries. `read_ids` are the exchange's own read metrics (a join's stage reads two
/// shuffles). nullopt when the read is not such a read.
std::optional<CoalescedRead> CoalescedReadOf(const RecordedApplication& app, const SqlStageIndex& index,
                                             const RecordedShuffleRead& reader, int partitions,
                                             int map_stage_id, const std::set<int64_t>& read_ids);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_AQE_READ_IMPORT_H_
