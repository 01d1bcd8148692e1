// The bad-input corpus (tests/bad_inputs/): every case runs the aqesim binary and must exit
// with the expected code (2), print exactly one precise error line, write no output file
// (not even a temporary), not crash and not hang. Also replays the fuzzers' regression
// inputs (tests/fuzz/regressions/<target>/) and seed corpora through the fuzz target bodies.
//
// A case is NAME.expect (the input, when there is one, sits next to it):
//   # what the case is
//   input: NAME.json            file under tests/bad_inputs ({in})
//   args: run {in} -o {out}     arguments; {in}, {out} (in a fresh directory), {dir} (tests/bad_inputs)
//   exit: 2
//   error: {in}: /plan/bytes: expected ...   the one "aqesim: error: " line, placeholders expanded
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <optional>
#include <chrono>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"
#include "tests/fuzz/fuzz_targets.h"

namespace aqesim::e2e {
namespace {

namespace fs = std::filesystem;

// A hung case is killed after this long and fails (a guard, not a performance assertion).
constexpr int kHangSeconds = 120;

struct TimedResult {
  int exit_code = -1;  // -1: killed or could not run
  bool timed_out = false;
  int signal = 0;  // the signal that ended the process, if any
  std::string stdout_text, stderr_text;
};

// Runs the binary with `args`, killing it after `seconds`.
TimedResult RunWithDeadline(const std::vector<std::string>& args, int seconds) {
  TimedResult result;
  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0) return result;
  if (pipe(err_pipe) != 0) return result;
  std::vector<std::string> storage{BinaryPath()};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    execv(storage[0].c_str(), argv.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.stdout_text, &result.stderr_text};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int open_fds = 2;
  char buf[1 << 16];
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    if (poll(fds, 2, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof(buf));
      if (n > 0) {
        sinks[i]->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::string Replace(std::string s, const std::map<std::string, std::string>& vars) {
  for (const auto& [key, value] : vars) {
    for (size_t pos = 0; (pos = s.find(key, pos)) != std::string::npos; pos += value.size()) s.replace(pos, key.size(), value);
  }
  return s;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

struct Case {
  std::string name, input, args, error;
  int exit_code = 2;
};

Case ReadCase(const fs::path& expect) {
  Case c;
  c.name = expect.stem().string();
  std::ifstream in(expect);
  for (std::string line; std::getline(in, line);) {
    auto value = [&](const char* key) -> std::optional<std::string> {
      const std::string k = std::string(key) + ": ";
      if (line.rfind(k, 0) == 0) return line.substr(k.size());
      return std::nullopt;
    };
    if (auto v = value("input")) c.input = *v;
    if (auto v = value("args")) c.args = *v;
    if (auto v = value("exit")) c.exit_code = std::stoi(*v);
    if (auto v = value("error")) c.error = *v;
  }
  return c;
}

std::vector<fs::path> CaseFiles() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(SourcePath("tests/bad_inputs")))
    if (e.path().extension() == ".expect") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("bad-input corpus: at least 40 cases, each with an expected error line", "[e2e][bad_inputs]") {
  const auto files = CaseFiles();
  CHECK(files.size() >= 40);
  for (const fs::path& f : files) {
    const Case c = ReadCase(f);
    INFO(c.name);
    CHECK(!c.args.empty());
    CHECK(!c.error.empty());
    if (!c.input.empty()) CHECK(fs::exists(SourcePath("tests/bad_inputs/" + c.input)));
  }
}

TEST_CASE("bad-input corpus: exit 2, one precise message, no output file, no crash or hang", "[e2e][bad_inputs]") {
  const std::string dir = SourcePath("tests/bad_inputs");
  int ran = 0;
  for (const fs::path& f : CaseFiles()) {
    const Case c = ReadCase(f);
    const fs::path out_dir = fs::temp_directory_path() / ("aqesim-bad-" + std::to_string(getpid()) + "-" + c.name);
    fs::remove_all(out_dir);
    fs::create_directories(out_dir);
    const std::map<std::string, std::string> vars = {
        {"{in}", dir + "/" + c.input}, {"{out}", (out_dir / "out.json").string()}, {"{dir}", dir}};
    std::vector<std::string> args;
    std::istringstream words(c.args);
    for (std::string w; words >> w;) args.push_back(Replace(w, vars));
    const TimedResult r = RunWithDeadline(args, kHangSeconds);
    ++ran;

    INFO("case " << c.name << ": aqesim " << c.args << "\nstderr:\n" << r.stderr_text);
    CHECK_FALSE(r.timed_out);
    CHECK(r.signal == 0);
    CHECK(r.exit_code == c.exit_code);
    std::vector<std::string> errors, others;
    for (const std::string& line : Lines(r.stderr_text)) {
      if (line.rfind("aqesim: error: ", 0) == 0) errors.push_back(line.substr(15));
      else if (line.rfind("aqesim: warning: ", 0) != 0) others.push_back(line);
    }
    CHECK(errors == std::vector<std::string>{Replace(c.error, vars)});
    CHECK(others.empty());  // nothing but errors and warnings (no "internal error", no sanitizer report)
    CHECK(r.stdout_text.empty());
    // No output file and no temporary left behind.
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(out_dir)) left.push_back(e.path().filename().string());
    CHECK(left.empty());
    fs::remove_all(out_dir);
  }
  CHECK(ran >= 40);
}

TEST_CASE("fuzz regressions and seed corpora replay without breaking a contract", "[e2e][fuzz]") {
  // The targets abort on a broken contract; a sanitizer build reports memory errors and UB.
  int replayed = 0;
  for (const fuzz::Target& t : fuzz::kTargets) {
    for (const char* kind : {"regressions", "corpus"}) {
      const fs::path d = SourcePath(std::string("tests/fuzz/") + kind + "/" + t.name);
      if (!fs::is_directory(d)) continue;
      for (const auto& e : fs::directory_iterator(d)) {
        if (!e.is_regular_file()) continue;
        std::ifstream in(e.path(), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        INFO(t.name << ": " << e.path().string());
        CHECK(t.run(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) == 0);
        ++replayed;
      }
    }
  }
  CHECK(replayed > 0);
}

}  // namespace aqesim::e2e
