// Every input file is read once per command (models/scenario/input_file.h InputFiles): a
// properties or cost file given as a pipe (`<(...)`, here /dev/fd/N of an inherited pipe) has
// its bytes only for the first read. sweep and report load the scenario once per point / per
// what-if; before, every load after the first read the pipe empty and silently simulated
// without its settings (exit 0).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"
#include "tests/support/filled_pipe.h"
#include "tests/support/temp_dir.h"

namespace aqesim::e2e {
namespace {

using testing::FilledPipe;

// 64 reducers of a 2 x 64 matrix; the properties turn coalescing off, so AQE keeps 64 tasks
// instead of coalescing them into one: every point's makespan with AQE depends on it.
const char* const kScenario = R"({
 "name": "read-once",
 "seed": 1,
 "cluster": {"executors": 2, "executorCores": 2},
 "plan": {"op": "exchange", "id": "e1", "child": {"op": "scan", "bytes": "64m", "tasks": 2},
          "numPartitions": 64, "sizes": {"generate": {"distribution": "uniform", "mapTasks": 2,
          "partitions": 64, "totalBytes": "64m"}}}
})";
const char* const kProperties = "spark.sql.adaptive.coalescePartitions.enabled false\n";

}  // namespace

TEST_CASE("sweep: a properties file given as a pipe applies to every point", "[e2e][sweep][bad_inputs]") {
  testing::TempDir dir("aqesim_read_once");
  const std::string scenario = dir.Write("s.json", kScenario);
  const std::string props = dir.Write("p.properties", kProperties);
  const std::vector<std::string> grid = {"--grid", "spark.locality.wait=0s,1s,2s"};
  auto sweep = [&](const std::string& properties, const std::string& out) {
    std::vector<std::string> args = {"sweep", scenario, "--properties-file", properties, "-o", out};
    args.insert(args.end(), grid.begin(), grid.end());
    return RunAqesim(args);
  };
  const CommandResult file = sweep(props, dir.File("file.csv"));
  REQUIRE(file.exit_code == 0);
  FilledPipe pipe(kProperties);
  const CommandResult piped = sweep(pipe.path(), dir.File("pipe.csv"));
  REQUIRE(piped.exit_code == 0);
  std::ifstream a(dir.File("file.csv")), b(dir.File("pipe.csv"));
  const std::string file_csv((std::istreambuf_iterator<char>(a)), std::istreambuf_iterator<char>());
  const std::string pipe_csv((std::istreambuf_iterator<char>(b)), std::istreambuf_iterator<char>());
  CHECK(std::count(file_csv.begin(), file_csv.end(), '\n') == 4);  // header + 3 points
  CHECK(pipe_csv == file_csv);
  // The properties matter: without them every point coalesces (a different makespan).
  const CommandResult none = RunAqesim({"sweep", scenario, "-o", dir.File("none.csv"), grid[0], grid[1]});
  REQUIRE(none.exit_code == 0);
  std::ifstream c(dir.File("none.csv"));
  const std::string none_csv((std::istreambuf_iterator<char>(c)), std::istreambuf_iterator<char>());
  CHECK(none_csv != file_csv);
}

TEST_CASE("report: a properties file given as a pipe applies to every what-if", "[e2e][report][bad_inputs]") {
  testing::TempDir dir("aqesim_read_once");
  const std::string scenario = dir.Write("s.json", kScenario);
  const std::string props = dir.Write("p.properties", kProperties);
  const CommandResult file =
      RunAqesim({"report", scenario, "--properties-file", props, "--format", "md", "-o", "-"});
  REQUIRE(file.exit_code == 0);
  FilledPipe pipe(kProperties);
  const CommandResult piped =
      RunAqesim({"report", scenario, "--properties-file", pipe.path(), "--format", "md", "-o", "-"});
  REQUIRE(piped.exit_code == 0);
  // The same report but for the line naming the sweep that reproduces it (its --properties-file
  // is the path given: the pipe's, the file's).
  const auto without_sweep_command = [](std::string text) {
    const size_t at = text.find("aqesim sweep ");
    REQUIRE(at != std::string::npos);
    CHECK(text.find(" --properties-file ", at) < text.find('\n', at));
    return text.erase(at, text.find('\n', at) - at);
  };
  CHECK(without_sweep_command(piped.stdout_text) == without_sweep_command(file.stdout_text));
}

TEST_CASE("sweep: a scenario given as a pipe is read once", "[e2e][sweep][bad_inputs]") {
  testing::TempDir dir("aqesim_read_once");
  const std::string scenario = dir.Write("s.json", kScenario);
  const CommandResult file =
      RunAqesim({"sweep", scenario, "-o", dir.File("file.csv"), "--grid", "spark.locality.wait=0s,1s"});
  REQUIRE(file.exit_code == 0);
  FilledPipe pipe(kScenario);
  const CommandResult piped =
      RunAqesim({"sweep", pipe.path(), "-o", dir.File("pipe.csv"), "--grid", "spark.locality.wait=0s,1s"});
  INFO(piped.stderr_text);
  REQUIRE(piped.exit_code == 0);
  std::ifstream a(dir.File("file.csv")), b(dir.File("pipe.csv"));
  const std::string file_csv((std::istreambuf_iterator<char>(a)), std::istreambuf_iterator<char>());
  const std::string pipe_csv((std::istreambuf_iterator<char>(b)), std::istreambuf_iterator<char>());
  CHECK(pipe_csv == file_csv);
}

}  // namespace aqesim::e2e
