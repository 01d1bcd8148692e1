// `aqesim run`'s first line names the executors the runs had: a static count, a recorded
// timeline's most present at once, or dynamic allocation's start and cap (new-user finding: it
// said "6 executors × 4 cores" on a timeline of 5 and under a policy capped at 2).
#include <catch2/catch.hpp>
#include <string>

#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

std::string FirstLine(const CommandResult& r) { return r.stdout_text.substr(0, r.stdout_text.find('\n')); }

TEST_CASE("run: the heading says which executors the runs had", "[e2e][run]") {
  const std::string demo = SourcePath("scenarios/demo.json");
  const std::string recorded = SourcePath("scenarios/recorded/eventlog_4nodes_8cores_dynamic_alloc.json");
  CHECK(FirstLine(RunAqesim({"run", demo})) == "scenario demo — 10 executors × 4 cores");
  // Its timeline: executors 1-4 from the start, the fifth at 1.675 s (cluster.executors says 6:
  // a killed executor not yet removed still counts for defaultParallelism).
  CHECK(FirstLine(RunAqesim({"run", recorded})) ==
        "scenario recorded-eventlog_4nodes_8cores_dynamic_alloc — recorded executor timeline, at most 5 "
        "executors at "
        "once × 4 cores");
  CHECK(FirstLine(RunAqesim({"run", demo, "--conf", "spark.dynamicAllocation.enabled=true", "--conf",
                             "spark.dynamicAllocation.initialExecutors=3", "--conf",
                             "spark.dynamicAllocation.maxExecutors=20"})) ==
        "scenario demo — dynamic allocation from 3 executors (max 20) × 4 cores");
}

}  // namespace
}  // namespace aqesim::e2e
