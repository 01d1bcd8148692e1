#include "tools/validate/cost_file.h"

#include <catch2/catch.hpp>

#include "tests/tools/eventlog/test_util.h"

namespace aqesim::validate {
namespace {

using eventlog::testing::TempDir;
using eventlog::testing::WriteBytes;

TEST_CASE("Cost files: read and check (a scenario's costFile is the loader's)", "[validate][cost]") {
  TempDir dir;
  SECTION("a bare object and a {cost: ...} document") {
    WriteBytes(dir.File("a.json"), R"({"taskLaunchSeconds": 0.2})");
    WriteBytes(dir.File("b.json"), R"({"cost": {"scanSecondsPerByte": 1e-8}})");
    std::vector<std::string> errors;
    CHECK(ReadCostFile(dir.File("a.json"), &errors) == nlohmann::json{{"taskLaunchSeconds", 0.2}});
    CHECK(ReadCostFile(dir.File("b.json"), &errors) == nlohmann::json{{"scanSecondsPerByte", 1e-8}});
    CHECK(errors.empty());
  }
  SECTION("unknown names and bad values are diagnostics") {
    WriteBytes(dir.File("c.json"), R"({"tasklaunchseconds": 0.2, "sortSecondsPerByte": -1})");
    std::vector<std::string> errors;
    CHECK(ReadCostFile(dir.File("c.json"), &errors).empty());
    // The scenario loader's messages, in document order.
    REQUIRE(errors.size() == 2);
    CHECK(errors[0] == dir.File("c.json") +
                           ": /tasklaunchseconds: unknown field \"tasklaunchseconds\" of cost; did you mean "
                           "\"taskLaunchSeconds\"?");
    CHECK(errors[1] ==
          dir.File("c.json") + ": /sortSecondsPerByte: expected a number in [0, 1] (s/B), found -1");
  }
  SECTION("a missing cost file") {
    std::vector<std::string> errors;
    CHECK(ReadCostFile(dir.File("nope.json"), &errors).empty());
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] == dir.File("nope.json") + ": cannot read the cost file: No such file or directory");
  }
}

}  // namespace
}  // namespace aqesim::validate
