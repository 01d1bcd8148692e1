// Reads an event log line by line, streaming: a single file (any codec of byte_source.h) or
// a rolling event-log directory `eventlog_v2_<appId>/` (Spark 3.0+,
// core/.../deploy/history/EventLogFileReaders.scala): the `events_<N>_<appId>[.codec]`
// files in order of N, each with its own codec; the `appstatus_*` marker is ignored.
#ifndef AQESIM_TOOLS_EVENTLOG_LINE_READER_H_
#define AQESIM_TOOLS_EVENTLOG_LINE_READER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tools/eventlog/byte_source.h"

namespace aqesim::eventlog {

struct EventLogLine {
  std::string text;           // without the trailing "\n" (and "\r")
  std::string file;           // the file it came from
  int64_t line_number = 0;    // 1-based within `file`
  bool terminated = true;     // false: the file ended without a newline after this line
  bool last_in_file = false;  // true when nothing follows in `file` (set for unterminated lines)
};

class EventLogLineReader {
 public:
  /// Opens `path` (file or rolling directory). Throws EventLogError when it cannot be read
  /// or a rolling directory holds no events_* file.
  explicit EventLogLineReader(const std::string& path);

  /// Next line that is not blank; false at the end of the last file. Throws EventLogError on
  /// corrupt data.
  bool Next(EventLogLine* line);

  /// The files read, in order.
  const std::vector<std::string>& files() const { return files_; }
  /// Codec of each file in files() (filled as files are opened).
  const std::vector<Codec>& codecs() const { return codecs_; }
  /// Lines of only spaces, tabs and CRs skipped so far (Next never returns them).
  int64_t blank_lines() const { return blank_lines_; }
  /// Non-fatal problems seen so far ("FILE: compressed stream ends mid-block (truncated log)").
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  bool OpenNext();
  bool Fill();
  /// Moves past the whole blank lines at the chunk position (counting them).
  void SkipBlankLines();

  std::vector<std::string> files_;
  std::vector<Codec> codecs_;
  std::vector<std::string> warnings_;
  size_t next_file_ = 0;
  std::unique_ptr<ByteSource> source_;
  std::string chunk_;
  size_t chunk_pos_ = 0;
  int64_t line_number_ = 0;
  int64_t blank_lines_ = 0;
};

/// The events_* files of a rolling event-log directory, in order (empty if none).
std::vector<std::string> RollingEventLogFiles(const std::string& directory);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_LINE_READER_H_
