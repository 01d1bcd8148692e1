#include "models/scenario/scenario.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>

#include "models/scenario/properties_file.h"
#include "models/scenario/shown_pointer.h"
#include "tests/support/temp_dir.h"

namespace aqesim {
namespace {

#ifndef AQESIM_SOURCE_DIR
#define AQESIM_SOURCE_DIR "."
#endif

const std::string kBadDir = std::string(AQESIM_SOURCE_DIR) + "/tests/data/scenarios/bad";

// A scratch folder, removed at the end of the test.
struct TempDir : testing::TempDir {
  TempDir() : testing::TempDir("aqesim_loader_test") {}
};

std::string Strip(std::string line, const std::string& prefix) {
  for (size_t at; (at = line.find(prefix)) != std::string::npos;) line.erase(at, prefix.size());
  return line;
}

struct Loaded {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  std::unique_ptr<Scenario> scenario;
};

// Writes `text` as DIR/s.json, loads it, and returns messages with "DIR/" removed.
Loaded Load(const std::string& text, ConfOverrides overrides = {}, const TempDir& dir = TempDir()) {
  const std::string path = dir.Write("s.json", text);
  LoadResult r = LoadScenarioFile(path, overrides);
  Loaded out;
  for (const Diagnostic& d : r.errors) out.errors.push_back(Strip(d.ToString(), dir.path() + "/"));
  if (r.scenario) {
    for (const std::string& w : r.scenario->warnings) out.warnings.push_back(Strip(w, dir.path() + "/"));
    out.scenario = std::move(r.scenario);
  }
  CHECK((out.scenario == nullptr) == !out.errors.empty());
  return out;
}

const char* kScan = R"({"op": "scan", "bytes": "1g"})";

std::string WithPlan(const std::string& plan) { return R"({"name": "t", "plan": )" + plan + "}"; }

TEST_CASE("Loader: a minimal scenario loads with defaults", "[scenario]") {
  Loaded l = Load(WithPlan(kScan));
  REQUIRE(l.errors.empty());
  CHECK(l.warnings.empty());
  const Scenario& s = *l.scenario;
  CHECK(s.name == "t");
  CHECK(s.plan->op == PlanOp::kScan);
  CHECK(s.plan->id == "scan1");
  CHECK(s.plan->pointer == "/plan");
  CHECK(s.plan->scan_bytes == 1LL << 30);
  CHECK(s.cluster.executors == 2);
  CHECK(s.conf.shuffle_partitions == 200);
  CHECK(s.map_status_mode == MapStatusMode::kSpark);
  CHECK(s.cost.task_launch_seconds == 0.004);  // the fitted default (models/cost/cost_params.cc)
}

TEST_CASE("Loader: the user contract's example scenario loads", "[scenario]") {
  Loaded l = Load(R"({
  "name": "skewed-join", "description": "what it shows",
  "seed": 7,
  "cluster": {"executors": 10, "executorCores": 4, "executorMemory": "8g"},
  "conf": {"spark.sql.adaptive.enabled": "true", "spark.sql.shuffle.partitions": 200},
  "cost": {"taskLaunchSeconds": 0.02},
  "simulation": {"mapStatus": "exact"},
  "plan": {"op": "join", "id": "j1", "strategy": "SortMergeJoin", "joinType": "Inner",
           "left":  {"op": "exchange", "id": "e1", "child": {"op": "scan", "id": "orders", "bytes": "20g"},
                     "sizes": {"generate": {"distribution": "zipf", "exponent": 1.1, "mapTasks": 160}}},
           "right": {"op": "exchange", "id": "e2", "child": {"op": "scan", "id": "items", "bytes": "300m"},
                     "sizes": {"matrix": [[1048576, 0, 2097152]]}}}
})");
  REQUIRE(l.errors.empty());
  const Scenario& s = *l.scenario;
  CHECK(s.seed == 7);
  CHECK(s.cluster.executors == 10);
  CHECK(s.cluster.executor_memory_bytes == 8LL << 30);
  CHECK(s.raw_conf.at("spark.sql.shuffle.partitions") == "200");
  CHECK(s.cost.task_launch_seconds == 0.02);
  CHECK(s.map_status_mode == MapStatusMode::kExact);
  REQUIRE(s.plan->children.size() == 2);
  const PlanNode& e1 = s.plan->child(0);
  CHECK(e1.id == "e1");
  CHECK(e1.child().id == "orders");
  CHECK(e1.child().scan_bytes == 20LL << 30);
  REQUIRE(e1.sizes);
  CHECK(e1.sizes->source == "generate zipf");
  CHECK(std::get<GenerateSizes>(e1.sizes->form).map_tasks == 160);
  CHECK(std::get<GenerateSizes>(e1.sizes->form).exponent == 1.1);
  const PlanNode& e2 = s.plan->child(1);
  CHECK(std::get<SizeMatrix>(e2.sizes->form).at(0, 2) == 2097152);
}

TEST_CASE("Loader: generated ids count per operator in document order, skipping taken ids", "[scenario]") {
  Loaded l = Load(WithPlan(R"({"op": "union", "children": [
      {"op": "exchange", "child": {"op": "scan", "id": "scan1", "bytes": 1}},
      {"op": "exchange", "id": "exchange1", "child": {"op": "scan", "bytes": 2}},
      {"op": "filter", "child": {"op": "scan", "bytes": 3}}]})"));
  REQUIRE(l.errors.empty());
  const PlanNode& u = *l.scenario->plan;
  CHECK(u.id == "union1");
  CHECK(u.child(0).id == "exchange2");
  CHECK(u.child(0).child().id == "scan1");
  CHECK(u.child(1).id == "exchange1");
  CHECK(u.child(1).child().id == "scan2");
  CHECK(u.child(2).id == "filter1");
  CHECK(u.child(2).child().id == "scan3");
  CHECK(u.child(2).child().pointer == "/plan/children/2/child");
}

