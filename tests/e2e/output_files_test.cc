// Output files (-o) as a careful user expects them: an existing output keeps its permissions,
// a new one follows the umask, a name as long as the file system allows is written (the
// temporary beside it must fit too), and no command replaces a file it reads.
#include <sys/stat.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/e2e/e2e_util.h"
#include "tests/support/temp_dir.h"

namespace aqesim::e2e {
namespace {

namespace fs = std::filesystem;

std::string ReadAll(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

mode_t ModeOf(const std::string& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// Restores the test process's umask when a section ends.
class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : old_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(old_); }

 private:
  mode_t old_;
};

}  // namespace

TEST_CASE("output files: permissions kept or from the umask, names up to NAME_MAX", "[e2e][outputs]") {
  testing::TempDir tmp("aqesim_outputs");
  const std::string scenario = tmp.Write("s.json", ReadAll(SourcePath("tests/bad_inputs/data/valid.json")));

  SECTION("an existing output keeps its mode (0600 stays 0600)") {
    const std::string out = tmp.Write("out.json", "old");
    REQUIRE(::chmod(out.c_str(), 0600) == 0);
    const CommandResult r = RunAqesim({"run", scenario, "--format", "json", "-o", out});
    REQUIRE(r.exit_code == 0);
    CHECK(ReadAll(out).find("\"runs\"") != std::string::npos);
    CHECK(ModeOf(out) == 0600);
  }
  SECTION("a new output follows the umask (077 gives 0600, 022 gives 0644)") {
    {
      ScopedUmask mask(077);
      REQUIRE(RunAqesim({"run", scenario, "-o", tmp.File("private.txt")}).exit_code == 0);
    }
    {
      ScopedUmask mask(022);
      REQUIRE(RunAqesim({"run", scenario, "-o", tmp.File("shared.txt")}).exit_code == 0);
    }
    CHECK(ModeOf(tmp.File("private.txt")) == 0600);
    CHECK(ModeOf(tmp.File("shared.txt")) == 0644);
  }
  SECTION("an output name of 250 and of 255 bytes is written, with no temporary left") {
    for (size_t length : {250, 255}) {
      const std::string name = std::string(length - 5, 'o') + ".json";
      const CommandResult r = RunAqesim({"explain", scenario, "-o", tmp.File(name)});
      INFO(r.stderr_text);
      CHECK(r.exit_code == 0);
      CHECK(ReadAll(tmp.File(name)).find("\"decisions\"") != std::string::npos);
    }
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(tmp.path())) files += e.is_regular_file() ? 1 : 0;
    CHECK(files == 3);  // s.json and the two outputs
  }
}

TEST_CASE("output to a full standard output is exit 2, not a silent success", "[e2e][output]") {
  // `> /dev/full` (ENOSPC on every write): the result went nowhere (hostile round 2026-12-03, I5).
  for (const std::string& args :
       {"run " + SourcePath("scenarios/demo.json"),
        "import-eventlog " + SourcePath("tests/data/eventlogs/aqeshuffle_eventlog.zstd") + " --list"}) {
    INFO(args);
    const int status = std::system((BinaryPath() + " " + args + " > /dev/full 2> /dev/null").c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
  }
}

TEST_CASE("tune and sweep: an input named like OUT.journal's temporary is kept, byte for byte",
          "[e2e][outputs]") {
  // The journal was rewritten through the fixed name OUT.journal.tmp (opened with O_TRUNC, then
  // renamed over OUT.journal and removed): a scenario of that name was overwritten and deleted.
  testing::TempDir tmp("aqesim_journal_tmp");
  const std::string scenario = ReadAll(SourcePath("tests/bad_inputs/data/valid.json"));
  SECTION("tune") {
    const std::string in = tmp.Write("t.json.journal.tmp", scenario);
    const CommandResult r = RunAqesim(
        {"tune", in, "--space", "cluster.executors=1,2", "--budget", "3", "-o", tmp.File("t.json")});
    INFO(r.stderr_text);
    CHECK(r.exit_code == 0);
    CHECK(ReadAll(in) == scenario);
    CHECK(ReadAll(tmp.File("t.json")).find("\"tune\": {") != std::string::npos);
  }
  SECTION("sweep") {
    const std::string in = tmp.Write("x.csv.journal.tmp", scenario);
    const CommandResult r =
        RunAqesim({"sweep", in, "--grid", "cluster.executors=1,2", "-o", tmp.File("x.csv")});
    INFO(r.stderr_text);
    CHECK(r.exit_code == 0);
    CHECK(ReadAll(in) == scenario);
    CHECK(ReadAll(tmp.File("x.csv")).rfind("point,cluster.executors,", 0) == 0);
  }
  // Nothing else is left beside them: the input, the output, no journal, no temporary.
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(tmp.path())) files += e.is_regular_file() ? 1 : 0;
  CHECK(files == 2);
}

}  // namespace aqesim::e2e
