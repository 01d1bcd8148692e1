// aqesim sweep --shard auto -o FOLDER/ and aqesim merge FOLDER end to end, under each
// scheduler's array-job variables set by hand (tests/tools/slurm/ runs a real Slurm cluster).
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"
#include "tests/support/temp_dir.h"

namespace aqesim::e2e {
namespace {

namespace fs = std::filesystem;
using Env = std::map<std::string, std::optional<std::string>>;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A sweep's last stderr line for a scenario timed by the cost model throughout.
const std::string kModelledSecondsLine =
    "aqesim: sweep: seconds modelled: its band is every modelled task × 0.79 and × 7.6 (README \"How far to "
    "trust the seconds\"); the points share the model, so its error moves them together\n";

// The child's environment: every scheduler variable unset (the tests may run inside a Slurm
// job), then `vars` set.
Env Scheduler(const std::map<std::string, std::string>& vars) {
  Env env;
  for (const char* name : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX",
                           "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_STEP", "JOB_COMPLETION_INDEX",
                           "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE"})
    env[name] = std::nullopt;
  for (const auto& [k, v] : vars) env[k] = v;
  return env;
}

// 5 × 2 = 10 points.
std::vector<std::string> Sweep(const std::vector<std::string>& extra) {
  std::vector<std::string> a = {
      "sweep",     SourcePath("scenarios/coalesce-aqe-blog.json"),
      "--grid",    "spark.sql.adaptive.advisoryPartitionSizeInBytes=8m,16m,32m,64m,128m",
      "--grid",    "cluster.executorCores=2,4",
      "--threads", "1"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// The point indices of a CSV's rows, in order.
std::vector<int> Points(const std::string& csv) {
  std::vector<int> points;
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) points.push_back(std::stoi(line.substr(0, line.find(','))));
  return points;
}

TEST_CASE(
    "e2e sweep --shard auto: a Slurm array's elements write their shards, merge FOLDER gives the "
    "unsharded bytes",
    "[e2e][sweep][cluster]") {
  const testing::TempDir dir("aqesim_sweep_cluster");
  REQUIRE(RunAqesim(Sweep({"-o", dir.File("all.csv")}), Scheduler({})).exit_code == 0);
  const std::string folder = dir.File("slurm/");
  for (int id = 0; id < 4; ++id) {
    // sbatch --array=0-3, as slurmd sets the variables.
    const CommandResult r = RunAqesim(Sweep({"--shard", "auto", "-o", folder}),
                                      Scheduler({{"SLURM_ARRAY_TASK_ID", std::to_string(id)},
                                                 {"SLURM_ARRAY_TASK_MIN", "0"},
                                                 {"SLURM_ARRAY_TASK_MAX", "3"},
                                                 {"SLURM_ARRAY_TASK_COUNT", "4"},
                                                 {"SLURM_ARRAY_TASK_STEP", "1"}}));
    REQUIRE(r.exit_code == 0);
    const std::string file = folder + "shard-" + std::to_string(id + 1) + "-of-4.csv";
    // The shard it took, then (no terminal: a batch log) the one-line summary of what ran.
    const std::string shard_line =
        "aqesim: sweep: shard " + std::to_string(id + 1) +
        "/4 from SLURM_ARRAY_TASK_ID=" + std::to_string(id) +
        ", SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_MAX=3, SLURM_ARRAY_TASK_COUNT=4, "
        "SLURM_ARRAY_TASK_STEP=1; writing " +
        file + "\n";
    CHECK(r.stderr_text.rfind(shard_line, 0) == 0);
    const std::string points = id < 2 ? "3" : "2";  // 10 points over 4 shards
    const std::string summary = r.stderr_text.substr(std::min(shard_line.size(), r.stderr_text.size()));
    CHECK(summary.rfind(
              "aqesim: sweep: " + points + " point(s) (" + points + " simulated, 0 resumed, 0 failed) in ",
              0) == 0);
    // Then how far the seconds can be trusted (demo.json: modelled throughout).
    const std::string tail = " s; wrote " + file + "\n" + kModelledSecondsLine;
    CHECK((summary.size() > tail.size() &&
           summary.compare(summary.size() - tail.size(), tail.size(), tail) == 0));
    CHECK_FALSE(fs::exists(file + ".journal"));
  }
  // Points i with i % 4 == K - 1.
  CHECK(Points(Slurp(folder + "shard-1-of-4.csv")) == std::vector<int>{0, 4, 8});
  CHECK(Points(Slurp(folder + "shard-2-of-4.csv")) == std::vector<int>{1, 5, 9});
  CHECK(Points(Slurp(folder + "shard-4-of-4.csv")) == std::vector<int>{3, 7});
  const CommandResult merge = RunAqesim({"merge", folder, "-o", dir.File("merged.csv")});
  REQUIRE(merge.exit_code == 0);
  CHECK(merge.stderr_text.empty());
  CHECK(Slurp(dir.File("merged.csv")) == Slurp(dir.File("all.csv")));
}

TEST_CASE("e2e sweep --shard auto/N: Kubernetes and AWS Batch elements, JSON shards",
          "[e2e][sweep][cluster]") {
  const testing::TempDir dir("aqesim_sweep_cluster");
  REQUIRE(RunAqesim(Sweep({"-o", dir.File("all.json")}), Scheduler({})).exit_code == 0);
  for (int index = 0; index < 4; ++index) {
    const CommandResult r =
        RunAqesim(Sweep({"--shard", "auto/4", "--format", "json", "-o", dir.File("k8s/")}),
                  Scheduler({{"JOB_COMPLETION_INDEX", std::to_string(index)}}));
    REQUIRE(r.exit_code == 0);
    CHECK(r.stderr_text.find("from JOB_COMPLETION_INDEX=" + std::to_string(index) + "; writing ") !=
          std::string::npos);
  }
  const auto shard3 = nlohmann::json::parse(Slurp(dir.File("k8s/shard-3-of-4.json")));
  CHECK(shard3["sweep"]["shard"] == "3/4");
  CHECK(shard3["rows"].size() == 2);
  CHECK(shard3["rows"][1]["point"] == 6);
  REQUIRE(RunAqesim({"merge", dir.File("k8s"), "-o", dir.File("k8s.json")}).exit_code == 0);
  CHECK(Slurp(dir.File("k8s.json")) == Slurp(dir.File("all.json")));

  // AWS Batch: an array of 3 child jobs; the size comes from AWS_BATCH_JOB_ARRAY_SIZE.
  for (int index = 0; index < 3; ++index) {
    REQUIRE(RunAqesim(Sweep({"--shard", "auto", "--format", "json", "-o", dir.File("aws/")}),
                      Scheduler({{"AWS_BATCH_JOB_ARRAY_INDEX", std::to_string(index)},
                                 {"AWS_BATCH_JOB_ARRAY_SIZE", "3"}}))
                .exit_code == 0);
  }
  CHECK(fs::exists(dir.File("aws/shard-3-of-3.json")));
  REQUIRE(RunAqesim({"merge", dir.File("aws/"), "-o", dir.File("aws.json")}).exit_code == 0);
  CHECK(Slurp(dir.File("aws.json")) == Slurp(dir.File("all.json")));
  // A CSV merge of a folder of JSON shards says so.
  const CommandResult csv = RunAqesim({"merge", dir.File("aws/"), "-o", dir.File("aws.csv")});
  CHECK(csv.exit_code == 2);
  CHECK(csv.stderr_text ==
        "aqesim: error: " + dir.File("aws/") +
            ": no shard output (shard-K-of-N.csv) in the folder; it holds .json shards: merge "
            "into a .json output\n");
}

TEST_CASE(
    "e2e sweep --shard auto: without a scheduler's variables, or with bad ones, exit 2 and write nothing",
    "[e2e][sweep][cluster]") {
  const testing::TempDir dir("aqesim_sweep_cluster");
  const CommandResult none = RunAqesim(Sweep({"--shard", "auto", "-o", dir.File("out/")}), Scheduler({}));
  CHECK(none.exit_code == 2);
  CHECK(none.stderr_text ==
        "aqesim: error: --shard auto: no array-job index in the environment (looked for SLURM_ARRAY_TASK_ID, "
        "JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX): run it as a Slurm array job, a Kubernetes Indexed "
        "Job or an AWS Batch array job, or give --shard K/N\n");
  const CommandResult nan = RunAqesim(
      Sweep({"--shard", "auto", "-o", dir.File("out/")}),
      Scheduler(
          {{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_MIN", "0"}, {"SLURM_ARRAY_TASK_COUNT", "four"}}));
  CHECK(nan.exit_code == 2);
  CHECK(nan.stderr_text ==
        "aqesim: error: --shard auto: SLURM_ARRAY_TASK_COUNT=\"four\": expected a non-negative integer (at "
        "most "
        "2147483647)\n");
  const CommandResult beyond =
      RunAqesim(Sweep({"--shard", "auto", "-o", dir.File("out/")}),
                Scheduler({{"AWS_BATCH_JOB_ARRAY_INDEX", "4"}, {"AWS_BATCH_JOB_ARRAY_SIZE", "4"}}));
  CHECK(beyond.exit_code == 2);
  CHECK(beyond.stderr_text ==
        "aqesim: error: --shard auto: AWS_BATCH_JOB_ARRAY_INDEX=4: expected an index below "
        "AWS_BATCH_JOB_ARRAY_SIZE=4\n");
  const CommandResult k8s = RunAqesim(Sweep({"--shard", "auto/4", "-o", dir.File("out/")}),
                                      Scheduler({{"JOB_COMPLETION_INDEX", "4"}}));
  CHECK(k8s.exit_code == 2);
  CHECK(k8s.stderr_text ==
        "aqesim: error: --shard auto/4: JOB_COMPLETION_INDEX=4: expected an index below 4 (the N of --shard "
        "auto/N must be the Job's spec.completions)\n");
  const CommandResult format =
      RunAqesim(Sweep({"--format", "json", "-o", dir.File("out.csv")}), Scheduler({}));
  CHECK(format.exit_code == 2);
  CHECK(format.stderr_text ==
        "aqesim: error: --format json: -o " + dir.File("out.csv") + " names a file of the other format\n");
  CHECK_FALSE(fs::exists(dir.File("out")));
  CHECK_FALSE(fs::exists(dir.File("out.csv")));
}

TEST_CASE("e2e merge --wait: whole seconds as a decimal integer, else exit 2 with the range",
          "[e2e][sweep][cluster]") {
  // "0x10" waited 16 s; "1e-9" was "not in range" though 1e-9 lies between 0 and 10^8.
  const testing::TempDir dir("aqesim_sweep_cluster");
  for (const std::string wait : {"0x10", "1e-9", "1e3", "5.5", "-1", "+5", "100000001", ""}) {
    INFO(wait);
    const CommandResult r =
        RunAqesim({"merge", dir.File("shards") + "/", "--wait", wait, "-o", dir.File("m.csv")});
    CHECK(r.exit_code == 2);
    CHECK(r.stderr_text ==
          "aqesim: error: --wait " + (wait.empty() ? std::string("\"\"") : wait) +
              ": expected whole seconds from 0 to 100000000, as a decimal integer such as 60\n");
  }
}

TEST_CASE("e2e merge FOLDER: shards missing or there twice are named by index, nothing is written",
          "[e2e][sweep][cluster]") {
  const testing::TempDir dir("aqesim_sweep_cluster");
  const std::string folder = dir.File("shards");
  for (const std::string k : {"1", "3"})
    REQUIRE(RunAqesim(Sweep({"--shard", k + "/4", "-o", folder + "/"}), Scheduler({})).exit_code == 0);
  const CommandResult missing = RunAqesim({"merge", folder, "-o", dir.File("m.csv")});
  CHECK(missing.exit_code == 2);
  CHECK(missing.stderr_text == "aqesim: error: " + folder +
                                   ": shards missing: 2, 4 of 4 (their array elements did not finish: re-run "
                                   "them)\n");
  // --wait: the same message once the time is up.
  const auto start = std::chrono::steady_clock::now();
  const CommandResult waited = RunAqesim({"merge", folder, "--wait", "1", "-o", dir.File("m.csv")});
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::seconds(1));
  CHECK(waited.exit_code == 2);
  CHECK(waited.stderr_text == "aqesim: error: " + folder +
                                  ": shards missing: 2, 4 of 4 (their array elements did not finish: re-run "
                                  "them); waited 1 s\n");

  // Shard 2 copied under shard 4's name: its points are not shard 4's.
  REQUIRE(RunAqesim(Sweep({"--shard", "2/4", "-o", folder + "/"}), Scheduler({})).exit_code == 0);
  fs::copy_file(folder + "/shard-2-of-4.csv", folder + "/shard-4-of-4.csv");
  const CommandResult copied = RunAqesim({"merge", folder, "-o", dir.File("m.csv")});
  CHECK(copied.exit_code == 2);
  CHECK(copied.stderr_text ==
        "aqesim: error: " + folder +
            "/shard-4-of-4.csv: the file's name says shard 4/4, its content says shard 2/4\n");
  // The same index twice.
  fs::remove(folder + "/shard-4-of-4.csv");
  REQUIRE(RunAqesim(Sweep({"--shard", "4/4", "-o", folder + "/"}), Scheduler({})).exit_code == 0);
  fs::copy_file(folder + "/shard-2-of-4.csv", folder + "/shard-02-of-4.csv");
  const CommandResult twice = RunAqesim({"merge", folder, "-o", dir.File("m.csv")});
  CHECK(twice.exit_code == 2);
  CHECK(twice.stderr_text == "aqesim: error: " + folder +
                                 ": shard 2 of 4 is there twice: shard-02-of-4.csv and shard-2-of-4.csv\n");
  CHECK_FALSE(fs::exists(dir.File("m.csv")));
  fs::remove(folder + "/shard-02-of-4.csv");
  REQUIRE(RunAqesim({"merge", folder, "-o", dir.File("m.csv")}).exit_code == 0);
  REQUIRE(RunAqesim(Sweep({"-o", dir.File("all.csv")}), Scheduler({})).exit_code == 0);
  CHECK(Slurp(dir.File("m.csv")) == Slurp(dir.File("all.csv")));
  // merge SHARD... still takes files; a folder among them is refused.
  CHECK(RunAqesim({"merge", folder + "/shard-1-of-4.csv", folder, "-o", dir.File("x.csv")}).stderr_text ==
        "aqesim: error: " + folder + ": a folder: give one folder, or shard files\n");
}

TEST_CASE("e2e sweep --shard auto: a re-run of a killed element resumes from its journal in the folder",
          "[e2e][sweep][cluster]") {
  const testing::TempDir dir("aqesim_sweep_cluster");
  const std::string folder = dir.File("shards/");
  const Env element = Scheduler({{"SLURM_ARRAY_TASK_ID", "1"},
                                 {"SLURM_ARRAY_TASK_MIN", "0"},
                                 {"SLURM_ARRAY_TASK_COUNT", "2"}});  // shard 2 of 2: points 1, 3, 5, 7, 9
  REQUIRE(RunAqesim(Sweep({"--shard", "auto", "--keep-journal", "-o", folder}), element).exit_code == 0);
  const std::string shard = folder + "shard-2-of-2.csv", journal = shard + ".journal";
  const std::string expected = Slurp(shard);
  // As a kill leaves it: no shard file, a journal of the header and 2 of the 5 points.
  fs::remove(shard);
  std::istringstream lines(Slurp(journal));
  std::string kept, line;
  for (int i = 0; i < 3 && std::getline(lines, line); ++i) kept += line + "\n";
  std::ofstream(journal, std::ios::binary | std::ios::trunc) << kept;
  const CommandResult rerun = RunAqesim(Sweep({"--shard", "auto", "-o", folder}), element);
  REQUIRE(rerun.exit_code == 0);
  CHECK(rerun.stderr_text.find("aqesim: sweep: resumed 2 finished point(s) from " + journal +
                               ", simulated 3\n") != std::string::npos);
  CHECK(Slurp(shard) == expected);
  CHECK_FALSE(fs::exists(journal));
}

TEST_CASE("e2e merge FOLDER --wait: waits for the folder and its shards, then merges",
          "[e2e][sweep][cluster]") {
  // As a Kubernetes merge Job started with the Indexed Job: the folder does not exist yet.
  const testing::TempDir dir("aqesim_sweep_cluster");
  const std::string folder = dir.File("shards/");
  std::future<CommandResult> merge = std::async(std::launch::async, [&] {
    return RunAqesim({"merge", folder, "--wait", "120", "-o", dir.File("merged.csv")});
  });
  REQUIRE(merge.wait_for(std::chrono::milliseconds(500)) == std::future_status::timeout);  // still waiting
  REQUIRE(RunAqesim(Sweep({"--shard", "1/2", "-o", folder}), Scheduler({})).exit_code == 0);
  REQUIRE(merge.wait_for(std::chrono::milliseconds(500)) == std::future_status::timeout);
  REQUIRE(RunAqesim(Sweep({"--shard", "2/2", "-o", folder}), Scheduler({})).exit_code == 0);
  const CommandResult merged = merge.get();
  CHECK(merged.exit_code == 0);
  REQUIRE(RunAqesim(Sweep({"-o", dir.File("all.csv")}), Scheduler({})).exit_code == 0);
  CHECK(Slurp(dir.File("merged.csv")) == Slurp(dir.File("all.csv")));
}

}  // namespace
}  // namespace aqesim::e2e