TEST_CASE("Loader: bad documents, every message word for word", "[scenario]") {
  struct Case {
    const char* name;
    std::string doc;
    std::vector<std::string> errors;
  };
  const std::vector<Case> cases = {
      {"not an object",
       "[1, 2]",
       {"s.json: expected a scenario (a JSON object with \"plan\"), found an array"}},
      {"missing plan",
       R"({"name": "x"})",
       {"s.json: missing field \"plan\" (the physical plan to simulate)"}},
      {"wrong types",
       R"({"name": 5, "description": ["a"], "seed": "7", "cluster": [], "conf": 3, "cost": {"taskLaunchSeconds": "1"},
           "simulation": {"mapStatus": true}, "plan": {"op": "scan", "bytes": true, "rows": -1, "tasks": 1.5}})",
       {"s.json: /name: expected a string, found 5",
        "s.json: /description: expected a string, found an array",
        "s.json: /seed: expected a non-negative integer, found \"7\"",
        "s.json: /cluster: expected an object (executors, executorCores, ...), found an empty array",
        "s.json: /conf: expected an object of Spark configuration keys, found 3",
        "s.json: /cost/taskLaunchSeconds: expected a number in [0, 3600] (s), found \"1\"",
        "s.json: /simulation/mapStatus: expected a map status mode (spark, exact), found true",
        "s.json: /plan/bytes: expected a byte count (an integer or a byte string such as \"64m\"), found "
        "true",
        "s.json: /plan/rows: expected a non-negative integer, found -1",
        "s.json: /plan/tasks: expected a positive integer, at most 10000000, found 1.5"}},
      {"byte counts",
       WithPlan(R"({"op": "union", "children": [
           {"op": "scan", "bytes": -5}, {"op": "scan", "bytes": 1.5}, {"op": "scan", "bytes": 1180591620717411303424},
           {"op": "scan", "bytes": "NaN"}, {"op": "scan", "bytes": "1.5g"}, {"op": "scan", "bytes": "-1"},
           {"op": "scan", "bytes": 18446744073709551615}, {"op": "scan", "bytes": "99999999p"}]})"),
       {"s.json: /plan/children/0/bytes: expected a non-negative byte count, found -5",
        "s.json: /plan/children/1/bytes: expected a whole number of bytes, found 1.5",
        "s.json: /plan/children/2/bytes: expected a byte count below 2^63, found 1.1805916207174113e+21",
        "s.json: /plan/children/3/bytes: expected a byte string such as \"64m\" or \"1g\", found \"NaN\"",
        "s.json: /plan/children/4/bytes: expected a byte string such as \"64m\" or \"1g\", found \"1.5g\" "
        "(fractional values are not supported)",
        "s.json: /plan/children/5/bytes: expected a non-negative byte count, found \"-1\"",
        "s.json: /plan/children/6/bytes: expected a byte count below 2^63, found 18446744073709551615",
        "s.json: /plan/children/7/bytes: expected a byte string such as \"64m\" or \"1g\", found "
        "\"99999999p\" "
        "(too large for a 64-bit byte count)"}},
      {"matrix cells",
       WithPlan(R"({"op": "exchange", "child": {"op": "scan", "bytes": 1},
                   "sizes": {"matrix": [[1, 2], [3, -4], [5.5, "6"], [7, 8, 9], [], 3, [1180591620717411303424, 0]]}})"),
       {"s.json: /plan/sizes/matrix/1/1: expected a non-negative byte count, found -4",
        "s.json: /plan/sizes/matrix/2/0: expected a whole number of bytes, found 5.5",
        "s.json: /plan/sizes/matrix/2/1: expected a byte count (a non-negative integer), found \"6\"",
        "s.json: /plan/sizes/matrix/3: expected 2 partition sizes like row 0, found 3",
        "s.json: /plan/sizes/matrix/4: expected at least one partition size, found an empty array",
        "s.json: /plan/sizes/matrix/5: expected a row of partition sizes (an array of byte counts), found 3",
        "s.json: /plan/sizes/matrix/6/0: expected a byte count below 2^63, found 1.1805916207174113e+21"}},
      {"empty matrix",
       WithPlan(R"({"op": "exchange", "child": {"op": "scan", "bytes": 1}, "sizes": {"matrix": []}})"),
       {"s.json: /plan/sizes/matrix: expected at least one row (one per map task), found an empty array"}},
      {"matrix total overflows",
       WithPlan(R"({"op": "exchange", "child": {"op": "scan", "bytes": 1},
                   "sizes": {"matrix": [[9223372036854775807, 1]]}})"),
       {"s.json: /plan/sizes/matrix: expected partition sizes whose total is below 2^63 bytes, found a "
        "larger total"}},
      {"sizes forms",
       WithPlan(R"({"op": "union", "children": [
           {"op": "exchange", "child": {"op": "scan", "bytes": 1}, "sizes": {}},
           {"op": "exchange", "child": {"op": "scan", "bytes": 1}, "sizes": {"matrix": [[1]], "csv": "a.csv"}},
           {"op": "exchange", "child": {"op": "scan", "bytes": 1}, "sizes": {"matrx": [[1]]}},
           {"op": "exchange", "child": {"op": "scan", "bytes": 1}, "sizes": [[1]]}]})"),
       {"s.json: /plan/children/0/sizes: expected one of \"matrix\", \"csv\", \"marginals\" or \"generate\", "
        "found none",
        "s.json: /plan/children/1/sizes: expected only one of \"matrix\", \"csv\", \"marginals\" or "
        "\"generate\", "
        "found \"matrix\" and \"csv\"",
        "s.json: /plan/children/2/sizes: expected one of \"matrix\", \"csv\", \"marginals\" or \"generate\", "
        "found none",
        "s.json: /plan/children/2/sizes/matrx: unknown field \"matrx\" of sizes; did you mean \"matrix\"?",
        "s.json: /plan/children/3/sizes: expected an object with one of \"matrix\", \"csv\", \"marginals\" "
        "or "
        "\"generate\", found an array"}},
      {"join sides with different partition counts",
       WithPlan(R"({"op": "join", "id": "j1",
           "left": {"op": "exchange", "child": {"op": "scan", "bytes": 1}, "sizes": {"matrix": [[1, 2, 3]]}},
           "right": {"op": "exchange", "child": {"op": "scan", "bytes": 1}, "sizes": {"matrix": [[1, 2]]}}})"),
       {"s.json: /plan/right/sizes: expected 3 partitions like the other side of join \"j1\" "
        "(/plan/left/sizes), "
        "found 2"}},
      {"join side through a filter, fixed by numPartitions",
       WithPlan(R"({"op": "join", "strategy": "ShuffledHashJoin",
           "left": {"op": "filter", "child": {"op": "exchange", "numPartitions": 4, "child": {"op": "scan", "bytes": 1}}},
           "right": {"op": "exchange", "child": {"op": "scan", "bytes": 1}, "sizes": {"marginals":
                     {"mapBytes": [3], "partitionBytes": [1, 1, 1]}}}})"),
       {"s.json: /plan/right/sizes: expected 4 partitions like the other side of join \"join1\" "
        "(/plan/left/child/numPartitions), found 3"}},
      {"exchange counts disagree",
       WithPlan(R"({"op": "exchange", "numPartitions": 2, "child": {"op": "scan", "bytes": 1, "tasks": 3},
                   "sizes": {"matrix": [[1, 2, 3]]}})"),
       {"s.json: /plan/sizes: expected 2 partitions like /plan/numPartitions, found 3",
        "s.json: /plan/sizes: expected 3 map tasks like /plan/child/tasks, found 1"}},
      {"unknown op with did-you-mean",
       WithPlan(R"({"op": "exchange", "child": {"op": "scna", "bytes": 1}})"),
       {"s.json: /plan/child/op: expected an operator (scan, exchange, join, aggregate, union, filter, "
        "project, sort, window), "
        "found \"scna\"; did you mean \"scan\"?"}},
      {"missing op, children still checked",
       WithPlan(R"({"child": {"op": "scan", "bytes": -1}})"),
       {"s.json: /plan: missing field \"op\" (one of scan, exchange, join, aggregate, union, filter, "
        "project, sort, window)",
        "s.json: /plan/child/bytes: expected a non-negative byte count, found -1"}},
      {"unknown fields with did-you-mean",
       R"({"nmae": "x", "cluster": {"executorCore": 4}, "cost": {"taskLaunch": 1},
           "plan": {"op": "scan", "bytez": 1, "zzz": 2}})",
       {"s.json: /nmae: unknown field \"nmae\" of a scenario; did you mean \"name\"?",
        "s.json: /cluster/executorCore: unknown field \"executorCore\" of cluster; did you mean "
        "\"executorCores\"?",
        "s.json: /cost/taskLaunch: unknown field \"taskLaunch\" of cost; did you mean \"taskLaunchSeconds\"?",
        "s.json: /plan: missing field \"bytes\" of a scan node",
        "s.json: /plan/bytez: unknown field \"bytez\" of a scan node; did you mean \"bytes\"?",
        "s.json: /plan/zzz: unknown field \"zzz\" of a scan node (known fields: op, id, bytes, rows, tasks, "
        "taskBytes, "
        "estimatedBytes, bucketing, keyDistribution)"}},
      {"join fields",
       WithPlan(
           R"({"op": "join", "strategy": "SortMergJoin", "joinType": "Sideways", "child": {"op": "scan", "bytes": 1},
                   "left": {"op": "scan", "bytes": 1}, "hints": {"left": "BROADCST", "middle": "MERGE"}})"),
       {"s.json: /plan: missing field \"right\" of a join node",
        "s.json: /plan/strategy: expected a join strategy (SortMergeJoin, ShuffledHashJoin, "
        "BroadcastHashJoin, "
        "BroadcastNestedLoopJoin, CartesianProduct), found \"SortMergJoin\"; did you mean \"SortMergeJoin\"?",
        "s.json: /plan/joinType: expected a join type (Inner, Cross, LeftOuter, RightOuter, FullOuter, "
        "LeftSemi, "
        "LeftAnti), found \"Sideways\"",
        "s.json: /plan/child: unknown field \"child\" of a join node (known fields: op, id, strategy, "
        "joinType, "
        "buildSide, hints, left, right, selectivity, estimatedBytes, rows, keys, leftKeys, rightKeys)",
        "s.json: /plan/hints/left: expected a join hint (NONE, BROADCAST, MERGE, SHUFFLE_HASH, "
        "SHUFFLE_REPLICATE_NL), "
        "found \"BROADCST\"; did you mean \"BROADCAST\"?",
        "s.json: /plan/hints/middle: unknown field \"middle\" of join hints (known fields: left, right)"}},
      {"build sides",
       WithPlan(R"({"op": "union", "children": [
           {"op": "join", "buildSide": "BuildLeft", "left": {"op": "scan", "bytes": 1}, "right": {"op": "scan", "bytes": 1}},
           {"op": "join", "strategy": "BroadcastHashJoin", "joinType": "LeftOuter", "buildSide": "BuildLeft",
            "left": {"op": "scan", "bytes": 1}, "right": {"op": "scan", "bytes": 1}},
           {"op": "join", "strategy": "BroadcastHashJoin", "joinType": "FullOuter",
            "left": {"op": "scan", "bytes": 1}, "right": {"op": "scan", "bytes": 1}},
           {"op": "exchange", "origin": "REPARTITION_BY_NUMBER", "child": {"op": "scan", "bytes": 1}}]})"),
       {"s.json: /plan/children/0/buildSide: expected no build side for a SortMergeJoin (only "
        "BroadcastHashJoin, "
        "ShuffledHashJoin and BroadcastNestedLoopJoin build), found \"BuildLeft\"",
        "s.json: /plan/children/1/buildSide: expected a side Spark can build for a LeftOuter "
        "BroadcastHashJoin, "
        "found \"BuildLeft\"",
        "s.json: /plan/children/2/strategy: expected a strategy that supports a FullOuter join, found "
        "\"BroadcastHashJoin\"",
        "s.json: /plan/children/3/origin: expected a shuffle origin (ENSURE_REQUIREMENTS, "
        "REPARTITION_BY_COL, "
        "REPARTITION_BY_NUM, REBALANCE_PARTITIONS_BY_NONE, REBALANCE_PARTITIONS_BY_COL), found "
        "\"REPARTITION_BY_NUMBER\"; did you mean \"REPARTITION_BY_NUM\"?"}},
      {"duplicate ids",
       WithPlan(R"({"op": "join", "id": "x", "left": {"op": "scan", "id": "s", "bytes": 1},
                   "right": {"op": "filter", "id": "s", "child": {"op": "scan", "id": "x", "bytes": 1}}})"),
       {"s.json: /plan/right/id: expected a unique id, found \"s\" (already used at /plan/left/id)",
        "s.json: /plan/right/child/id: expected a unique id, found \"x\" (already used at /plan/id)"}},
      {"zero executors",
       R"({"cluster": {"executors": 0, "executorCores": -2, "executorMemory": "0"}, "plan": {"op": "scan", "bytes": 1}})",
       {"s.json: /cluster/executors: expected a positive integer, found 0",
        "s.json: /cluster/executorCores: expected a positive integer, found -2",
        "s.json: /cluster/executorMemory: expected a positive byte count, found \"0\""}},
      {"task cpus above executor cores",
       R"({"cluster": {"executorCores": 2}, "conf": {"spark.task.cpus": 4}, "plan": {"op": "scan", "bytes": 1}})",
       {"s.json: /cluster/executorCores: expected at least spark.task.cpus = 4 cores per executor, found 2"}},
      {"bad conf values",
       R"({"conf": {"spark.sql.adaptive.coalescePartitions.minPartitionSize": 0, "spark.sql.adaptive.enabled": "yes",
                    "spark.sql.shuffle.partitions": null}, "plan": {"op": "scan", "bytes": 1}})",
       {"s.json: /conf/spark.sql.adaptive.coalescePartitions.minPartitionSize: expected a byte size > 0 "
        "(minPartitionSize must be positive), found \"0\"",
        "s.json: /conf/spark.sql.adaptive.enabled: expected a boolean (true or false), found \"yes\"",
        "s.json: /conf/spark.sql.shuffle.partitions: expected a string, number or boolean, found null"}},
      {"marginals",
       WithPlan(R"({"op": "union", "children": [
           {"op": "exchange", "child": {"op": "scan", "bytes": 1}, "sizes": {"marginals": {"mapBytes": [1, 2], "partitionBytes": [4]}}},
           {"op": "exchange", "child": {"op": "scan", "bytes": 1}, "sizes": {"marginals": {"mapBytes": [], "partitionBytes": [1, -1]}}},
           {"op": "exchange", "child": {"op": "scan", "bytes": 1}, "sizes": {"marginals": {"mapBytes": [1]}}}]})"),
       {"s.json: /plan/children/0/sizes/marginals: expected mapBytes and partitionBytes with equal totals, "
        "found 3 "
        "and 4",
        "s.json: /plan/children/1/sizes/marginals/mapBytes: expected bytes per map task (a non-empty array "
        "of byte "
        "counts), found an empty array",
        "s.json: /plan/children/1/sizes/marginals/partitionBytes/1: expected a non-negative byte count, "
        "found -1",
        "s.json: /plan/children/2/sizes/marginals: missing field \"partitionBytes\" of marginals"}},
      {"generate",
       WithPlan(R"({"op": "exchange", "child": {"op": "scan", "bytes": 1}, "sizes": {"generate": {
           "distribution": "zipfian", "mapTasks": 0, "partitions": 4, "hotPartitions": [1, 4], "hotFraction": 1.5,
           "noise": 1, "seed": -3, "mapBytes": [1, 2], "exponnt": 2}}})"),
       {"s.json: /plan/sizes/generate/distribution: expected a distribution (uniform, zipf, hotKeys), found "
        "\"zipfian\"; did you mean \"zipf\"?",
        "s.json: /plan/sizes/generate/mapTasks: expected a positive integer, found 0",
        "s.json: /plan/sizes/generate/hotPartitions/1: expected a partition index from 0 to 3, found 4",
        "s.json: /plan/sizes/generate/hotFraction: expected a number from 0 to 1, found 1.5",
        "s.json: /plan/sizes/generate/noise: expected a number from 0 up to (not including) 1, found 1",
        "s.json: /plan/sizes/generate/seed: expected a non-negative integer, found -3",
        "s.json: /plan/sizes/generate/exponnt: unknown field \"exponnt\" of generate; did you mean "
        "\"exponent\"?"}},
      {"generate too large",
       WithPlan(R"({"op": "exchange", "child": {"op": "scan", "bytes": 1},
                   "sizes": {"generate": {"mapTasks": 1000000, "partitions": 100000}}})"),
       {"s.json: /plan/sizes/generate: expected at most 20000000000 cells (map tasks x partitions) in a "
        "generated "
        "shuffle, found 1000000 x 100000"}},
      {"union children",
       WithPlan(R"({"op": "union", "children": []})"),
       {"s.json: /plan/children: expected a non-empty array of plan nodes, found an empty array"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Loaded l = Load(c.doc);
    CHECK(l.errors == c.errors);
  }
}

