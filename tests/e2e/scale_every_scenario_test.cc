// aqesim scale over every bundled scenario and every shared event log (issue 16): the makespan
// may rise with more executors; every rise is given with its size (riseSeconds), and when AQE
// decided the same, scale names the term of the model that makes the added executors slower
// (riseCause: executor start-up, shuffle reads turning remote or reduce-task locality, which
// Spark shows too — never "the schedule", which no term explains); the critical path is at most
// every row's makespan and Sparklens' estimate.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

std::vector<std::string> Inputs() {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(SourcePath("scenarios"))) {
    const std::string p = e.path().string();
    if (e.is_regular_file() && e.path().extension() == ".json" && p.find("/sweeps/") == std::string::npos)
      out.push_back(p);
  }
  // The shared logs as the tree carries them (q72: its execution 24), but the two in local mode,
  // which scale refuses (one executor, the driver).
  for (const char* log : {"eventlog_4nodes_8cores_dynamic_alloc.zstd", "join_agg_on_yarn_eventlog.zstd",
                          "nds_q72_dataproc_2_2_execution24.zstd", "application_1472176676028_407508_1.gz"})
    out.push_back(SourcePath("tests/data/eventlogs/") + log);
  std::sort(out.begin(), out.end());
  return out;
}

TEST_CASE(
    "scale: every bundled scenario and shared log: no unexplained rise, critical path below every estimate",
    "[e2e][scale][longest]") {
  int inputs = 0, rises = 0;
  for (const std::string& input : Inputs()) {
    INFO(input);
    const CommandResult r = RunAqesim({"scale", input, "--format", "json"});
    REQUIRE(r.exit_code == 0);
    const json out = json::parse(r.stdout_text);
    ++inputs;
    const json& rows = out["rows"];
    const double critical = out["criticalPathSeconds"].get<double>();
    for (size_t i = 0; i < rows.size(); ++i) {
      const json& row = rows[i];
      INFO(row["executors"].get<int>() << " executors");
      CHECK(critical <= row["makespanSeconds"].get<double>() + 1e-9);
      if (row.contains("sparklensSeconds") && row["sparklensSeconds"].is_number())
        CHECK(critical <= row["sparklensSeconds"].get<double>() + 1e-9);
      if (i == 0) continue;
      const json& before = rows[i - 1];
      const bool rose = row["executors"].get<int>() > before["executors"].get<int>() &&
                        row["makespanSeconds"].get<double>() > before["makespanSeconds"].get<double>();
      const bool decided_differently = !row["decisionsChanged"].empty() || !row["decisionsReplaced"].empty();
      if (!rose) {
        CHECK_FALSE(row.contains("riseSeconds"));
        CHECK_FALSE(row.contains("riseCause"));
        continue;
      }
      ++rises;
      CHECK(row["riseSeconds"].get<double>() ==
            Approx(row["makespanSeconds"].get<double>() - before["makespanSeconds"].get<double>()));
      if (decided_differently) {
        CHECK_FALSE(row.contains("riseCause"));
        continue;
      }
      REQUIRE(row.contains("riseCause"));
      const std::string cause = row["riseCause"].get<std::string>();
      INFO(cause);
      CHECK((cause.rfind("executor start-up", 0) == 0 ||
             cause.rfind("shuffle reads turning remote", 0) == 0 ||
             cause.rfind("reduce-task locality", 0) == 0));
    }
  }
  CHECK(inputs >= 62);  // 58 scenarios when this was written, 4 logs
  CHECK(rises > 0);     // the test vectors' 1 -> 2 executors rise (remote shuffle reads)
}

}  // namespace
}  // namespace aqesim::e2e
