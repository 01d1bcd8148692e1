#include "tools/sweep/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "tools/sweep/temporary_file.h"

namespace aqesim::sweep {

namespace {

constexpr int kJournalVersion = 1;
// A journal line is one point's row or one configuration's evaluation: a few KiB (a conf value
// is at most 64 KiB). Longer lines are damage, dropped unread; the rows kept are bounded too.
constexpr size_t kMaxJournalLineBytes = size_t{16} << 20;
constexpr size_t kMaxJournalBytes = size_t{1} << 30;

bool WriteAll(int fd, const std::string& data, std::string* error, const std::string& what) {
  const char* p = data.data();
  size_t left = data.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = "cannot write " + what + ": " + std::strerror(errno);
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

// Replaces the file with `content` (temporary + rename: a kill leaves the old or the new). The
// temporary is a new file of an unpredictable name in the same folder (".NAME.tmp-XXXXXX",
// created with O_EXCL like -o's), so it never truncates a file that is already there.
bool Rewrite(const std::string& path, const std::string& content, const std::string& what,
             std::string* error) {
  std::string tmp = TemporaryNameTemplate(path);
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) {
    *error = path + ": cannot write " + what + ": " + std::strerror(errno);
    return false;
  }
  const TemporaryFileGuard guard(tmp);  // a SIGTERM during the write removes it
  const mode_t mask = ::umask(0);       // a new file's mode: 0666 less the umask, as before
  ::umask(mask);
  std::string why;
  bool ok = WriteAll(fd, content, &why, what) && ::fchmod(fd, 0666 & ~mask) == 0 && ::fsync(fd) == 0;
  int err = ok ? 0 : errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    *error = path + ": " + (why.empty() ? "cannot write " + what + ": " + std::strerror(err) : why);
    ::unlink(tmp.c_str());
  }
  return ok;
}

}  // namespace

std::string Fingerprint(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a 64 offset basis
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;  // FNV-1a 64 prime
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::unique_ptr<LineJournal> LineJournal::Open(const std::string& path, const std::string& kind,
                                               const std::string& fingerprint,
                                               const std::function<bool(const nlohmann::json&)>& keep,
                                               LineJournalStats* stats, std::string* error) {
  *stats = LineJournalStats{};
  const std::string what = "the " + kind + " journal";
  const std::string tag =
      "{\"aqesim" + std::string(1, static_cast<char>(std::toupper(kind[0]))) + kind.substr(1) + "Journal\":";
  const std::string header =
      tag + std::to_string(kJournalVersion) + ",\"fingerprint\":\"" + fingerprint + "\"}";
  std::ifstream in(path, std::ios::binary);
  const bool exists = static_cast<bool>(in);
  // A file that is no journal of this kind (a scenario, a log, another command's journal) is
  // someone's data: refused, never started over.
  if (exists) {
    std::string head(tag.size(), '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    if (!head.empty() && head != tag) {
      *error = path + ": cannot write " + what + ": the file exists and is not a " + kind + " journal" +
               " (remove it, or choose another output)";
      return nullptr;
    }
    in.clear();
    in.seekg(0);
  }
  // Keep the header and every complete line `keep` accepts; anything else is dropped by rewriting.
  // Read in blocks: a line longer than kMaxJournalLineBytes is dropped without being held (one
  // line of 900 MiB ran out of memory), and lines past kMaxJournalBytes kept are dropped too.
  std::string kept = header + "\n";
  bool rewrite = !exists;
  if (exists) {
    bool header_read = false, done = false;
    std::string line;
    bool too_long = false;
    // A complete line (or, `torn`, the last bytes without a newline).
    auto on_line = [&](bool torn) {
      if (!header_read) {
        header_read = true;
        if (torn || too_long || line != header) {
          stats->started_over = true;
          rewrite = true;
          done = true;
        }
        return;
      }
      if (torn || too_long || kept.size() + line.size() >= kMaxJournalBytes) {
        ++stats->dropped_lines;
        rewrite = true;
        return;
      }
      const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded() || !keep(j)) {
        ++stats->dropped_lines;
        rewrite = true;
        return;
      }
      kept += line;
      kept += '\n';
    };
    std::vector<char> block(size_t{1} << 16);
    while (!done) {
      in.read(block.data(), static_cast<std::streamsize>(block.size()));
      const size_t n = static_cast<size_t>(in.gcount());
      if (n == 0) break;
      for (size_t i = 0; i < n && !done;) {
        const void* found = std::memchr(block.data() + i, '\n', n - i);
        const size_t end =
            found != nullptr ? static_cast<size_t>(static_cast<const char*>(found) - block.data()) : n;
        if (!too_long && line.size() + (end - i) > kMaxJournalLineBytes) {
          too_long = true;
          std::string().swap(line);
        }
        if (!too_long) line.append(block.data() + i, end - i);
        i = end;
        if (found != nullptr) {
          on_line(false);
          line.clear();
          too_long = false;
          ++i;
        }
      }
    }
    // An empty file is started afresh without a word; a last line without its newline was torn
    // when the command was killed.
    if (!done && (!line.empty() || too_long)) on_line(true);
    if (!header_read) rewrite = true;
  }
  in.close();
  if (rewrite && !Rewrite(path, kept, what, error)) return nullptr;
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND);
  if (fd < 0) {
    *error = path + ": cannot open " + what + ": " + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<LineJournal>(new LineJournal(path, what, fd));
}

LineJournal::~LineJournal() {
  if (fd_ >= 0) ::close(fd_);
}

bool LineJournal::Append(const std::string& line, std::string* error) {
  std::string why;
  if (WriteAll(fd_, line + "\n", &why, what_)) return true;
  *error = path_ + ": " + why;
  return false;
}

std::unique_ptr<Journal> Journal::Open(const std::string& path, const std::string& fingerprint,
                                       const std::vector<GridAxis>& axes, JournalContents* contents,
                                       std::string* error) {
  *contents = JournalContents{};
  std::vector<std::string> keys;
  for (const GridAxis& a : axes) keys.push_back(a.key);
  const uint64_t num_points = GridPointCount(axes);
  LineJournalStats stats;
  auto lines = LineJournal::Open(
      path, "sweep", fingerprint,
      [&](const nlohmann::json& j) {
        std::string why;
        std::optional<SweepRow> row = RowFromJson(j, keys, &why);
        if (!row || row->point >= num_points || contents->rows.count(row->point) ||
            row->values != GridPointValues(axes, row->point))
          return false;
        contents->rows.emplace(row->point, std::move(*row));
        return true;
      },
      &stats, error);
  contents->dropped_lines = stats.dropped_lines;
  contents->started_over = stats.started_over;
  if (!lines) return nullptr;
  return std::unique_ptr<Journal>(new Journal(std::move(lines), std::move(keys)));
}

bool Journal::Append(const SweepRow& row, std::string* error) {
  return lines_->Append(RowToJsonLine(row, keys_), error);
}

}  // namespace aqesim::sweep