TEST_CASE("Loader: several problems in one document come together, in document order", "[scenario]") {
  Loaded l = Load(R"({
  "plan": {"op": "exchange", "numPartitions": 0,
           "child": {"op": "scan", "bytes": "lots"}},
  "seed": 1.5,
  "cluster": {"executors": "ten"},
  "conf": {"spark.sql.shuffle.partitions": "-3"},
  "simulation": {"mapStatus": "SPARK"}
})");
  CHECK(l.errors ==
        std::vector<std::string>{
            "s.json: /plan/numPartitions: expected a positive integer, found 0",
            "s.json: /plan/child/bytes: expected a byte string such as \"64m\" or \"1g\", found \"lots\"",
            "s.json: /seed: expected a non-negative integer, found 1.5",
            "s.json: /cluster/executors: expected a positive integer, found \"ten\"",
            "s.json: /conf/spark.sql.shuffle.partitions: expected an integer > 0 (the number of shuffle "
            "partitions must be positive), found \"-3\"",
            "s.json: /simulation/mapStatus: expected a map status mode (spark, exact), found \"SPARK\"; "
            "did you mean \"spark\"?",
        });
}

TEST_CASE("Loader: the first 20 errors are listed, the rest counted in one line", "[scenario]") {
  // 10^6 bad elements printed 10^6 lines (132 MB of standard error).
  std::string cluster;
  for (int i = 0; i < 25; ++i) cluster += (i > 0 ? ", \"k" : "\"k") + std::to_string(100 + i) + "\": 1";
  const Loaded l = Load(R"({"plan": {"op": "scan", "bytes": "1g"}, "cluster": {)" + cluster + "}}");
  REQUIRE(l.errors.size() == 21);
  for (int i = 0; i < 20; ++i)
    CHECK(l.errors[static_cast<size_t>(i)].rfind("s.json: /cluster/k" + std::to_string(100 + i) +
                                                     ": unknown field \"k" + std::to_string(100 + i) +
                                                     "\" of cluster (known fields: executors, ",
                                                 0) == 0);
  CHECK(l.errors[20] == "s.json: ... and 5 more errors");
}

