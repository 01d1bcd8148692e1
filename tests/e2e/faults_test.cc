// Faults: no output is lost or torn.
//  - Writing to a full disk (a small tmpfs mounted by the test when it may mount, else a
//    file-size limit set with setrlimit(RLIMIT_FSIZE) in the child) fails with exit 2 and a
//    clear error, and leaves the previous output file intact and no temporary behind.
//  - A sweep killed with SIGKILL part-way resumes and completes; its output equals an
//    uninterrupted run's (no duplicate or torn rows).
//  - An input that needs more memory than the address-space limit (RLIMIT_AS) allows is exit 2
//    with an error naming the command, never std::terminate's abort (nlohmann::json frees a huge
//    array through a heap stack in its noexcept destructor, which threw std::bad_alloc again).
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct ScratchDir {
  fs::path path;
  explicit ScratchDir(const std::string& tag)
      : path(fs::temp_directory_path() / ("aqesim-faults-" + tag + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() { fs::remove_all(path); }
};

struct Child {
  pid_t pid = -1;
  fs::path out, err;
};

// Starts the binary with stdout/stderr to files; `fsize_limit` > 0 sets RLIMIT_FSIZE (with
// SIGXFSZ ignored, so writes past it fail with EFBIG instead of killing the process);
// `as_limit` > 0 sets RLIMIT_AS (bytes of address space, as `ulimit -v` does in KiB).
Child Spawn(const std::vector<std::string>& args, const fs::path& scratch, rlim_t fsize_limit = 0,
            rlim_t as_limit = 0) {
  Child c;
  c.out = scratch / "child.stdout";
  c.err = scratch / "child.stderr";
  std::vector<std::string> storage{BinaryPath()};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  c.pid = fork();
  if (c.pid == 0) {
    const int o = ::open(c.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(c.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(o, 1);
    ::dup2(e, 2);
    if (fsize_limit > 0) {
      ::signal(SIGXFSZ, SIG_IGN);
      rlimit lim{fsize_limit, fsize_limit};
      ::setrlimit(RLIMIT_FSIZE, &lim);
    }
    if (as_limit > 0) {
      rlimit lim{as_limit, as_limit};
      ::setrlimit(RLIMIT_AS, &lim);
    }
    ::execv(storage[0].c_str(), argv.data());
    ::_exit(127);
  }
  return c;
}

int Wait(const Child& c) {
  int status = 0;
  while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<std::string> DirEntries(const fs::path& d) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(d)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The previous output, then a failing write of the same command's output: exit 2, one
// error naming the file and `reason`, the previous file intact, nothing else in `out_dir`.
void CheckFailedWriteKeepsPrevious(const fs::path& out_dir, const fs::path& scratch, rlim_t fsize_limit,
                                   const std::string& reason) {
  const fs::path out = out_dir / "result.json";
  const std::string previous = "{\"previous\": \"output, must survive\"}\n";
  { std::ofstream(out, std::ios::binary) << previous; }
  Child c = Spawn({"run", SourcePath("scenarios/demo.json"), "--format", "json", "-o", out.string()}, scratch,
                  fsize_limit);
  const int code = Wait(c);
  const std::string err = Slurp(c.err);
  INFO(err);
  CHECK(code == 2);
  CHECK(err == "aqesim: error: " + out.string() + ": cannot write output: " + reason + "\n");
  CHECK(Slurp(out) == previous);
  CHECK(DirEntries(out_dir) == std::vector<std::string>{"result.json"});
}

}  // namespace

TEST_CASE("faults: a write past the file-size limit fails cleanly and keeps the previous output",
          "[e2e][faults]") {
  ScratchDir dir("fsize");
  const fs::path out_dir = dir.path / "out";
  fs::create_directories(out_dir);
  // The demo's JSON is several KiB: a 1 KiB limit fails the write part-way.
  CheckFailedWriteKeepsPrevious(out_dir, dir.path, 1024, "File too large");
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AQESIM_FAULTS_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define AQESIM_FAULTS_ASAN 1
#endif

TEST_CASE("faults: an input larger than the memory limit is exit 2 naming the command, not an abort",
          "[e2e][faults]") {
#ifdef AQESIM_FAULTS_ASAN
  // Catch2 v2 (Debian's) has no SKIP: the case passes with a warning saying why it did not run.
  WARN("not run: AddressSanitizer reserves terabytes of address space, RLIMIT_AS cannot be set under it");
#else
  ScratchDir dir("memory");
  // 2.4 * 10^7 array elements (48 MB of text): about 400 MB as nlohmann::json values, more while
  // the array grows; the limit leaves 256 MiB.
  const fs::path scenario = dir.path / "huge-array.json";
  {
    std::ofstream out(scenario, std::ios::binary);
    out << "{\"name\": \"x\", \"plan\": {\"op\": \"scan\", \"id\": \"s\", \"bytes\": \"1g\", \"tasks\": 2}, "
           "\"extra\": [";
    const std::string chunk = [] {
      std::string c;
      for (int i = 0; i < 1000; ++i) c += "0,";
      return c;
    }();
    for (int i = 0; i < 24000; ++i) out << chunk;
    out << "0]}\n";
  }
  // The event log's event: the same array in one line.
  const fs::path log = dir.path / "huge-line.log";
  {
    std::ofstream out(log, std::ios::binary);
    out << "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}\n"
           "{\"Event\":\"SparkListenerEnvironmentUpdate\",\"x\":[";
    std::string chunk;
    for (int i = 0; i < 1000; ++i) chunk += "0,";
    for (int i = 0; i < 24000; ++i) out << chunk;
    out << "0]}\n";
  }
  const std::vector<std::vector<std::string> > commands = {
      {"run", scenario.string()},
      {"validate", scenario.string()},
      {"import-eventlog", log.string(), "-o", (dir.path / "out.json").string()},
      {"validate", log.string()}};
  for (const std::vector<std::string>& args : commands) {
    std::string line = "aqesim";
    for (const std::string& a : args) line += " " + a;
    INFO(line);
    Child c = Spawn(args, dir.path, 0, rlim_t{256} << 20);
    const int code = Wait(c);
    CHECK(code == 2);
    CHECK(Slurp(c.err) ==
          "aqesim: error: " + line +
              ": the input needs more memory than this process may use (std::bad_alloc: see "
              "ulimit -v, or the container's memory limit); README \"Input limits\" lists the "
              "sizes refused up front\n");
  }
#endif
}

TEST_CASE("faults: writing to a full tmpfs fails cleanly and keeps the previous output", "[e2e][faults]") {
  ScratchDir dir("tmpfs");
  const fs::path mnt = dir.path / "mnt";
  fs::create_directories(mnt);
  if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=256k") != 0) {
    WARN("cannot mount a tmpfs here (" << std::strerror(errno)
                                       << "); the RLIMIT_FSIZE test covers this path");
    return;
  }
  struct Unmount {
    fs::path p;
    ~Unmount() { ::umount2(p.c_str(), MNT_DETACH); }
  } unmount{mnt};
  // Fill the file system, keeping room for the previous output only.
  {
    std::ofstream(mnt / "result.json") << "placeholder";
    std::ofstream filler(mnt / "filler", std::ios::binary);
    const std::string block(4096, 'x');
    while (filler.write(block.data(), block.size())) {
    }
  }
  fs::remove(mnt / "result.json");
  const fs::path out_dir = mnt / "out";
  fs::create_directories(out_dir);
  // filler stays: out_dir holds only what the command leaves.
  CheckFailedWriteKeepsPrevious(out_dir, dir.path, 0, "No space left on device");
}

TEST_CASE("faults: a sweep killed with SIGKILL resumes to the same output, rows whole and unique",
          "[e2e][faults]") {
  ScratchDir dir("kill");
  const std::vector<std::string> grid = {
      "sweep",     SourcePath("scenarios/demo.json"),
      "--grid",    "spark.sql.adaptive.advisoryPartitionSizeInBytes=8m,16m,24m,32m,48m,64m,96m,128m",
      "--grid",    "spark.sql.shuffle.partitions=100,200,300,400",
      "--grid",    "cluster.executors=2,4,8",
      "--threads", "2"};
  auto args = [&](const fs::path& out) {
    std::vector<std::string> a = grid;
    a.push_back("-o");
    a.push_back(out.string());
    return a;
  };
  // Reference: uninterrupted.
  const fs::path reference = dir.path / "reference.csv";
  Child ref = Spawn(args(reference), dir.path);
  REQUIRE(Wait(ref) == 0);
  const std::string expected = Slurp(reference);
  REQUIRE(!expected.empty());

  // Kill once the journal holds some rows (but not all), then resume.
  const fs::path out = dir.path / "killed.csv";
  const fs::path journal = out.string() + ".journal";
  Child c = Spawn(args(out), dir.path);
  int lines = 0;
  bool exited = false;
  for (int i = 0; i < 6000 && lines < 4; ++i) {  // up to ~60 s
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const std::string j = Slurp(journal);
    lines = static_cast<int>(std::count(j.begin(), j.end(), '\n'));
    int status = 0;
    if (::waitpid(c.pid, &status, WNOHANG) == c.pid) {
      exited = true;
      break;
    }
  }
  if (!exited) {
    ::kill(c.pid, SIGKILL);
    Wait(c);
  }
  INFO("journal lines at the kill: " << lines);
  if (exited) WARN("the sweep finished before it could be killed; resume path not exercised");
  CHECK_FALSE(fs::exists(out));  // killed before the output was written
  const std::string before = Slurp(journal);

  Child resumed = Spawn(args(out), dir.path);
  REQUIRE(Wait(resumed) == 0);
  const std::string err = Slurp(resumed.err);
  INFO(err);
  if (!exited && lines > 1) CHECK(err.find("resumed") != std::string::npos);
  const std::string got = Slurp(out);
  CHECK(got == expected);
  // Whole, unique rows: one per point, none repeated (each row carries its grid values).
  std::istringstream rows(got);
  std::string header, row;
  REQUIRE(std::getline(rows, header));
  std::set<std::string> seen;
  int n = 0;
  while (std::getline(rows, row)) {
    ++n;
    CHECK(seen.insert(row).second);
  }
  CHECK(n == 8 * 4 * 3);
  CHECK_FALSE(fs::exists(journal));  // removed once the output is written
  (void)before;
}

}  // namespace aqesim::e2e
