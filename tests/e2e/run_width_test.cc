// `aqesim run`'s table within 160 columns on q72's imported scenario (nine nested joins; the stage
// table was 161 wide on it and on demo.json) and on every bundled scenario (a variant's decision
// line was 302 wide on las-exact-reducer-totals).
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/e2e/e2e_util.h"
#include "tools/text/table_text.h"

namespace aqesim::e2e {
namespace {

size_t Widest(const std::string& text) {
  std::istringstream lines(text);
  size_t widest = 0;
  for (std::string line; std::getline(lines, line);) widest = std::max(widest, CodePoints(line));
  return widest;
}

TEST_CASE("run: q72's imported scenario within 160 columns", "[e2e][run]") {
  const CommandResult r = RunAqesim({"run", SourcePath("scenarios/recorded/nds_q72_dataproc_2_2.json")});
  REQUIRE(r.exit_code == 0);
  CHECK(Widest(r.stdout_text) == 160);  // the stage table takes the whole width, cutting the operators
  CHECK(r.stdout_text.find("\nresources: 128 cores; core-hours ") != std::string::npos);
}

TEST_CASE("run: every bundled scenario within 160 columns", "[e2e][run]") {
  int n = 0;
  for (const char* dir :
       {"scenarios", "scenarios/cases", "scenarios/vectors", "scenarios/variants", "scenarios/recorded"}) {
    for (const std::filesystem::directory_entry& e : std::filesystem::directory_iterator(SourcePath(dir))) {
      if (e.path().extension() != ".json" || e.path().parent_path().filename() == "sweeps") continue;
      const CommandResult r = RunAqesim({"run", e.path().string()});
      if (r.exit_code != 0) continue;  // not a scenario
      INFO(e.path().string());
      CHECK(Widest(r.stdout_text) <= 160);
      ++n;
    }
  }
  CHECK(n >= 45);
}

}  // namespace
}  // namespace aqesim::e2e
