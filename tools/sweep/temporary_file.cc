#include "tools/sweep/temporary_file.h"

#include <signal.h>
#include <unistd.h>

#include <climits>
#include <cstring>

namespace aqesim::sweep {

namespace {

char g_path[PATH_MAX + 1];
volatile sig_atomic_t g_registered = 0;

// Async-signal-safe: unlink, signal and raise only.
extern "C" void RemoveTemporaryAndDie(int sig) {
  if (g_registered) ::unlink(g_path);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Installs the handler on each signal whose handler is not it, except those the process was
// started ignoring (nohup): each guard checks, since another component (a test framework's
// fatal-signal handler) may have replaced it since.
void InstallHandlers() {
  static const int kSignals[] = {SIGTERM, SIGINT, SIGHUP};
  static bool ignored[3] = {false, false, false};
  static bool first = true;
  for (int i = 0; i < 3; ++i) {
    struct sigaction old {};
    if (::sigaction(kSignals[i], nullptr, &old) != 0) continue;
    if (first) ignored[i] = old.sa_handler == SIG_IGN;
    if (ignored[i] || old.sa_handler == RemoveTemporaryAndDie) continue;
    struct sigaction sa {};
    sa.sa_handler = RemoveTemporaryAndDie;
    sigemptyset(&sa.sa_mask);
    ::sigaction(kSignals[i], &sa, nullptr);
  }
  first = false;
}

}  // namespace

TemporaryFileGuard::TemporaryFileGuard(const std::string& path) {
  InstallHandlers();
  if (path.size() > PATH_MAX) return;  // mkstemp made it, so it fits; never cut to another name
  g_registered = 0;
  std::memcpy(g_path, path.c_str(), path.size() + 1);
  g_registered = 1;
}

TemporaryFileGuard::~TemporaryFileGuard() { g_registered = 0; }

std::string TemporaryNameTemplate(const std::filesystem::path& target) {
  const std::filesystem::path dir =
      target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string base = target.filename().string();
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  const size_t limit = static_cast<size_t>(name_max > 0 ? name_max : NAME_MAX);
  const std::string suffix = ".tmp-XXXXXX";
  if (1 + base.size() + suffix.size() > limit)
    base.resize(limit > 1 + suffix.size() ? limit - 1 - suffix.size() : 0);
  return (dir / ("." + base + suffix)).string();
}

}  // namespace aqesim::sweep
