// The shared output folder of a sharded sweep (`sweep --shard K/N|auto -o FOLDER/`): each
// shard writes FOLDER/shard-K-of-N.csv (or .json) atomically once all its points are done, K
// zero-padded to N's width so that names sort in shard order (shard-03-of-16.csv), and
// journals its points to that name + ".journal" while it runs (tools/sweep/journal.h), so a
// re-run of a failed element resumes. `merge FOLDER` scans the folder: every shard 1..N once,
// all of one N.
#ifndef AQESIM_TOOLS_SWEEP_SHARD_FOLDER_H_
#define AQESIM_TOOLS_SWEEP_SHARD_FOLDER_H_

#include <optional>
#include <string>
#include <vector>

#include "tools/sweep/grid.h"
#include "tools/sweep/sweep_output.h"

namespace aqesim::sweep {

/// "shard-K-of-N.csv" / ".json", K zero-padded to the digits of N.
std::string ShardFileName(const Shard& shard, OutputFormat format);

/// What a file name says: shard k of n (not range-checked) and the format. nullopt when the
/// name is not shard-DIGITS-of-DIGITS.csv|json (journals, temporaries, other files).
struct ShardFileNameParts {
  int k = 0;
  int n = 0;
  OutputFormat format = OutputFormat::kCsv;
};
std::optional<ShardFileNameParts> ParseShardFileName(const std::string& file_name);

/// A shard output found in the folder.
struct FolderShard {
  std::string path;
  Shard shard;
};

/// The folder's shard outputs of one format.
struct ShardFolderScan {
  std::vector<FolderShard> shards;  // present, in shard order
  int count = 0;                    // N the files name; 0 when there is none
  std::vector<int> missing;         // K of the shards 1..N without a file, ascending
  /// Problems that waiting cannot cure, one line each ("FOLDER: ..."): the folder cannot be
  /// read, files name different N, a shard twice, a shard outside 1..N.
  std::vector<std::string> errors;
};

/// Scans `folder` for shard-K-of-N files of `format`; other files are ignored.
ShardFolderScan ScanShardFolder(const std::string& folder, OutputFormat format);

/// One line for a scan without errors whose shards are not all there ("FOLDER: no shard
/// output ..." or "FOLDER: shards missing: 2 and 4 of 4 (...)"); empty when none is missing.
std::string DescribeMissingShards(const ShardFolderScan& scan, const std::string& folder,
                                  OutputFormat format);

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_SHARD_FOLDER_H_
