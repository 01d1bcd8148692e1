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

void InstallHandlersOnce() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = RemoveTemporaryAndDie;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace

TemporaryFileGuard::TemporaryFileGuard(const std::string& path) {
  InstallHandlersOnce();
  if (path.size() > PATH_MAX) return;  // mkstemp made it, so it fits; never cut to another name
  g_registered = 0;
  std::memcpy(g_path, path.c_str(), path.size() + 1);
  g_registered = 1;
}

TemporaryFileGuard::~TemporaryFileGuard() { g_registered = 0; }

}  // namespace aqesim::sweep