TEST_CASE("Loader: broken JSON is one diagnostic with line and column", "[scenario]") {
  const LoadResult r = LoadScenarioFile(kBadDir + "/broken.json", {});
  REQUIRE(r.errors.size() == 1);
  CHECK(Strip(r.errors[0].ToString(), kBadDir + "/") ==
        "broken.json: line 3, column 38: syntax error while parsing object key - unexpected '}'; expected "
        "string "
        "literal");
  TempDir dir;
  Loaded empty = Load("", {}, dir);
  CHECK(empty.errors ==
        std::vector<std::string>{"s.json: line 1, column 1: syntax error while parsing value - "
                                 "unexpected end of input; expected '[', '{', or a literal"});
}

TEST_CASE("Loader: a missing scenario file names the file and the reason", "[scenario]") {
  const LoadResult r = LoadScenarioFile("/nonexistent/dir/x.json", {});
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].ToString() == "/nonexistent/dir/x.json: cannot read scenario: No such file or directory");
  CHECK(r.scenario == nullptr);
}

TEST_CASE("Loader: csv sizes, relative to the scenario's folder", "[scenario]") {
  SECTION("errors name the csv line and column; a missing file names the OS reason") {
    const LoadResult r = LoadScenarioFile(kBadDir + "/csv_errors.json", {});
    std::vector<std::string> lines;
    for (const Diagnostic& d : r.errors) lines.push_back(Strip(d.ToString(), kBadDir + "/"));
    CHECK(
        lines ==
        std::vector<std::string>{
            "ragged.csv: line 4: expected 3 values like line 1, found 2",
            "ragged.csv: line 5, column 2: expected a non-negative byte count, found -1",
            "ragged.csv: line 5, column 3: expected a non-negative integer byte count, found \"x\"",
            "ragged.csv: line 6, column 2: expected a whole number of bytes, found 1.5",
            "ragged.csv: line 6, column 3: expected a non-negative integer byte count, found an empty field",
            "csv_errors.json: /plan/right/sizes/csv: cannot read csv file \"missing.csv\" (missing.csv): No "
            "such file or directory",
        });
  }
  SECTION("a good file: blank lines ignored, spaces trimmed") {
    TempDir dir;
    std::filesystem::create_directories(dir.path() + "/data");
    dir.Write("data/e1.csv", "100, 200, 300\r\n0,0,0\n\n5,5,5\n");
    Loaded l = Load(WithPlan(R"({"op": "exchange", "child": {"op": "scan", "bytes": 1},
                                "sizes": {"csv": "data/e1.csv"}})"),
                    {}, dir);
    REQUIRE(l.errors.empty());
    const SizesSpec& sizes = *l.scenario->plan->sizes;
    CHECK(sizes.source == "csv data/e1.csv");
    const SizeMatrix& m = std::get<SizeMatrix>(sizes.form);
    CHECK(m.num_maps() == 3);
    CHECK(m.num_reducers() == 3);
    CHECK(m.MapBytes() == std::vector<int64_t>{600, 0, 15});
  }
  SECTION("a last line without its line break is a row; one of a single line too") {
    TempDir dir;
    std::filesystem::create_directories(dir.path() + "/data");
    dir.Write("data/e1.csv", "1,2\n3,4");
    dir.Write("data/e2.csv", "7,8,9");
    for (const auto& [file, maps, bytes] :
         {std::tuple{"e1", 2, std::vector<int64_t>{3, 7}}, std::tuple{"e2", 1, std::vector<int64_t>{24}}}) {
      Loaded l = Load(WithPlan(std::string(R"({"op": "exchange", "child": {"op": "scan", "bytes": 1},
                                "sizes": {"csv": "data/)") +
                               file + R"(.csv"}})"),
                      {}, dir);
      REQUIRE(l.errors.empty());
      const SizeMatrix& m = std::get<SizeMatrix>(l.scenario->plan->sizes->form);
      CHECK(m.num_maps() == maps);
      CHECK(m.MapBytes() == bytes);
    }
  }
}

