// Stages matched by plan shape for `validate --profile-from` (tools/validate/profile_graft.h).
#include "tools/validate/profile_graft.h"

#include <catch2/catch.hpp>

namespace aqesim::validate {
namespace {

using nlohmann::json;

json Scan(const std::string& id, int64_t bytes) { return {{"op", "scan"}, {"id", id}, {"bytes", bytes}}; }
json Exchange(const std::string& id, json child, int partitions) {
  return {{"op", "exchange"}, {"id", id}, {"child", std::move(child)}, {"numPartitions", partitions}};
}

/// count(*) of a sort-merge join of two shuffled scans: e1 over j1 over e2(s1), e3(s2).
json SmjPlan(const std::string& e1, const std::string& e2, const std::string& e3, int partitions) {
  return {{"op", "aggregate"},
          {"id", "a1"},
          {"grouped", false},
          {"child", Exchange(e1,
                             {{"op", "join"},
                              {"id", "j1"},
                              {"strategy", "SortMergeJoin"},
                              {"joinType", "Inner"},
                              {"left", Exchange(e2, Scan("s1", 100), partitions)},
                              {"right", Exchange(e3, Scan("s2", 200), partitions)}},
                             1)}};
}

json Profile(int stage) { return {{"recordedStage", stage}, {"tasks", 1}}; }

TEST_CASE("StageShapes: stages named as the engine names them, shapes without ids or sizes", "[validate]") {
  const auto shapes = StageShapes(SmjPlan("e1", "e2", "e3", 200));
  REQUIRE(shapes.size() == 4);
  CHECK(shapes.at("e2 map").deep == "map:exchange(scan())");
  CHECK(shapes.at("e2 map").deep_rank == 0);
  CHECK(shapes.at("e3 map").deep_rank == 1);  // the same shape, second in pre-order
  CHECK(shapes.at("e3 map").path == "/child/child/right");
  CHECK(shapes.at("e1 map").own ==
        "map:exchange(join joinType=Inner strategy=SortMergeJoin(<stage>, <stage>))");
  CHECK(shapes.at("result").own == "result:aggregate grouped=false(<stage>)");
  // Other ids, sizes and partition counts: the same shapes.
  const auto other = StageShapes(SmjPlan("e7", "e8", "e9", 13));
  CHECK(other.at("e7 map").deep == shapes.at("e1 map").deep);
  CHECK(other.at("result").deep == shapes.at("result").deep);
}

TEST_CASE("GraftProfiles: each stage takes the profile of the stage of the same shape", "[validate]") {
  ProfileSource a;
  a.label = "SQL execution 3";
  a.scenario = {
      {"plan", SmjPlan("e1", "e2", "e3", 200)},
      {"profiles",
       {{"e1 map", Profile(4)}, {"e2 map", Profile(0)}, {"e3 map", Profile(1)}, {"result", Profile(8)}}},
      {"driver", {{"startSeconds", 0.4}}}};
  ProfileSource unrelated;
  unrelated.label = "SQL execution 1";
  unrelated.scenario = {{"plan", Scan("s1", 5)}, {"profiles", {{"result", Profile(99)}}}};
  // B: the same query with other ids; its own profiles are replaced.
  json b = {{"plan", SmjPlan("e4", "e5", "e6", 13)}, {"profiles", {{"e4 map", Profile(77)}}}};
  const GraftResult g = GraftProfiles({unrelated, a}, &b);
  CHECK(g.source_label == "SQL execution 3");
  CHECK(b["profiles"]["e4 map"]["recordedStage"] == 4);
  CHECK(b["profiles"]["e5 map"]["recordedStage"] == 0);
  CHECK(b["profiles"]["e6 map"]["recordedStage"] == 1);
  CHECK(b["profiles"]["result"]["recordedStage"] == 8);
  CHECK(b["driver"]["startSeconds"] == 0.4);
  CHECK(g.stage_sources.at("e4 map") == "SQL execution 3: e1 map (stage 4)");

  SECTION("a stage whose subtree differs takes the profile of the same own operators") {
    json c = {{"plan", SmjPlan("e1", "e2", "e3", 200)}};
    c["plan"]["child"]["child"]["left"]["child"] = {
        {"op", "filter"}, {"id", "f1"}, {"child", Scan("s1", 100)}};  // e2 over filter(scan)
    const GraftResult h = GraftProfiles({a}, &c);
    CHECK_FALSE(c["profiles"].contains("e2 map"));  // map:exchange(filter(scan())) is not in A
    CHECK(h.stage_sources.count("e2 map") == 0);
    CHECK(c["profiles"]["e3 map"]["recordedStage"] == 1);  // the same shape at the same place
    CHECK(c["profiles"]["e1 map"]["recordedStage"] == 4);  // its own operators match
    CHECK(c["profiles"]["result"]["recordedStage"] == 8);
  }
  SECTION("no source matches: no profiles, no driver") {
    json d = {{"plan", Scan("s1", 5)}, {"driver", {{"startSeconds", 1}}}};
    const GraftResult h = GraftProfiles({a}, &d);
    CHECK(h.stage_sources.empty());
    CHECK_FALSE(d.contains("profiles"));
    CHECK_FALSE(d.contains("driver"));
  }
}

}  // namespace
}  // namespace aqesim::validate
