// Determinism: the same scenario and seed give byte-identical output across runs (run,
// explain), and a sweep gives the same bytes whatever the thread count.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
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
      : path(fs::temp_directory_path() / ("aqesim-det-" + tag + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() { fs::remove_all(path); }
};

}  // namespace

TEST_CASE("determinism: run --format json gives identical bytes across runs", "[e2e][determinism]") {
  ScratchDir dir("run");
  for (const char* scenario : {"scenarios/demo.json", "scenarios/skew-join.json"}) {
    INFO(scenario);
    const std::string a = (dir.path / "a.json").string(), b = (dir.path / "b.json").string();
    CommandResult r1 = RunAqesim({"run", SourcePath(scenario), "--format", "json", "-o", a});
    CommandResult r2 = RunAqesim({"run", SourcePath(scenario), "--format", "json", "-o", b});
    REQUIRE(r1.exit_code == 0);
    REQUIRE(r2.exit_code == 0);
    const std::string first = Slurp(a);
    CHECK(first.size() > 100);
    CHECK(first == Slurp(b));
    // stdout gives the same bytes as -o.
    CommandResult r3 = RunAqesim({"run", SourcePath(scenario), "--format", "json"});
    REQUIRE(r3.exit_code == 0);
    CHECK(r3.stdout_text == first);
  }
}

TEST_CASE("determinism: explain gives identical bytes across runs and seeds matter", "[e2e][determinism]") {
  const std::string scenario = SourcePath("scenarios/demo.json");
  CommandResult r1 = RunAqesim({"explain", scenario});
  CommandResult r2 = RunAqesim({"explain", scenario});
  REQUIRE(r1.exit_code == 0);
  REQUIRE(r2.exit_code == 0);
  CHECK(r1.stdout_text == r2.stdout_text);
  CHECK(r1.stdout_text.find("\"decisions\"") != std::string::npos);

  // A different seed changes the generated (zipf) sizes, so the output is not a constant.
  ScratchDir dir("seed");
  std::ifstream in(scenario);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t pos = text.find("\"seed\": 42");
  REQUIRE(pos != std::string::npos);
  text.replace(pos, 10, "\"seed\": 43");
  const fs::path other = dir.path / "demo-seed43.json";
  std::ofstream(other) << text;
  CommandResult r3 = RunAqesim({"explain", other.string()});
  REQUIRE(r3.exit_code == 0);
  CHECK(r3.stdout_text != r1.stdout_text);
  CommandResult r4 = RunAqesim({"explain", other.string()});
  CHECK(r4.stdout_text == r3.stdout_text);
}

TEST_CASE("determinism: a sweep gives identical bytes with --threads 1 and --threads 2",
          "[e2e][determinism]") {
  ScratchDir dir("sweep");
  for (const char* ext : {".json", ".csv"}) {
    INFO(ext);
    auto sweep = [&](const std::string& threads, const std::string& name) {
      const std::string out = (dir.path / (name + ext)).string();
      CommandResult r = RunAqesim({"sweep", SourcePath("scenarios/skew-join.json"), "--grid",
                                   "spark.sql.adaptive.advisoryPartitionSizeInBytes=16m,32m,64m,128m",
                                   "--grid", "spark.sql.adaptive.skewJoin.enabled=true,false", "--grid",
                                   "cluster.executors=2,5", "--threads", threads, "-o", out});
      INFO(r.stderr_text);
      REQUIRE(r.exit_code == 0);
      return Slurp(out);
    };
    const std::string one = sweep("1", "one");
    const std::string two = sweep("2", "two");
    CHECK(one.size() > 100);
    CHECK(one == two);
    CHECK(sweep("2", "again") == two);
  }
}

}  // namespace aqesim::e2e
