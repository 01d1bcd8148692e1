// A pipe holding given bytes (written whole, write end closed) whose read end a child process
// inherits: "/dev/fd/N" reads like a process substitution `<(...)` — a file with no second start,
// for tests that an input is read once.
#ifndef AQESIM_TESTS_SUPPORT_FILLED_PIPE_H_
#define AQESIM_TESTS_SUPPORT_FILLED_PIPE_H_

#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>

namespace aqesim::testing {

class FilledPipe {
 public:
  /// The pipe is enlarged to hold `bytes` (up to 1 MiB) so that no writer is needed afterwards.
  explicit FilledPipe(const std::string& bytes) {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    REQUIRE(fcntl(fds[1], F_SETPIPE_SZ, 1 << 20) >= static_cast<int>(bytes.size()));
    REQUIRE(write(fds[1], bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
    close(fds[1]);
    fd_ = fds[0];
  }
  ~FilledPipe() { close(fd_); }
  FilledPipe(const FilledPipe&) = delete;
  FilledPipe& operator=(const FilledPipe&) = delete;
  std::string path() const { return "/dev/fd/" + std::to_string(fd_); }

 private:
  int fd_ = -1;
};

}  // namespace aqesim::testing

#endif  // AQESIM_TESTS_SUPPORT_FILLED_PIPE_H_
