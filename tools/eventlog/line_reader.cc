#include "tools/eventlog/line_reader.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

namespace aqesim::eventlog {
namespace {

constexpr size_t kChunkBytes = 1 << 20;
/// Longest line read: Spark's largest events (a SQL execution's plan and its description) are
/// megabytes; a line beyond this is not an event.
constexpr size_t kMaxLineBytes = size_t{256} << 20;

constexpr int64_t kMaxRollingIndex = int64_t{1} << 40;

/// N of "events_<N>_..." or -1; a part whose N is beyond kMaxRollingIndex is an error (it
/// was ignored, which hid the parts missing before it).
int64_t RollingIndex(const std::string& name, const std::string& directory) {
  constexpr std::string_view kPrefix = "events_";
  if (name.compare(0, kPrefix.size(), kPrefix) != 0) return -1;
  size_t i = kPrefix.size();
  int64_t n = 0;
  bool digits = false;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) {
    n = n * 10 + (name[i] - '0');
    digits = true;
    ++i;
    if (n > kMaxRollingIndex)
      throw EventLogError(directory + ": event log file " + name + ": expected a part number of at most " +
                          std::to_string(kMaxRollingIndex));
  }
  if (!digits || i >= name.size() || name[i] != '_') return -1;
  return n;
}

}  // namespace

std::vector<std::string> RollingEventLogFiles(const std::string& directory) {
  namespace fs = std::filesystem;
  std::vector<std::pair<int64_t, std::string>> found;
  std::error_code ec;
  fs::directory_iterator it(directory, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const int64_t n = RollingIndex(name, directory);
    if (n < 0) continue;
    // A part that is a directory (or a FIFO, a socket, a dangling link) was skipped, and with it
    // the check for missing parts when it was the last one: half the log replayed, exit 0.
    std::error_code file_ec;
    if (!it->is_regular_file(file_ec))
      throw EventLogError(directory + ": event log file " + name + " is not a regular file");
    found.emplace_back(n, it->path().string());
  }
  if (ec) throw EventLogError(directory + ": " + ec.message());
  std::sort(found.begin(), found.end());
  std::vector<std::string> files;
  for (auto& [n, p] : found) files.push_back(std::move(p));
  return files;
}

EventLogLineReader::EventLogLineReader(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    files_ = RollingEventLogFiles(path);
    if (files_.empty()) {
      throw EventLogError(path + ": not an event log: a directory without events_<N>_* files");
    }
    // Like Spark's RollingEventLogFilesFileReader: the indices must be consecutive.
    for (size_t i = 1; i < files_.size(); ++i) {
      const std::string a = fs::path(files_[i - 1]).filename().string(),
                        b = fs::path(files_[i]).filename().string();
      const int64_t ia = RollingIndex(a, path), ib = RollingIndex(b, path);
      if (ib == ia)
        throw EventLogError(path + ": two event log files with index " + std::to_string(ia) + ": " + a +
                            ", " + b);
      if (ib != ia + 1)
        throw EventLogError(path + ": missing event log file events_" + std::to_string(ia + 1) +
                            "_*: found " + a + " then " + b);
    }
  } else {
    if (!fs::exists(fs::status(path, ec)))  // a symbolic link loop is not "no such file"
      throw EventLogError(
          path + ": " +
          (ec && ec != std::errc::no_such_file_or_directory ? ec.message() : "no such file or directory"));
    files_.push_back(path);
  }
}

bool EventLogLineReader::OpenNext() {
  if (source_ != nullptr && source_->truncated()) {
    warnings_.push_back(files_[next_file_ - 1] + ": compressed stream ends mid-block (truncated log?)");
  }
  source_.reset();
  if (next_file_ >= files_.size()) return false;
  Codec codec = Codec::kPlain;
  source_ = OpenByteSource(files_[next_file_], &codec);
  codecs_.push_back(codec);
  ++next_file_;
  line_number_ = 0;
  chunk_.clear();
  chunk_pos_ = 0;
  return true;
}

bool EventLogLineReader::Fill() {
  chunk_.resize(kChunkBytes);
  const size_t n = source_->Read(chunk_.data(), chunk_.size());
  chunk_.resize(n);
  chunk_pos_ = 0;
  return n > 0;
}

void EventLogLineReader::SkipBlankLines() {
  // A byte at a time, not a line at a time: a log of 2 GB of newlines (a 2 MB gzip) is read in
  // seconds, not minutes. Only whole lines of spaces, tabs and CRs are skipped; a line's own
  // leading blanks stay with it.
  size_t p = chunk_pos_;
  size_t after_newline = chunk_pos_;
  int64_t newlines = 0;
  const size_t n = chunk_.size();
  while (p < n) {
    const char c = chunk_[p];
    if (c == '\n') {
      ++newlines;
      after_newline = p + 1;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      break;
    }
    ++p;
  }
  chunk_pos_ = after_newline;
  line_number_ += newlines;
  blank_lines_ += newlines;
}

bool EventLogLineReader::Next(EventLogLine* line) {
  line->text.clear();
  while (true) {
    if (source_ == nullptr && !OpenNext()) return false;
    bool have_text = false;
    while (true) {
      if (chunk_pos_ >= chunk_.size() && !Fill()) break;
      if (line->text.empty()) SkipBlankLines();
      if (chunk_pos_ >= chunk_.size()) continue;
      const char* begin = chunk_.data() + chunk_pos_;
      const void* nl = std::memchr(begin, '\n', chunk_.size() - chunk_pos_);
      if (nl != nullptr) {
        const size_t len = static_cast<const char*>(nl) - begin;
        line->text.append(begin, len);
        chunk_pos_ += len + 1;
        if (!line->text.empty() && line->text.back() == '\r') line->text.pop_back();
        if (line->file != files_[next_file_ - 1]) line->file = files_[next_file_ - 1];
        line->line_number = ++line_number_;
        line->terminated = true;
        line->last_in_file = false;
        return true;
      }
      line->text.append(begin, chunk_.size() - chunk_pos_);
      chunk_pos_ = chunk_.size();
      have_text = true;
      if (line->text.size() > kMaxLineBytes)  // /dev/zero, or a bomb without newlines
        throw EventLogError(files_[next_file_ - 1] + ":" + std::to_string(line_number_ + 1) +
                            ": a line longer than " + std::to_string(kMaxLineBytes >> 20) +
                            " MiB (not an event log?)");
    }
    // End of this file.
    const std::string file = files_[next_file_ - 1];
    const int64_t last_number = line_number_ + 1;
    OpenNext();  // records a truncation warning, opens the next file if any
    if (have_text && !line->text.empty()) {
      if (line->text.back() == '\r') line->text.pop_back();
      line->file = file;
      line->line_number = last_number;
      line->terminated = false;
      line->last_in_file = true;
      return true;
    }
    if (source_ == nullptr) return false;
  }
}

}  // namespace aqesim::eventlog
