// aqesim sweep / merge end to end: determinism across thread counts, resume after a kill,
// shards + merge == the unsharded output, and bad grids exit 2 without output.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/tools/eventlog/test_util.h"

namespace aqesim::e2e {
namespace {

namespace fs = std::filesystem;

struct Run {
  int exit_code = -1;
  std::string out, err;
};

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs the aqesim binary with these arguments (no shell), capturing stdout and stderr.
Run Aqesim(const std::vector<std::string>& args, const fs::path& scratch) {
  const fs::path out = scratch / "stdout.txt", err = scratch / "stderr.txt";
  const pid_t pid = fork();
  if (pid == 0) {
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(o, 1);
    ::dup2(e, 2);
    std::vector<char*> argv;
    std::string bin = AQESIM_BINARY;
    argv.push_back(bin.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(bin.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  Run r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = Slurp(out);
  r.err = Slurp(err);
  return r;
}

struct Scratch {
  fs::path path = fs::temp_directory_path() / ("aqesim_sweep_e2e_" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(path); }
  ~Scratch() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

const std::string kScenario = std::string(AQESIM_SOURCE_DIR) + "/scenarios/coalesce-aqe-blog.json";

// 10 × 12 = 120 points over two keys.
std::vector<std::string> GridArgs() {
  return {"--grid", "spark.sql.adaptive.advisoryPartitionSizeInBytes=8m,16m,24m,32m,40m,48m,56m,64m,96m,128m",
          "--grid", "cluster.executorCores=1,2,3,4,5,6,7,8,9,10,11,12"};
}

std::vector<std::string> SweepArgs(const std::vector<std::string>& extra) {
  std::vector<std::string> a = {"sweep", kScenario};
  for (const auto& g : GridArgs()) a.push_back(g);
  for (const auto& e : extra) a.push_back(e);
  return a;
}

size_t CountLines(const std::string& s) { return static_cast<size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST_CASE("e2e sweep: 120 points give the same bytes with --threads 1 and 2", "[e2e][sweep]") {
  Scratch dir;
  for (const std::string ext : {".csv", ".json"}) {
    Run one = Aqesim(SweepArgs({"--threads", "1", "-o", dir / ("one" + ext)}), dir.path);
    REQUIRE(one.exit_code == 0);
    Run two = Aqesim(SweepArgs({"--threads", "2", "-o", dir / ("two" + ext)}), dir.path);
    REQUIRE(two.exit_code == 0);
    const std::string a = Slurp(dir / ("one" + ext)), b = Slurp(dir / ("two" + ext));
    CHECK(a == b);
    CHECK_FALSE(fs::exists(dir / ("two" + ext + ".journal")));  // removed once the output is written
    if (ext == ".csv") {
      REQUIRE(CountLines(a) == 121);
      CHECK(a.rfind("point,spark.sql.adaptive.advisoryPartitionSizeInBytes,cluster.executorCores,"
                    "makespanSecondsAqeOn,",
                    0) == 0);
      // Grid order: the first key varies slowest.
      CHECK(a.find("\n0,8m,1,") != std::string::npos);
      CHECK(a.find("\n1,8m,2,") != std::string::npos);
      CHECK(a.find("\n119,128m,12,") != std::string::npos);
      CHECK(a.find("\n12,16m,1,") != std::string::npos);
    } else {
      const auto doc = nlohmann::json::parse(a);
      CHECK(doc["sweep"]["points"] == 120);
      CHECK(doc["rows"].size() == 120);
      CHECK(doc["rows"][13]["values"]["cluster.executorCores"] == "2");
      CHECK(doc["sweep"]["baseline"]["spark.sql.adaptive.advisoryPartitionSizeInBytes"] == "64m");
    }
  }
}

TEST_CASE("e2e sweep: resumes after a kill without recomputing finished points", "[e2e][sweep]") {
  Scratch dir;
  const std::string out = dir / "out.csv", journal = out + ".journal";
  Run full = Aqesim(SweepArgs({"--threads", "2", "--keep-journal", "-o", out}), dir.path);
  REQUIRE(full.exit_code == 0);
  const std::string expected = Slurp(out);
  std::string text = Slurp(journal);
  REQUIRE(CountLines(text) == 121);  // header + 120 rows

  // A kill mid-way: the output was never written and the journal ends inside a row.
  fs::remove(out);
  text.resize(text.size() - 25);
  { std::ofstream(journal, std::ios::binary | std::ios::trunc) << text; }
  Run resumed = Aqesim(SweepArgs({"--threads", "2", "--keep-journal", "-o", out}), dir.path);
  REQUIRE(resumed.exit_code == 0);
  CHECK(resumed.err.find("dropped 1 torn or invalid line(s)") != std::string::npos);
  CHECK(resumed.err.find("resumed 119 finished point(s) from " + journal + ", simulated 1\n") !=
        std::string::npos);
  CHECK(Slurp(out) == expected);
  // No duplicate or torn rows in the journal.
  const std::string after = Slurp(journal);
  CHECK(CountLines(after) == 121);
  CHECK(after.back() == '\n');
  std::set<int> points;
  std::istringstream lines(after);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) points.insert(nlohmann::json::parse(line)["point"].get<int>());
  CHECK(points.size() == 120);

  // Halfway: drop the last 60 rows; the rerun simulates exactly those.
  std::istringstream again(after);
  std::string kept;
  for (int i = 0; i < 61 && std::getline(again, line); ++i) kept += line + "\n";
  { std::ofstream(journal, std::ios::binary | std::ios::trunc) << kept; }
  Run half = Aqesim(SweepArgs({"--threads", "2", "-o", out}), dir.path);
  REQUIRE(half.exit_code == 0);
  CHECK(half.err.find("resumed 60 finished point(s) from " + journal + ", simulated 60\n") !=
        std::string::npos);
  CHECK(Slurp(out) == expected);
  CHECK_FALSE(fs::exists(journal));
}

TEST_CASE("e2e sweep: --shard 1/2 + --shard 2/2 + merge equals the unsharded output", "[e2e][sweep]") {
  Scratch dir;
  for (const std::string ext : {".csv", ".json"}) {
    REQUIRE(Aqesim(SweepArgs({"-o", dir / ("all" + ext)}), dir.path).exit_code == 0);
    REQUIRE(Aqesim(SweepArgs({"--shard", "1/2", "-o", dir / ("s1" + ext)}), dir.path).exit_code == 0);
    REQUIRE(Aqesim(SweepArgs({"--shard", "2/2", "-o", dir / ("s2" + ext)}), dir.path).exit_code == 0);
    CHECK(Slurp(dir / ("s1" + ext)) != Slurp(dir / ("all" + ext)));
    Run merge =
        Aqesim({"merge", dir / ("s2" + ext), dir / ("s1" + ext), "-o", dir / ("merged" + ext)}, dir.path);
    REQUIRE(merge.exit_code == 0);
    CHECK(Slurp(dir / ("merged" + ext)) == Slurp(dir / ("all" + ext)));
    // A missing shard is an error, and nothing is written.
    Run partial = Aqesim({"merge", dir / ("s1" + ext), "-o", dir / ("partial" + ext)}, dir.path);
    CHECK(partial.exit_code == 2);
    CHECK(partial.err.find("aqesim: error: " + (dir / ("s1" + ext)) +
                           ": points missing from the shards: 1, 3, 5,") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / ("partial" + ext)));
  }
}

TEST_CASE("e2e sweep: merging shards without the last point's is an error, CSV as JSON", "[e2e][sweep]") {
  // 3 points over 3 shards; shard 3/3 holds point 2 only. A CSV does not otherwise name the
  // grid's size: a shard's CSV carries it in a last gridPoints column, after its shard column
  // (the merged CSV has neither).
  Scratch dir;
  for (const std::string ext : {".csv", ".json"}) {
    for (const std::string k : {"1", "2"}) {
      REQUIRE(Aqesim({"sweep", kScenario, "--grid", "spark.sql.shuffle.partitions=100,200,400", "--shard",
                      k + "/3", "-o", dir / ("t" + k + ext)},
                     dir.path)
                  .exit_code == 0);
    }
    Run merge = Aqesim({"merge", dir / ("t1" + ext), dir / ("t2" + ext), "-o", dir / ("tm" + ext)}, dir.path);
    CHECK(merge.exit_code == 2);
    CHECK(merge.err == "aqesim: error: " + (dir / ("t1" + ext)) + ", " + (dir / ("t2" + ext)) +
                           ": points missing from the shards: 2\n");
    CHECK_FALSE(fs::exists(dir / ("tm" + ext)));
  }
  CHECK(Slurp(dir / "t1.csv").find(",error,shard,gridPoints\n") != std::string::npos);
  CHECK(Slurp(dir / "t1.csv").find(",1/3,3\n") != std::string::npos);
}

TEST_CASE("e2e sweep: cluster.executors on an imported log's timeline sweeps the executors, as --conf does",
          "[e2e][sweep]") {
  // The recorded timeline pinned the scheduler's executors: every point gave the same makespan.
  Scratch scratch;
  const std::string scenario =
      std::string(AQESIM_SOURCE_DIR) + "/scenarios/recorded/eventlog_4nodes_8cores_dynamic_alloc.json";
  const Run sweep =
      Aqesim({"sweep", scenario, "--grid", "cluster.executors=2,4", "-o", scratch / "s.json"}, scratch.path);
  REQUIRE(sweep.exit_code == 0);
  CHECK(sweep.err.find(
            "--conf spark.executor.instances=2 replaces the recorded executor timeline (5 executors) "
            "with 2 executors from the start") != std::string::npos);
  const nlohmann::json rows = nlohmann::json::parse(Slurp(scratch / "s.json"))["rows"];
  REQUIRE(rows.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    const std::string n = i == 0 ? "2" : "4";
    INFO(n);
    const Run run = Aqesim({"run", scenario, "--conf", "spark.executor.instances=" + n, "--format", "json"},
                           scratch.path);
    REQUIRE(run.exit_code == 0);
    const nlohmann::json runs = nlohmann::json::parse(run.out)["runs"];
    CHECK(rows[i]["makespanSecondsAqeOff"] == runs[0]["makespanSeconds"]);
    CHECK(rows[i]["makespanSecondsAqeOn"] == runs[1]["makespanSeconds"]);
  }
  CHECK(rows[0]["makespanSecondsAqeOn"] != rows[1]["makespanSecondsAqeOn"]);
}

TEST_CASE("e2e sweep: a bad grid exits 2 and writes nothing", "[e2e][sweep]") {
  Scratch dir;
  Run r = Aqesim({"sweep", kScenario, "--grid", "spark.sql.shufle.partitions=1,2", "--grid",
                  "cluster.executors=0,2", "-o", dir / "bad.csv"},
                 dir.path);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("aqesim: error: --grid spark.sql.shufle.partitions: unknown key") != std::string::npos);
  CHECK(r.err.find("aqesim: error: --grid cluster.executors=0: ") != std::string::npos);
  Run aqe =
      Aqesim({"sweep", kScenario, "--grid", "spark.sql.adaptive.enabled=false,true", "-o", dir / "aqe.csv"},
             dir.path);
  CHECK(aqe.exit_code == 2);
  CHECK(
      aqe.err.find(
          "aqesim: error: --grid spark.sql.adaptive.enabled: every point is simulated with AQE off and on") !=
      std::string::npos);
  CHECK_FALSE(fs::exists(dir / "bad.csv"));
  CHECK_FALSE(fs::exists(dir / "bad.csv.journal"));
  Run ext = Aqesim({"sweep", kScenario, "--grid", "spark.sql.shuffle.partitions=1", "-o", dir / "out.txt"},
                   dir.path);
  CHECK(ext.exit_code == 2);
  CHECK(ext.err == "aqesim: error: -o " + (dir / "out.txt") +
                       ": expected a file name ending in .csv or .json, or a folder (ending in /) for the "
                       "shards' files\n");
}

TEST_CASE("e2e sweep: says how far its seconds can be trusted, on stderr and in the JSON's sweep object",
          "[e2e][sweep][band]") {
  // A hand-written scenario is timed by the cost model: its band's factors; an imported log's
  // stages by their recorded profiles: no band. The report on the sweep says the same.
  Scratch scratch;
  const Run modelled =
      Aqesim({"sweep", kScenario, "--grid", "spark.sql.adaptive.advisoryPartitionSizeInBytes=16m,64m", "-o",
              scratch / "modelled.json"},
             scratch.path);
  REQUIRE(modelled.exit_code == 0);
  const std::string modelled_line =
      "aqesim: sweep: seconds modelled: its band is every modelled task × 0.79 and × 7.6 (README \"How far "
      "to "
      "trust the seconds\"); the points share the model, so its error moves them together\n";
  CHECK(modelled.err.size() > modelled_line.size());
  CHECK(modelled.err.compare(modelled.err.size() - modelled_line.size(), modelled_line.size(),
                             modelled_line) == 0);
  CHECK(
      nlohmann::json::parse(Slurp(scratch / "modelled.json"))["sweep"]["seconds"] ==
      nlohmann::json::parse(R"({"timeSource": "modelled", "band": {"lowFactor": 0.79, "highFactor": 7.6}})"));

  const std::string scenario = scratch / "aqeshuffle.json";
  REQUIRE(Aqesim({"import-eventlog", eventlog::testing::Fixture("aqeshuffle_eventlog.zstd"), "-o", scenario,
                  "-q"},
                 scratch.path)
              .exit_code == 0);
  const Run profiled = Aqesim(
      {"sweep", scenario, "--grid", "cluster.executors=1,2", "-o", scratch / "profiled.json"}, scratch.path);
  REQUIRE(profiled.exit_code == 0);
  const std::string profiled_line =
      "aqesim: sweep: seconds profiled from the log: every stage is timed by its recorded task times "
      "(resized where a point changes a stage's tasks; a stage resized 2× or more carries the cost model's "
      "band, every modelled task × 0.79 and × 7.6, which the sweep does not simulate)\n";
  CHECK(profiled.err.size() > profiled_line.size());
  CHECK(profiled.err.compare(profiled.err.size() - profiled_line.size(), profiled_line.size(),
                             profiled_line) == 0);
  CHECK(nlohmann::json::parse(Slurp(scratch / "profiled.json"))["sweep"]["seconds"] ==
        nlohmann::json::parse(R"({"timeSource": "profiled", "band": null})"));
  const Run report = Aqesim({"report", scratch / "profiled.json", "--format", "md"}, scratch.path);
  REQUIRE(report.exit_code == 0);
  CHECK(report.out.find(
            "- Seconds: profiled from the log (every stage timed by its recorded task times, resized "
            "where a point changes a stage's tasks; no band, but a stage resized 2× or more carries the cost "
            "model's: every modelled task × 0.79 and × 7.6, README \"How far to trust the seconds\").\n") !=
        std::string::npos);

  // Without coalescing the AQE-on run as given reads e1's 200 partitions where the log ran 13: its
  // e1 map is timed by its profile resized ×15.4 (the log's own rates), the other three as
  // recorded. Profiled, as tune and scale label it (this sweep said "mixed").
  const Run resized =
      Aqesim({"sweep", scenario, "--conf", "spark.sql.adaptive.coalescePartitions.enabled=false", "--grid",
              "cluster.executorCores=6,12", "-o", scratch / "resized.json"},
             scratch.path);
  REQUIRE(resized.exit_code == 0);
  CHECK(resized.err.compare(resized.err.size() - profiled_line.size(), profiled_line.size(), profiled_line) ==
        0);
  CHECK(nlohmann::json::parse(Slurp(scratch / "resized.json"))["sweep"]["seconds"] ==
        nlohmann::json::parse(R"({"timeSource": "profiled", "band": null})"));

  // A forged time source is refused at its pointer.
  nlohmann::json forged = nlohmann::json::parse(Slurp(scratch / "profiled.json"));
  forged["sweep"]["seconds"]["timeSource"] = "guessed";
  std::ofstream(scratch / "forged.json") << forged.dump();
  const Run refused = Aqesim({"report", scratch / "forged.json", "--format", "md"}, scratch.path);
  CHECK(refused.exit_code == 2);
  CHECK(refused.err ==
        "aqesim: error: " + scratch / "forged.json" +
            ": /sweep/seconds/timeSource: expected \"modelled\", \"profiled\" or \"mixed\", found "
            "\"guessed\"\n");
}

}  // namespace
}  // namespace aqesim::e2e

namespace aqesim::e2e {
namespace {

// The lines of `text` with "\r\n" line ends.
std::string WithCrlf(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return out;
}

}  // namespace

TEST_CASE(
    "e2e merge: CRLF shards merge to the unsharded bytes; a journal's rows are checked against the grid",
    "[e2e][sweep]") {
  Scratch dir;
  const std::vector<std::string> grid = {"--grid", "spark.sql.shuffle.partitions=100,200,400,800"};
  auto sweep = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = {"sweep", kScenario};
    a.insert(a.end(), grid.begin(), grid.end());
    a.insert(a.end(), extra.begin(), extra.end());
    return Aqesim(a, dir.path);
  };
  REQUIRE(sweep({"-o", dir / "all.csv"}).exit_code == 0);
  const std::string all = Slurp(dir / "all.csv");

