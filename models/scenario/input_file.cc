#include "models/scenario/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace aqesim {

int ReadInputFile(const std::string& path, std::string* text) {
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
  } else if (::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
    // Blocking from here: a FIFO with a writer is read to its end, without one it is at EOF.
    err = errno;
  }
  char buf[1 << 16];
  while (err == 0) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      text->append(buf, static_cast<size_t>(n));
      if (!S_ISREG(st.st_mode) && text->size() > kMaxStreamBytes) err = EFBIG;
    } else if (n == 0) {
      break;
    } else if (errno != EINTR) {
      err = errno;
    }
  }
  ::close(fd);
  if (err != 0) text->clear();
  return err;
}

}  // namespace aqesim