TEST_CASE("Loader: plans deeper than 1000 nodes are an error, not a stack overflow", "[scenario]") {
  std::string plan = R"({"op": "scan", "bytes": 1})";
  for (int i = 0; i < 1000; ++i) plan = R"({"op": "filter", "child": )" + plan + "}";
  Loaded l = Load(WithPlan(plan));
  std::string deep_pointer = "/plan";
  for (int i = 0; i < 1000; ++i) deep_pointer += "/child";
  REQUIRE(l.errors.size() == 1);
  CHECK(l.errors[0] == "s.json: " + ShownPointer(deep_pointer) +
                           ": expected a plan at most 1000 nodes deep, found deeper nesting");
  // 1000 nodes deep is fine.
  std::string ok = R"({"op": "scan", "bytes": 1})";
  for (int i = 0; i < 999; ++i) ok = R"({"op": "filter", "child": )" + ok + "}";
  CHECK(Load(WithPlan(ok)).errors.empty());
}

TEST_CASE("Loader: warnings for unknown spark keys, with suggestions", "[scenario]") {
  Loaded l =
      Load(R"({"conf": {"spark.sql.adaptive.enabeld": true, "spark.sql.adaptive.skewJoin.enabled": false,
                              "custom.key": 1},
                     "plan": {"op": "exchange", "child": {"op": "scan", "bytes": 1},
                              "sizes": {"generate": {"exponent": 2}}}})");
  REQUIRE(l.errors.empty());
  CHECK(l.warnings ==
        std::vector<std::string>{
            "s.json: /conf/spark.sql.adaptive.enabeld: unused configuration key "
            "'spark.sql.adaptive.enabeld'; did you "
            "mean 'spark.sql.adaptive.enabled'?",
            "s.json: /conf/custom.key: ignoring non-Spark configuration key 'custom.key'",
            "s.json: /plan/sizes/generate/exponent: \"exponent\" has no effect with distribution \"uniform\"",
        });
  CHECK_FALSE(l.scenario->conf.skew_join_enabled);
  CHECK(l.scenario->raw_conf.at("spark.sql.adaptive.enabeld") == "true");
}

