#include "tools/sweep/journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace aqesim::sweep {

namespace {

constexpr int kJournalVersion = 1;

std::string HeaderLine(const std::string& fingerprint) {
  return "{\"aqesimSweepJournal\":" + std::to_string(kJournalVersion) + ",\"fingerprint\":\"" + fingerprint +
         "\"}";
}

bool WriteAll(int fd, const std::string& data, std::string* error, const std::string& path) {
  const char* p = data.data();
  size_t left = data.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = path + ": cannot write the sweep journal: " + std::strerror(errno);
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

// Replaces the file with `content` (temporary + rename: a kill leaves the old or the new).
bool Rewrite(const std::string& path, const std::string& content, std::string* error) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    *error = path + ": cannot write the sweep journal: " + std::strerror(errno);
    return false;
  }
  const bool ok = WriteAll(fd, content, error, path) && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    if (error->empty()) *error = path + ": cannot write the sweep journal: " + std::strerror(errno);
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
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

std::unique_ptr<Journal> Journal::Open(const std::string& path, const std::string& fingerprint,
                                       const std::vector<GridAxis>& axes, JournalContents* contents,
                                       std::string* error) {
  *contents = JournalContents{};
  std::vector<std::string> keys;
  for (const GridAxis& a : axes) keys.push_back(a.key);
  const uint64_t num_points = GridPointCount(axes);
  std::string existing;
  bool exists = false;
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      exists = true;
      std::ostringstream ss;
      ss << in.rdbuf();
      existing = ss.str();
    }
  }
  // Keep the header and every complete, valid row; anything else is dropped by rewriting.
  std::string kept = HeaderLine(fingerprint) + "\n";
  bool rewrite = !exists;
  if (exists) {
    const size_t first_nl = existing.find('\n');
    const std::string header = existing.substr(0, first_nl);
    if (first_nl == std::string::npos || header != HeaderLine(fingerprint)) {
      contents->started_over = !existing.empty();
      rewrite = true;
    } else {
      size_t pos = first_nl + 1;
      while (pos < existing.size()) {
        const size_t nl = existing.find('\n', pos);
        if (nl == std::string::npos) {  // torn last row: written partly when the sweep was killed
          ++contents->dropped_lines;
          rewrite = true;
          break;
        }
        const std::string line = existing.substr(pos, nl - pos);
        pos = nl + 1;
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        std::string why;
        std::optional<SweepRow> row = j.is_discarded() ? std::nullopt : RowFromJson(j, keys, &why);
        if (!row || row->point >= num_points || contents->rows.count(row->point) ||
            row->values != GridPointValues(axes, row->point)) {
          ++contents->dropped_lines;
          rewrite = true;
          continue;
        }
        kept += line + "\n";
        contents->rows.emplace(row->point, std::move(*row));
      }
    }
  }
  if (rewrite && !Rewrite(path, kept, error)) return nullptr;
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND);
  if (fd < 0) {
    *error = path + ": cannot open the sweep journal: " + std::strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<Journal>(new Journal(path, fd, keys));
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

bool Journal::Append(const SweepRow& row, std::string* error) {
  return WriteAll(fd_, RowToJsonLine(row, keys_) + "\n", error, path_);
}

}  // namespace aqesim::sweep
