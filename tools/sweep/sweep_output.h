// Sweep output files (CSV or JSON, chosen by the output's extension) and the merge of
// `--shard K/N` outputs into exactly the bytes the unsharded sweep writes.
//
// CSV: the header (CsvHeader) then one line per point in grid order, "\n"-terminated. A
// shard's CSV (`--shard K/N`) has one more, last column, kGridPointsColumn: the whole grid's
// number of points, so that merge can tell a missing trailing point; the merged CSV has not.
// JSON:
//   {
//   "sweep": {"scenario": ..., "scenarioFile": ..., "conf": [...], "grid": [{"key", "values"}],
//             "points": N, "shard": "K/N" (sharded runs only), "baseline": {...},
//             "scenarioConf": {...}, "cluster": {...}},
//   "rows": [
//   {"point":0,"values":{...},"makespanSecondsAqeOn":...,...,"error":null},
//   ...
//   ]
//   }
// (PreparedSweep::info documents the `sweep` members; sweep_row.h the row members.)
#ifndef AQESIM_TOOLS_SWEEP_SWEEP_OUTPUT_H_
#define AQESIM_TOOLS_SWEEP_SWEEP_OUTPUT_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/sweep/grid.h"
#include "tools/sweep/sweep_row.h"

namespace aqesim::sweep {

enum class OutputFormat { kCsv, kJson };

/// Last column of a shard's CSV: the number of points of the whole grid.
inline constexpr const char* kGridPointsColumn = "gridPoints";

/// Format from the output path's extension (.csv / .json, case-insensitive); nullopt else.
std::optional<OutputFormat> FormatForPath(const std::string& path);

/// Renders the output document. `rows` in grid order; `info` is PreparedSweep::info.
std::string RenderSweep(OutputFormat format, const nlohmann::ordered_json& info,
                        const std::vector<std::string>& keys, const std::vector<SweepRow>& rows);

/// One input of a merge: its path (for messages), its bytes, and the shard its name says it
/// is (a shard folder's shard-K-of-N file): then every point must belong to that shard.
struct ShardFile {
  std::string path;
  std::string text;
  std::optional<Shard> shard;
};

/// Joins the outputs of `sweep --shard K/N` runs of one sweep into the unsharded output.
/// Every problem (a file of another sweep or format, a header that differs, a point twice,
/// points missing, a point or a JSON /sweep/shard of another shard than the file's name says) goes to
/// `*errors` as "PATH: message"; nullopt then.
std::optional<std::string> MergeShards(OutputFormat format, const std::vector<ShardFile>& shards,
                                       std::vector<std::string>* errors);

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_SWEEP_OUTPUT_H_
