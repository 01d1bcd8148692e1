// Merging the outputs of `sweep --shard K/N` runs into exactly the bytes the unsharded sweep
// writes (tools/sweep/sweep_output.h describes both formats).
//
// Nothing in a shard is trusted: every row is read back as the sweep writes it (RowFromCsv,
// RowFromJson: finite, non-negative metrics in the sweep's own text form), a CSV's quoting is
// checked (a quoted field left open is an error, not a row that swallows the next lines; CRLF
// line ends are read as LF), every point's swept values must be the grid's values of that
// point (JSON: the grid the file names; CSV: the grid the rows themselves form), and every
// shard must be the shard its name and content say, of one N. Every problem names its file:
// "PATH: line L: message" (CSV), "PATH: /rows/I: message" (JSON), "PATH: message".
#ifndef AQESIM_TOOLS_SWEEP_SHARD_MERGE_H_
#define AQESIM_TOOLS_SWEEP_SHARD_MERGE_H_

#include <optional>
#include <string>
#include <vector>

#include "tools/sweep/grid.h"
#include "tools/sweep/sweep_output.h"

namespace aqesim::sweep {

/// One input of a merge: its path (for messages), its bytes, and the shard its name says it
/// is (shard-K-of-N.csv|json, in a shard folder or not): then every point must belong to that
/// shard, and the file's own label (a CSV's shard column, a JSON's /sweep/shard) must agree.
struct ShardFile {
  std::string path;
  std::string text;
  std::optional<Shard> shard;
};

/// Joins the outputs of `sweep --shard K/N` runs of one sweep into the unsharded output.
/// Every problem goes to `*errors` as "PATH: ..." (see the file comment); nullopt then.
std::optional<std::string> MergeShards(OutputFormat format, const std::vector<ShardFile>& shards,
                                       std::vector<std::string>* errors);

/// One record of a CSV text (RFC 4180: a quoted field may hold commas, quotes as "" and line
/// ends), with the line it starts on (1-based).
struct CsvRecord {
  size_t line = 0;
  std::vector<std::string> fields;
};
/// The records of `text`; "\r\n" ends a record like "\n", blank lines are skipped. A quoted
/// field that is never closed, or a quote inside an unquoted field, is an error ("PATH: line
/// L: ...") appended to `*errors`; false then.
bool ReadCsvRecords(const std::string& path, const std::string& text, std::vector<CsvRecord>* records,
                    std::vector<std::string>* errors);

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_SHARD_MERGE_H_
