#include "models/scenario/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace aqesim {

int InputFiles::Read(const std::string& path, std::string* text, size_t max_bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = read_.find(path);
  if (it == read_.end()) {
    std::string bytes;
    const int err = ReadInputFile(path, &bytes, max_bytes);
    it = read_.emplace(path, std::make_pair(err, std::move(bytes))).first;
  }
  *text = it->second.second;
  return it->second.first;
}

int ReadInputFileOnce(InputFiles* files, const std::string& path, std::string* text, size_t max_bytes) {
  return files != nullptr ? files->Read(path, text, max_bytes) : ReadInputFile(path, text, max_bytes);
}

int ReadInputFile(const std::string& path, std::string* text, size_t max_bytes) {
  text->clear();
  // O_NONBLOCK: opening a FIFO for reading otherwise waits until a writer opens it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return errno;
  struct stat st {};
  int err = 0;
  if (::fstat(fd, &st) != 0) {
    err = errno;
  } else if (S_ISDIR(st.st_mode)) {
    err = EISDIR;
  } else if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > max_bytes) {
    err = EFBIG;  // refused before reading
  } else if (::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
    // Blocking from here: a FIFO with a writer is read to its end, without one it is at EOF.
    err = errno;
  }
  char buf[1 << 16];
  while (err == 0) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      text->append(buf, static_cast<size_t>(n));
      if (text->size() > max_bytes) err = EFBIG;  // a device or FIFO, or a file that grew
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      err = errno;
    }
  }
  ::close(fd);
  if (err != 0) {
    text->clear();
    text->shrink_to_fit();
  }
  return err;
}

std::string InputFileError(int err, size_t max_bytes) {
  if (err == EFBIG) return "larger than " + std::to_string(max_bytes) + " bytes, the limit for this input";
  return std::strerror(err);
}

}  // namespace aqesim
