#include "tools/aqesim/cli_support.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "tools/sweep/temporary_file.h"

namespace aqesim::cli {

namespace {

// Writes to what is not a regular file (/dev/null, /dev/full, a FIFO with a reader) in place:
// renaming a temporary over a device node would replace the device.
void WriteInPlace(const std::string& path, const std::string& content) {
  // O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of waiting for one.
  const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  int err = fd < 0 ? errno : 0;
  if (err == 0 && ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) err = errno;
  const char* p = content.data();
  size_t left = content.size();
  while (err == 0 && left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno != EINTR) err = errno;
      continue;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  if (fd >= 0 && ::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) throw InputError(path + ": cannot write output: " + std::strerror(err));
}

}  // namespace

void CheckOutputIsNotInput(const std::string& path, const std::vector<std::string>& inputs) {
  std::error_code ec;
  for (const std::string& input : inputs) {
    if (path == "-" || input.empty()) continue;
    if (std::filesystem::equivalent(path, input, ec))
      throw InputError(path + ": cannot write output: it is the input " + input +
                       " (choose another output file)");
    // An input folder (a rolling event log's eventlog_v2_* directory) is read whole: nothing
    // may be written into it, whatever the file's name.
    if (std::filesystem::is_directory(input, ec)) {
      const std::filesystem::path parent = std::filesystem::absolute(path, ec).parent_path();
      if (std::filesystem::equivalent(parent, input, ec))
        throw InputError(path + ": cannot write output: it is inside the input folder " + input +
                         " (choose another output file)");
    }
  }
}

void WriteOutputAtomically(const std::string& path, const std::string& content,
                           const std::vector<std::string>& inputs) {
  if (path == "-") {
    std::cout << content;
    std::cout.flush();
    return;
  }
  namespace fs = std::filesystem;
  CheckOutputIsNotInput(path, inputs);
  std::error_code ec;
  fs::path target(path);
  const fs::file_status status = fs::status(target, ec);  // follows symbolic links
  if (ec && ec != std::errc::no_such_file_or_directory)
    throw InputError(path + ": cannot write output: " + ec.message());  // e.g. a symbolic link loop
  if (fs::is_directory(status)) throw InputError(path + ": cannot write output: " + std::strerror(EISDIR));
  if (fs::exists(status) && !fs::is_regular_file(status)) return WriteInPlace(path, content);
  // A symbolic link keeps pointing at its target: the target is replaced, not the link.
  while (fs::is_symlink(fs::symlink_status(target, ec))) {  // ends: a loop failed status() above
    const fs::path next = fs::read_symlink(target, ec);
    if (ec) throw InputError(path + ": cannot write output: " + ec.message());
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  // The temporary's name must fit where the output's does: a name near NAME_MAX is shortened.
  std::string tmpl = sweep::TemporaryNameTemplate(target);
  // The output keeps an existing file's permissions; a new one gets 0666 less the umask, as
  // any file a program creates.
  struct stat existing {};
  mode_t mode;
  if (::stat(target.c_str(), &existing) == 0) {
    mode = existing.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  const int fd = mkstemp(tmpl.data());
  if (fd < 0) {
    throw InputError(path + ": cannot write output: " + std::strerror(errno));
  }
  const sweep::TemporaryFileGuard guard(tmpl);  // a SIGTERM during the write removes it
  auto fail = [&](int err) {
    ::close(fd);
    ::unlink(tmpl.c_str());
    throw InputError(path + ": cannot write output: " + std::strerror(err));
  };
  const char* p = content.data();
  size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) fail(errno);
  if (::fchmod(fd, mode) != 0) fail(errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    throw InputError(path + ": cannot write output: " + std::strerror(err));
  }
  if (std::rename(tmpl.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmpl.c_str());
    throw InputError(path + ": cannot write output: " + std::strerror(err));
  }
}

void Warn(const std::string& message) { std::cerr << "aqesim: warning: " << message << "\n"; }

std::optional<double> ParseDecimal(const std::string& text) {
  size_t i = 0, digits = 0;
  auto run = [&] {  // a run of digits from i, its length
    const size_t from = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i - from;
  };
  digits += run();
  if (i < text.size() && text[i] == '.') {
    ++i;
    digits += run();
  }
  if (digits == 0) return std::nullopt;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (run() == 0) return std::nullopt;
  }
  if (i != text.size()) return std::nullopt;
  // strtod reads every such text; under- and overflow (ERANGE) give the nearest double: 1e-320
  // a subnormal or 0, 1e400 infinity, for the caller's range check to name.
  return std::strtod(text.c_str(), nullptr);
}

std::optional<int64_t> ParseDecimalInteger(const std::string& text, int64_t max) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t value = 0;
  for (const char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value > max) return std::nullopt;
  return value;
}

}  // namespace aqesim::cli