TEST_CASE("Loader: conf precedence scenario < --properties-file < --conf", "[scenario]") {
  TempDir dir;
  const std::string props = dir.Write("spark-defaults.conf",
                                      "# comment\n"
                                      "spark.sql.shuffle.partitions    300\n"
                                      "spark.sql.adaptive.advisoryPartitionSizeInBytes=32m\n"
                                      "\n"
                                      "spark.sql.autoBroadcastJoinThreshold: -1\n"
                                      "spark.executor.cores 8\n");
  ConfOverrides o;
  o.properties_file = props;
  o.conf = {{"spark.sql.shuffle.partitions", "400"},
            {"spark.sql.adaptive.skewJoin.skewedPartitionFactor", "3"}};
  Loaded l = Load(
      R"({"conf": {"spark.sql.shuffle.partitions": 100, "spark.sql.adaptive.advisoryPartitionSizeInBytes": "16m",
                              "spark.sql.adaptive.coalescePartitions.minPartitionSize": "2m"},
                     "plan": {"op": "scan", "bytes": 1}})",
      o, dir);
  REQUIRE(l.errors.empty());
  const Scenario& s = *l.scenario;
  CHECK(s.conf.shuffle_partitions == 400);                       // --conf
  CHECK(s.conf.advisory_partition_size_bytes == 32LL << 20);     // properties file
  CHECK(s.conf.coalesce_min_partition_size_bytes == 2LL << 20);  // scenario
  CHECK(s.conf.auto_broadcast_join_threshold_bytes == -1);       // "key: value"
  CHECK(s.conf.skewed_partition_factor == 3.0);
  CHECK(s.raw_conf.at("spark.sql.shuffle.partitions") == "400");
  CHECK(s.cluster.executor_cores == 8);  // from spark.executor.cores: the scenario gives no executorCores
}

