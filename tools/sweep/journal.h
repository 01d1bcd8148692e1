// The sweep journal: a JSON-lines file next to the sweep output (OUT + ".journal") that
// records every finished point as it completes, so a killed sweep loses nothing and
// re-running the same command resumes, skipping the points already there.
//
// Format: line 1 `{"aqesimSweepJournal":1,"fingerprint":"<16 hex>"}`; then one row per line
// as RowToJsonLine writes it, in completion order. Each row is appended with one write(2)
// on an O_APPEND descriptor, so rows never interleave; a row torn by a kill (no final
// newline, or not valid JSON) is detected and dropped when the journal is opened again.
// A journal whose fingerprint differs (another scenario, grid, conf or shard) is started
// over.
#ifndef AQESIM_TOOLS_SWEEP_JOURNAL_H_
#define AQESIM_TOOLS_SWEEP_JOURNAL_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tools/sweep/grid.h"
#include "tools/sweep/sweep_row.h"

namespace aqesim::sweep {

/// What was found in an existing journal.
struct JournalContents {
  std::map<uint64_t, SweepRow> rows;  // finished points by index (first record wins)
  int dropped_lines = 0;              // torn or malformed lines dropped
  bool started_over = false;          // the journal belonged to another sweep
};

class Journal {
 public:
  /// Opens `path` for appending, first reading the rows it holds when its fingerprint is
  /// `fingerprint`. A row is kept only when it reads back (RowFromJson: non-negative, finite
  /// metrics), its point is one of the grid's and its swept values are that point's in `axes`
  /// (the fingerprint is no checksum: an edited journal is not trusted); others count as
  /// dropped. Returns null with `*error` ("PATH: reason") when the file cannot be read or
  /// written.
  static std::unique_ptr<Journal> Open(const std::string& path, const std::string& fingerprint,
                                       const std::vector<GridAxis>& axes, JournalContents* contents,
                                       std::string* error);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  /// Appends one row (one write). Not thread-safe: callers serialize. False with `*error`
  /// when the write fails.
  bool Append(const SweepRow& row, std::string* error);

  const std::string& path() const { return path_; }

 private:
  Journal(std::string path, int fd, std::vector<std::string> keys)
      : path_(std::move(path)), fd_(fd), keys_(std::move(keys)) {}
  std::string path_;
  int fd_ = -1;
  std::vector<std::string> keys_;
};

/// 64-bit FNV-1a of `text`, as 16 lowercase hex digits.
std::string Fingerprint(const std::string& text);

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_JOURNAL_H_
