// spark.scheduler.allocation.file (fairscheduler.xml) in hand-written scenarios: pools read from
// the file, relative to the scenario; driver.pools win; bad XML is an error naming the file.
#include "models/scenario/allocation_file_reader.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"
#include "tests/support/temp_dir.h"

namespace aqesim {
namespace {

struct Parsed {
  std::map<std::string, PoolSpec> pools;
  std::vector<std::string> errors, warnings;
};

Parsed Parse(const std::string& text) {
  Parsed p;
  std::vector<Diagnostic> errors, warnings;
  ParseAllocationFile("pools.xml", text, &p.pools, &errors, &warnings);
  for (const Diagnostic& d : errors) p.errors.push_back(d.ToString());
  for (const Diagnostic& d : warnings) p.warnings.push_back(d.ToString());
  return p;
}

TEST_CASE("AllocationFile: Spark's fairscheduler.xml pools with their defaults", "[scenario][fair]") {
  // The example of Spark's conf/fairscheduler.xml.template, plus a pool with no child.
  const Parsed p = Parse(R"(<?xml version="1.0"?>
<allocations>
  <!-- two pools -->
  <pool name="production">
    <schedulingMode>FAIR</schedulingMode>
    <weight>1</weight>
    <minShare>2</minShare>
  </pool>
  <pool name="test">
    <schedulingMode> fifo </schedulingMode>
    <weight>2</weight>
    <minShare>3</minShare>
  </pool>
  <pool name="bare"/>
</allocations>)");
  REQUIRE(p.errors.empty());
  REQUIRE(p.warnings.empty());
  REQUIRE(p.pools.size() == 3);
  const PoolSpec& prod = p.pools.at("production");
  CHECK(prod.name == "production");
  CHECK(prod.mode == SchedulingMode::kFair);
  CHECK(prod.weight == 1);
  CHECK(prod.min_share == 2);
  const PoolSpec& test = p.pools.at("test");
  CHECK(test.mode == SchedulingMode::kFifo);
  CHECK(test.weight == 2);
  CHECK(test.min_share == 3);
  const PoolSpec& bare = p.pools.at("bare");
  CHECK(bare.mode == SchedulingMode::kFifo);
  CHECK(bare.weight == 1);
  CHECK(bare.min_share == 0);
}

TEST_CASE("AllocationFile: values Spark cannot read are warnings and take its defaults", "[scenario][fair]") {
  const Parsed p = Parse(R"(<allocations><pool name="etl"><schedulingMode>LIFO</schedulingMode>
    <weight>two</weight><minShare>-1</minShare></pool><pool name="etl"><weight>3</weight></pool></allocations>)");
  REQUIRE(p.errors.empty());
  CHECK(p.warnings ==
        std::vector<std::string>{
            "pools.xml: <pool name=\"etl\"> <schedulingMode>: expected FIFO or FAIR, found \"LIFO\"; "
            "FIFO is used (as Spark does)",
            "pools.xml: <pool name=\"etl\"> <weight>: expected an integer from 0 to 999999999, found "
            "\"two\"; 1 is used (as Spark does)",
            "pools.xml: <pool name=\"etl\"> <minShare>: expected an integer from 0 to 999999999, "
            "found \"-1\"; 0 is used (as Spark does)",
            "pools.xml: <pool name=\"etl\">: pool \"etl\" is defined twice; the later one is used"});
  CHECK(p.pools.at("etl").weight == 3);
}

TEST_CASE("AllocationFile: bad XML is an error naming the file and the place", "[scenario][fair]") {
  const Parsed unclosed =
      Parse("<allocations>\n  <pool name=\"a\">\n    <weight>1</weight>\n</allocations>\n");
  REQUIRE(unclosed.errors.size() == 1);
  CHECK(unclosed.errors[0].rfind("pools.xml: line ", 0) == 0);
  CHECK(unclosed.errors[0].find("malformed XML") != std::string::npos);
  CHECK(Parse("<pools><pool name=\"a\"/></pools>").errors ==
        std::vector<std::string>{
            "pools.xml: expected a fairscheduler.xml document (root element <allocations>)"});
  CHECK(Parse("<allocations><pool><weight>2</weight></pool></allocations>").errors ==
        std::vector<std::string>{"pools.xml: <pool>: expected a name attribute (<pool name=\"...\">)"});
  // Deep nesting is refused before the parser recurses into it.
  std::string deep = "<allocations>\n";
  for (int i = 0; i < 100; ++i) deep += "<a>";
  CHECK(Parse(deep).errors ==
        std::vector<std::string>{"pools.xml: line 2: elements nested deeper than 64 levels"});
}

TEST_CASE("Loader: spark.scheduler.allocation.file relative to the scenario; driver.pools win",
          "[scenario][fair]") {
  testing::TempDir dir("aqesim_allocation_file_test");
  dir.Write("conf/pools.xml", R"(<allocations>
  <pool name="etl"><schedulingMode>FAIR</schedulingMode><weight>2</weight><minShare>4</minShare></pool>
  <pool name="adhoc"><schedulingMode>FAIR</schedulingMode></pool>
</allocations>)");
  dir.Write("conf/broken.xml", "<allocations>\n<pool name=\"etl\">\n</allocations>\n");
  auto load = [&](const std::string& file, const std::string& mode, const std::string& driver) {
    const std::string path =
        dir.Write("s.json", R"({"conf": {"spark.scheduler.mode": ")" + mode +
                                R"(", "spark.scheduler.allocation.file": ")" + file + R"("}, )" + driver +
                                R"("plan": {"op": "scan", "bytes": 100}})");
    return LoadScenarioFile(path, {});
  };
  LoadResult r = load("conf/pools.xml", "FAIR", R"("driver": {"pools": {"adhoc": {"weight": 5}}}, )");
  REQUIRE(r.errors.empty());
  const auto& pools = r.scenario->driver.pools;
  REQUIRE(pools.size() == 2);
  CHECK(pools.at("etl").mode == SchedulingMode::kFair);
  CHECK(pools.at("etl").weight == 2);
  CHECK(pools.at("etl").min_share == 4);
  CHECK(pools.at("adhoc").mode == SchedulingMode::kFifo);  // the scenario's entry, whole
  CHECK(pools.at("adhoc").weight == 5);
  // FIFO mode: Spark does not read the file.
  r = load("conf/missing.xml", "FIFO", "");
  REQUIRE(r.errors.empty());
  CHECK(r.scenario->driver.pools.empty());
  r = load("conf/missing.xml", "FAIR", "");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].ToString() == dir.path() +
                                      "/conf/missing.xml: cannot read the scheduler allocation file: No such "
                                      "file or directory");
  r = load("conf/broken.xml", "FAIR", "");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].file == dir.path() + "/conf/broken.xml");
  CHECK(r.errors[0].pointer.rfind("line ", 0) == 0);
}

}  // namespace
}  // namespace aqesim