TEST_CASE("Loader: problems in the properties file and --conf name their origin", "[scenario]") {
  ConfOverrides o;
  o.properties_file = kBadDir + "/bad.properties";
  Loaded l = Load(WithPlan(kScan), o);
  for (std::string& e : l.errors) e = Strip(e, kBadDir + "/");
  CHECK(l.errors ==
        std::vector<std::string>{
            "bad.properties: line 3: expected a byte size > 0 (minPartitionSize must be positive), found "
            "\"0\"",
            "bad.properties: line 4: expected \"key value\" or \"key=value\", found \"[section]\""});

  TempDir dir;
  o.properties_file = dir.Write("p.conf",
                                "spark.master\n"
                                "spark.sql.shuffle.partitions 300\n"
                                "spark.sql.adaptive.coalescePartitions.minPartitionSize=0\n"
                                "spark.sql.adaptive.skewJoin.enabeld: true\n");
  o.conf = {{"spark.sql.adaptive.rebalancePartitionsSmallPartitionFactor", "2"}, {"spark.foo", "1"}};
  const std::string path = dir.Write("s.json", WithPlan(kScan));
  const LoadResult r = LoadScenarioFile(path, o);
  std::vector<std::string> lines;
  for (const Diagnostic& d : r.errors) lines.push_back(Strip(d.ToString(), dir.path() + "/"));
  CHECK(
      lines ==
      std::vector<std::string>{
          "p.conf: line 3: expected a byte size > 0 (minPartitionSize must be positive), found \"0\"",
          "--conf spark.sql.adaptive.rebalancePartitionsSmallPartitionFactor=2: expected a number in (0, 1), "
          "found \"2\"",
      });

  o.properties_file = dir.Write("q.conf", "spark.sql.adaptive.skewJoin.enabeld: true\n");
  o.conf = {{"spark.foo", "1"}};
  const LoadResult ok = LoadScenarioFile(path, o);
  REQUIRE(ok.scenario);
  std::vector<std::string> warnings;
  for (const std::string& w : ok.scenario->warnings) warnings.push_back(Strip(w, dir.path() + "/"));
  CHECK(warnings ==
        std::vector<std::string>{
            "q.conf: line 1: unused configuration key 'spark.sql.adaptive.skewJoin.enabeld'; did you mean "
            "'spark.sql.adaptive.skewJoin.enabled'?",
            "--conf spark.foo=1: unused configuration key 'spark.foo'",
        });

  o.properties_file = dir.path() + "/none.conf";
  o.conf.clear();
  const LoadResult missing = LoadScenarioFile(path, o);
  REQUIRE(missing.errors.size() == 1);
  CHECK(Strip(missing.errors[0].ToString(), dir.path() + "/") ==
        "none.conf: cannot read properties file: No such file or directory");
}

