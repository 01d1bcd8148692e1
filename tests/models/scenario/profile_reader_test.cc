#include "models/scenario/profile_reader.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"
#include "tests/support/temp_dir.h"

namespace aqesim {
namespace {

struct Messages {
  std::vector<std::string> errors, warnings;
};

// Loads a scenario of two exchanges (e1, e2) under a broadcast join j1 and a sort-merge join j2
// with `profiles`; messages without the file name.
Messages LoadWithProfiles(const std::string& profiles) {
  testing::TempDir dir("aqesim_profile_reader");
  const std::string path = dir.Write("s.json", R"({
 "seed": 1,
 "cluster": {"executors": 2, "executorCores": 2},
 "plan": {"op": "join", "id": "j2", "strategy": "SortMergeJoin",
   "left": {"op": "exchange", "id": "e1", "numPartitions": 4, "child": {"op": "scan", "id": "s1", "bytes": "64m"}},
   "right": {"op": "exchange", "id": "e2", "numPartitions": 4, "child":
     {"op": "join", "id": "j1", "strategy": "BroadcastHashJoin",
      "left": {"op": "scan", "id": "s2", "bytes": "64m"}, "right": {"op": "scan", "id": "s3", "bytes": "1m"}}}},
 "profiles": )" + profiles + "}");
  const LoadResult r = LoadScenarioFile(path, ConfOverrides{});
  Messages out;
  const std::string prefix = path + ": ";
  for (const Diagnostic& d : r.errors) out.errors.push_back(d.ToString().substr(prefix.size()));
  if (r.scenario)
    for (const std::string& w : r.scenario->warnings) out.warnings.push_back(w.substr(prefix.size()));
  return out;
}

}  // namespace

TEST_CASE("CheckProfileStages: a profile no stage of the plan takes is named with the plan's stages",
          "[scenario][profiles]") {
  SECTION("an unknown exchange id: did you mean") {
    const Messages m = LoadWithProfiles(R"({"e9 map": {"tasks": 1}, "e1 map": {"tasks": 1}})");
    CHECK(m.errors.empty());
    CHECK(m.warnings ==
          std::vector<std::string>{
              "/profiles/e9 map: no stage of the plan is named \"e9 map\" (its stages: \"e1 map\", "
              "\"e2 map\", \"j1 broadcast\", \"result\"), so this profile is never used; did you "
              "mean \"e1 map\"?"});
  }
  SECTION("a stage name of no known form") {
    const Messages m = LoadWithProfiles(R"({"stage 3": {"tasks": 1}})");
    CHECK(m.warnings ==
          std::vector<std::string>{
              "/profiles/stage 3: no stage of the plan is named \"stage 3\" (its stages: \"e1 map\", "
              "\"e2 map\", \"j1 broadcast\", \"result\"), so this profile is never used"});
  }
  SECTION(
      "every stage the plan can run: its exchanges, any join as a broadcast, inserted exchanges, result") {
    const Messages m = LoadWithProfiles(
        R"({"e1 map": {"tasks": 1}, "e2 map": {"tasks": 1}, "j1 broadcast": {"tasks": 1},
            "j2 broadcast": {"tasks": 1}, "s2-exchange map": {"tasks": 1}, "s2-exchange-2 map": {"tasks": 1},
            "result": {"tasks": 1}})");
    CHECK(m.errors.empty());
    CHECK(m.warnings.empty());
  }
  SECTION("\"result 2\" is a stage only under a collectLimit") {
    const Messages m = LoadWithProfiles(R"({"result 2": {"tasks": 1}})");
    REQUIRE(m.warnings.size() == 1);
    CHECK(m.warnings[0].rfind("/profiles/result 2: no stage of the plan is named \"result 2\"", 0) == 0);
  }
}

TEST_CASE("ReadProfiles: huge values are refused at their own pointer", "[scenario][profiles]") {
  CHECK(LoadWithProfiles(R"({"e1 map": {"tasks": 1, "overheadSeconds": {"firstWave": 1e300}}})").errors ==
        std::vector<std::string>{"/profiles/e1 map/overheadSeconds/firstWave: expected a number of seconds "
                                 "from 0 to 1e6, found 1e+300"});
  CHECK(LoadWithProfiles(R"({"e1 map": {"tasks": 1, "secondsPerRowOp": 2}})").errors ==
        std::vector<std::string>{
            "/profiles/e1 map/secondsPerRowOp: expected a number of seconds from 0 to 1, found 2"});
  CHECK(LoadWithProfiles(R"({"e1 map": {"tasks": 1, "critical": {"task": 0, "residual": 1e7}}})").errors ==
        std::vector<std::string>{
            "/profiles/e1 map/critical/residual: expected a residual from 0 to 1e6, found 10000000.0"});
  // At the bounds each, a task of 10^6 s fixed x a residual of 10 is refused as a whole.
  CHECK(LoadWithProfiles(
            R"({"e1 map": {"tasks": 1, "fixedSeconds": 1e6, "critical": {"task": 0, "residual": 10}}})")
            .errors ==
        std::vector<std::string>{
            "/profiles/e1 map: expected a profile whose tasks take at most 1e6 s at the recorded "
            "size, found 10000000.0 s (overheadSeconds + (fixedSeconds + secondsPerRowOp x rowOps / "
            "tasks) x the largest residual)"});
  CHECK(LoadWithProfiles(
            R"({"e1 map": {"tasks": 1, "fixedSeconds": 1e5, "critical": {"task": 0, "residual": 10}}})")
            .errors.empty());
}

}  // namespace aqesim
