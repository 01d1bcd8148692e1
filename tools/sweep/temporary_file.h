// A temporary output file that a terminating signal removes: every atomic write (-o's
// `.OUT.tmp-XXXXXX`, a journal's rewrite) registers its temporary while it exists, and SIGTERM,
// SIGINT or SIGHUP then unlinks it before the process ends by that signal, as it would have
// (exit status 128 + N). A kill during the write of a 140 MB output left it behind, full size.
// A signal the process was started ignoring (nohup) stays ignored. SIGKILL cannot be caught: a
// temporary can still be left then, never the output half-written.
#ifndef AQESIM_TOOLS_SWEEP_TEMPORARY_FILE_H_
#define AQESIM_TOOLS_SWEEP_TEMPORARY_FILE_H_

#include <filesystem>
#include <string>

namespace aqesim::sweep {

/// The mkstemp template of a temporary beside `target` (a file path): "DIR/.NAME.tmp-XXXXXX",
/// NAME shortened so that the whole name fits the folder's NAME_MAX as the output's does.
std::string TemporaryNameTemplate(const std::filesystem::path& target);

/// Registers `path` (one at a time, process-wide; not thread-safe: the command's main thread
/// writes its outputs) as the temporary a terminating signal removes, until the object goes
/// away. Installs the signal handlers where they are not (again if something replaced them).
class TemporaryFileGuard {
 public:
  explicit TemporaryFileGuard(const std::string& path);
  ~TemporaryFileGuard();
  TemporaryFileGuard(const TemporaryFileGuard&) = delete;
  TemporaryFileGuard& operator=(const TemporaryFileGuard&) = delete;
};

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_TEMPORARY_FILE_H_