TEST_CASE("ReadPropertiesFile: keys set again are warned one by one up to 20, then in one line",
          "[scenario]") {
  // Hostile round: a file setting one key 10^5 times printed 10^5 warning lines.
  TempDir dir;
  std::string text;
  for (int i = 1; i <= 100; ++i) text += "spark.sql.shuffle.partitions=" + std::to_string(i) + "\n";
  const std::string path = dir.Write("again.conf", text);
  std::vector<Diagnostic> errors, warnings;
  const std::vector<PropertyEntry> entries = ReadPropertiesFile(path, &errors, &warnings);
  CHECK(errors.empty());
  REQUIRE(entries.size() == 100);
  CHECK(entries.back().value == "100");  // the later value wins
  REQUIRE(warnings.size() == 21);
  CHECK(warnings[0].pointer == "line 2");
  CHECK(warnings[0].message ==
        "'spark.sql.shuffle.partitions' is also set on line 1; the later value is used");
  CHECK(warnings[19].pointer == "line 21");
  CHECK(warnings[20].pointer == "line 22");
  CHECK(warnings[20].message ==
        "79 more keys set again, from this line on, not listed one by one; the later value of each is used");
}

TEST_CASE("LoadScenarioJson: an already-parsed document", "[scenario]") {
  const nlohmann::json doc = nlohmann::json::parse(R"({"plan": {"op": "scan", "bytes": "2k"}, "name": "n"})");
  const LoadResult r = LoadScenarioJson(doc, "mem.json", {});
  REQUIRE(r.scenario);
  CHECK(r.scenario->plan->scan_bytes == 2048);
  CHECK(r.scenario->name == "n");
  const LoadResult bad =
      LoadScenarioJson(nlohmann::json::parse(R"({"plan": {"op": "scan"}})"), "mem.json", {});
  REQUIRE(bad.errors.size() == 1);
  CHECK(bad.errors[0].ToString() == "mem.json: /plan: missing field \"bytes\" of a scan node");
}

}  // namespace
}  // namespace aqesim
