// aqesim: a simulator of Apache Spark's Adaptive Query Execution. Thin main: the
// subcommands live one per file (cmd_*.cc) and are listed in the table below.
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/scenario/error_cap.h"
#include "tools/aqesim/cli_support.h"
#include "tools/aqesim/commands.h"

namespace {

using Register = void (*)(CLI::App&);
constexpr Register kCommands[] = {
    aqesim::cli::RegisterRun,       aqesim::cli::RegisterExplain,        aqesim::cli::RegisterValidate,
    aqesim::cli::RegisterCalibrate, aqesim::cli::RegisterImportEventlog, aqesim::cli::RegisterSweep,
    aqesim::cli::RegisterMerge,     aqesim::cli::RegisterReport,         aqesim::cli::RegisterScale,
    aqesim::cli::RegisterCompare,   aqesim::cli::RegisterTune,           aqesim::cli::RegisterConfKeys,
};

#ifndef AQESIM_VERSION  // set by tools/CMakeLists.txt from the project's version
#define AQESIM_VERSION "unknown"
#endif

/// `aqesim --version`: the program's version and the Spark behaviour it models.
constexpr const char* kVersionText =
    "aqesim " AQESIM_VERSION
    "\n"
    "models Apache Spark 4.0's Adaptive Query Execution; configuration defaults are Spark 4.0's\n"
    "(set a key to another version's default to model that version)";

/// What is printed when the input needs more memory than the process may have: the command
/// line names the input. Built before any input is read (the terminate handler must not
/// allocate: memory is what ran out).
std::string out_of_memory_text;  // NOLINT: read by the terminate handler, which takes no argument

std::string OutOfMemoryText(int argc, char** argv) {
  std::string command = "aqesim";
  for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
  return "aqesim: error: " + command +
         ": the input needs more memory than this process may use (std::bad_alloc: see ulimit -v, "
         "or the container's memory limit); README \"Input limits\" lists the sizes refused up front\n";
}

/// A std::bad_alloc that ends the program by std::terminate rather than by reaching main's catch
/// (nlohmann::json frees an array's elements through a heap stack in its noexcept destructor:
/// a parse that ran out of memory part way through a huge array throws again there) is the
/// same error, exit 2; any other exception reaching terminate is a defect and still aborts.
[[noreturn]] void OnTerminate() {
  bool out_of_memory = false;
  if (std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      out_of_memory = true;
    } catch (...) {
    }
  }
  if (out_of_memory) {
    std::fputs(out_of_memory_text.c_str(), stderr);
    std::_Exit(2);
  }
  std::fputs("aqesim: internal error: std::terminate\n", stderr);
  std::abort();
}

}  // namespace

int main(int argc, char** argv) {
  out_of_memory_text = OutOfMemoryText(argc, argv);
  std::set_terminate(OnTerminate);
  CLI::App app{"aqesim: simulate Apache Spark's Adaptive Query Execution on a modelled cluster"};
  app.set_version_flag("--version", kVersionText);
  app.require_subcommand(1);
  for (Register reg : kCommands) reg(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    // A first word that is no subcommand: name it and the subcommands there are.
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      names += (names.empty() ? "" : ", ") + sub->get_name();
      known |= argc > 1 && sub->get_name() == argv[1];
    }
    if (argc > 1 && argv[1][0] != '-' && !known) {
      std::cerr << "aqesim: error: unknown command \"" << argv[1] << "\" (expected one of: " << names
                << ")\n";
      return 2;
    }
    std::cerr << "aqesim: error: " << e.what() << "\n";
    return 2;
  } catch (const aqesim::cli::InputError& e) {
    // The first kMaxErrorsListed lines, then how many more (a loader's list is capped already;
    // a sweep's bad grid values are not).
    const std::vector<std::string>& lines = e.lines();
    const size_t shown =
        lines.size() > aqesim::kMaxErrorsListed + 1 ? aqesim::kMaxErrorsListed : lines.size();
    for (size_t i = 0; i < shown; ++i) std::cerr << "aqesim: error: " << lines[i] << "\n";
    if (shown < lines.size())
      std::cerr << "aqesim: error: " << aqesim::MoreErrorsMessage(lines.size() - shown) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::fputs(out_of_memory_text.c_str(), stderr);
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "aqesim: internal error: " << e.what() << "\n";
    return 1;
  }
  // What went to standard output must have arrived (a full disk, `> /dev/full`, a closed pipe
  // reader): a command that printed its result nowhere did not succeed.
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    const int err = errno;
    std::cerr << "aqesim: error: cannot write to standard output" << (err != 0 ? ": " : "")
              << (err != 0 ? std::strerror(err) : "") << "\n";
    return 2;
  }
  return 0;
}
