// TemporaryFileGuard (tools/sweep/temporary_file.h): a SIGTERM while a temporary is registered
// removes it and still ends the process by SIGTERM; once the guard is gone the file is the
// caller's again. Each case runs in a child process (the signal ends it).
#include "tools/sweep/temporary_file.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

namespace aqesim::sweep {
namespace {

namespace fs = std::filesystem;

// Forks; the child creates `path`, registers it while `registered`, raises SIGTERM and (had the
// signal not ended it) exits 0. Returns the child's wait status.
int RaiseInChild(const std::string& path, bool registered) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    { std::ofstream(path) << "partial output"; }
    if (registered) {
      const TemporaryFileGuard guard(path);
      ::raise(SIGTERM);
    } else {
      { const TemporaryFileGuard guard(path); }
      ::raise(SIGTERM);
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST_CASE("TemporaryFileGuard: SIGTERM removes the registered temporary and still ends the process",
          "[sweep][outputs]") {
  const fs::path dir = fs::temp_directory_path() / ("aqesim_tmpguard_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / ".out.json.tmp-abc123").string();
  SECTION("registered: removed") {
    const int status = RaiseInChild(path, true);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGTERM);
    CHECK_FALSE(fs::exists(path));
  }
  SECTION("no longer registered (renamed into place): kept") {
    const int status = RaiseInChild(path, false);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGTERM);
    CHECK(fs::exists(path));
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace aqesim::sweep
