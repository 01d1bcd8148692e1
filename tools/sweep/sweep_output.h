// Sweep output files (CSV or JSON, chosen by the output's extension) and the merge of
// `--shard K/N` outputs into exactly the bytes the unsharded sweep writes.
//
// CSV: the header (CsvHeader) then one line per point in grid order, "\n"-terminated. A
// shard's CSV (`--shard K/N`) has two more, last columns: kShardColumn ("K/N") and
// kGridPointsColumn (the whole grid's number of points), so that merge can tell a missing
// trailing point and a shard of another split; the merged CSV has neither. Merging:
// tools/sweep/shard_merge.h.
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
// (sweep_info.h documents the `sweep` members; sweep_row.h the row members.)
#ifndef AQESIM_TOOLS_SWEEP_SWEEP_OUTPUT_H_
#define AQESIM_TOOLS_SWEEP_SWEEP_OUTPUT_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/sweep/grid.h"
#include "tools/sweep/sweep_info.h"
#include "tools/sweep/sweep_row.h"

namespace aqesim::sweep {

enum class OutputFormat { kCsv, kJson };

/// Last columns of a shard's CSV: the shard ("K/N") and the number of points of the whole grid.
inline constexpr const char* kShardColumn = "shard";
inline constexpr const char* kGridPointsColumn = "gridPoints";

/// Format from the output path's extension (.csv / .json, case-insensitive); nullopt else.
std::optional<OutputFormat> FormatForPath(const std::string& path);

/// Renders the output document. `rows` in grid order; `info` is PreparedSweep::info.
std::string RenderSweep(OutputFormat format, const nlohmann::ordered_json& info,
                        const std::vector<std::string>& keys, const std::vector<SweepRow>& rows);

/// A sweep's JSON output, read back: its `sweep` object and its rows in file order.
struct SweepDocument {
  SweepInfo info;
  std::vector<SweepRow> rows;
};

/// Reads what RenderSweep(kJson) wrote (`doc` has "sweep" and "rows"). Every row must be as the
/// sweep writes it (RowFromJson against the grid's keys) and there must be at least one; nullopt
/// with "PATH: /pointer: ..." lines in `*errors` otherwise (for rows, the first bad one).
std::optional<SweepDocument> SweepFromJson(const nlohmann::json& doc, const std::string& path,
                                           std::vector<std::string>* errors);

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_SWEEP_OUTPUT_H_
