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
#include <functional>
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

struct LineJournalStats {
  int dropped_lines = 0;      // torn or refused lines dropped
  bool started_over = false;  // the file belonged to another run
};

/// A JSON-lines journal of records: line 1 `{"aqesim<Kind>Journal":1,"fingerprint":"<16 hex>"}`
/// (Kind capitalised: aqesimSweepJournal, aqesimTuneJournal), then one record per line, each
/// appended with one write(2) on an O_APPEND descriptor. Opening reads the existing records back
/// through `keep` (false: the line is dropped) when the header matches, else starts the file over;
/// a torn last line is dropped.
class LineJournal {
 public:
  /// `kind` ("sweep", "tune") names the journal in messages ("PATH: cannot write the tune
  /// journal: ..."). Null with `*error` when the file cannot be read or written.
  static std::unique_ptr<LineJournal> Open(const std::string& path, const std::string& kind,
                                           const std::string& fingerprint,
                                           const std::function<bool(const nlohmann::json&)>& keep,
                                           LineJournalStats* stats, std::string* error);
  ~LineJournal();
  LineJournal(const LineJournal&) = delete;
  LineJournal& operator=(const LineJournal&) = delete;

  /// Appends one record (one write; `line` without its newline). Not thread-safe: callers
  /// serialize. False with `*error` when the write fails.
  bool Append(const std::string& line, std::string* error);
  const std::string& path() const { return path_; }

 private:
  LineJournal(std::string path, std::string what, int fd)
      : path_(std::move(path)), what_(std::move(what)), fd_(fd) {}
  std::string path_;
  std::string what_;
  int fd_ = -1;
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

  /// Appends one row (one write). Not thread-safe: callers serialize. False with `*error`
  /// when the write fails.
  bool Append(const SweepRow& row, std::string* error);

  const std::string& path() const { return lines_->path(); }

 private:
  Journal(std::unique_ptr<LineJournal> lines, std::vector<std::string> keys)
      : lines_(std::move(lines)), keys_(std::move(keys)) {}
  std::unique_ptr<LineJournal> lines_;
  std::vector<std::string> keys_;
};

/// 64-bit FNV-1a of `text`, as 16 lowercase hex digits.
std::string Fingerprint(const std::string& text);

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_JOURNAL_H_