  SECTION("a shard saved with CRLF line ends (a Windows editor) merges like the original") {
    REQUIRE(sweep({"--shard", "1/2", "-o", dir / "s1.csv"}).exit_code == 0);
    REQUIRE(sweep({"--shard", "2/2", "-o", dir / "s2.csv"}).exit_code == 0);
    const std::string crlf = WithCrlf(Slurp(dir / "s2.csv"));
    std::ofstream(dir / "s2.csv", std::ios::binary | std::ios::trunc) << crlf;
    const Run merge = Aqesim({"merge", dir / "s1.csv", dir / "s2.csv", "-o", dir / "m.csv"}, dir.path);
    INFO(merge.err);
    REQUIRE(merge.exit_code == 0);
    CHECK(Slurp(dir / "m.csv") == all);
  }
  SECTION("a journal row whose values are not its point's is simulated again, not copied") {
    // Kill-free resume: keep the journal of a finished sweep, then edit one of its rows.
    REQUIRE(sweep({"--keep-journal", "-o", dir / "j.csv"}).exit_code == 0);
    std::string journal = Slurp(dir / "j.csv.journal");
    const std::string from = "\"spark.sql.shuffle.partitions\":\"400\"}";
    const size_t at = journal.find(from);
    REQUIRE(at != std::string::npos);
    journal.replace(at, from.size(), "\"spark.sql.shuffle.partitions\":\"999\"}");
    std::ofstream(dir / "j.csv.journal", std::ios::binary | std::ios::trunc) << journal;
    const Run resumed = sweep({"-o", dir / "j.csv"});
    INFO(resumed.err);
    REQUIRE(resumed.exit_code == 0);
    CHECK(resumed.err.find("dropped 1 torn or invalid line(s)") != std::string::npos);
    CHECK(resumed.err.find("resumed 3 finished point(s)") != std::string::npos);
    CHECK(Slurp(dir / "j.csv") == all);
    CHECK(all.find(",999,") == std::string::npos);
  }
}

}  // namespace aqesim::e2e
