// End to end: `aqesim conf-keys` prints the configuration key table; docs/spark-keys.md is its
// Markdown output, byte for byte.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "models/conf/conf_key_table.h"
#include "tests/e2e/e2e_util.h"

namespace aqesim::e2e {
namespace {

std::string ReadSourceFile(const std::string& relative) {
  std::ifstream in(SourcePath(relative), std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_CASE("aqesim conf-keys: docs/spark-keys.md is what the binary prints", "[e2e][conf]") {
  const CommandResult r = RunAqesim({"conf-keys", "--format", "md"});
  REQUIRE(r.exit_code == 0);
  CHECK(r.stderr_text == "");
  // On a difference, regenerate: aqesim conf-keys --format md > docs/spark-keys.md
  CHECK(r.stdout_text == ReadSourceFile("docs/spark-keys.md"));
  CHECK(RunAqesim({"conf-keys"}).stdout_text == r.stdout_text);  // md is the default
  CHECK(r.stdout_text.find(
            "| `spark.sql.adaptive.coalescePartitions.minPartitionSize` | `1MB` | bytes | 3.2.0 |") !=
        std::string::npos);
  CHECK(r.stdout_text.find("| `spark.locality.wait.node` | value of `spark.locality.wait` | duration (bare "
                           "number: ms) | 0.8.0 |") != std::string::npos);
  CHECK(r.stdout_text.find("\n77 keys.\n") != std::string::npos);
}

TEST_CASE("aqesim conf-keys --format json: one entry per key of the table, in its order", "[e2e][conf]") {
  const CommandResult r = RunAqesim({"conf-keys", "--format", "json"});
  REQUIRE(r.exit_code == 0);
  const nlohmann::json doc = nlohmann::json::parse(r.stdout_text);
  const auto& table = ConfKeyTable();
  REQUIRE(doc["keys"].size() == table.size());
  for (size_t i = 0; i < table.size(); ++i) CHECK(doc["keys"][i]["key"] == table[i].key);
  CHECK(doc["keys"][0] ==
        nlohmann::json{{"key", "spark.sql.adaptive.enabled"},
                       {"sparkDefault", "true"},
                       {"unit", "boolean"},
                       {"since", "1.6.0"},
                       {"use", "turns adaptive planning on (re-planning after each query stage)"}});
}

TEST_CASE("aqesim conf-keys --format: md or json, else exit code 2", "[e2e][conf]") {
  const CommandResult r = RunAqesim({"conf-keys", "--format", "csv"});
  CHECK(r.exit_code == 2);
  CHECK(r.stdout_text == "");
  CHECK(r.stderr_text.rfind("aqesim: error: --format: ", 0) == 0);
}

}  // namespace
}  // namespace aqesim::e2e
