#include "models/conf/conf_key_table.h"

#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace aqesim {
namespace {

// Keys whose stated default (Spark's) is not what aqesim starts from, and why. Every other key
// with a literal default must leave a fresh SqlConf unchanged when its default is applied.
const std::map<std::string, std::string>& DefaultExceptions() {
  static const std::map<std::string, std::string> kExceptions = {
      {"spark.executor.cores",
       "Spark's 1; aqesim leaves it unset so that the scenario's cluster gives the executor cores"},
      {"spark.executor.memory",
       "Spark's 1g; aqesim leaves it unset so that the scenario's cluster gives the executor memory"},
      {"spark.dynamicAllocation.maxExecutors",
       "Spark's Int.MaxValue, written \"infinity\"; aqesim's unset means unbounded"},
      {"spark.dynamicAllocation.cachedExecutorIdleTimeout",
       "Spark's Integer.MAX_VALUE seconds, written \"infinity\"; aqesim's unset means never"},
      {"spark.dynamicAllocation.shuffleTracking.timeout",
       "Spark's Long.MaxValue milliseconds, written \"infinity\"; aqesim's unset means never"},
  };
  return kExceptions;
}

// "(none)" (unset by default) and "(value of KEY)" (a fallback) have no value to apply.
bool IsLiteral(const std::string& spark_default) { return spark_default.rfind('(', 0) != 0; }

TEST_CASE("ConfKeyTable: every key is documented (default, unit, since, use) once", "[conf]") {
  const std::regex version(R"([0-9]+\.[0-9]+\.[0-9]+)");
  const std::regex unit(
      R"((boolean|integer|bytes|duration|ratio|number|string|log level|rule names|class name|)"
      R"(FIFO or FAIR|pool name|file path|master URL)( \(.*\)|, comma-separated)?)");
  std::set<std::string> seen;
  for (const ConfKeyInfo& k : ConfKeyTable()) {
    INFO(k.key);
    CHECK(seen.insert(k.key).second);
    CHECK_FALSE(k.doc.spark_default.empty());
    CHECK(std::regex_match(k.doc.unit, unit));
    CHECK(std::regex_match(k.doc.since, version));
    CHECK_FALSE(k.doc.use.empty());
    if (!IsLiteral(k.doc.spark_default)) {
      const bool none = k.doc.spark_default == "(none)";
      const bool fallback = k.doc.spark_default.rfind("(value of ", 0) == 0 &&
                            seen.count(k.doc.spark_default.substr(10, k.doc.spark_default.size() - 11));
      CHECK((none || fallback));  // a fallback names a key listed before it
    }
  }
  CHECK(seen.size() == 77);
  // Spot checks against SQLConf.scala / core's config/package.scala (`.version`, default).
  std::map<std::string, ConfKeyDoc> docs;
  for (const ConfKeyInfo& k : ConfKeyTable()) docs[k.key] = k.doc;
  CHECK(docs["spark.sql.adaptive.coalescePartitions.minPartitionSize"].since == "3.2.0");
  CHECK(docs["spark.sql.adaptive.coalescePartitions.minPartitionSize"].spark_default == "1MB");
  CHECK(docs["spark.shuffle.accurateBlockSkewedFactor"].since == "3.3.0");
  CHECK(docs["spark.shuffle.accurateBlockSkewedFactor"].spark_default == "-1.0");
  CHECK(docs["spark.sql.adaptive.enabled"].since == "1.6.0");
  CHECK(docs["spark.locality.wait.node"].spark_default == "(value of spark.locality.wait)");
}

TEST_CASE("ConfKeyTable: each stated default, applied by the key itself, is aqesim's default", "[conf]") {
  const SqlConf fresh;
  int compared = 0;
  for (const ConfKeyInfo& k : ConfKeyTable()) {
    if (!IsLiteral(k.doc.spark_default)) continue;
    INFO(k.key << " = " << k.doc.spark_default);
    SqlConf conf;
    std::vector<ConfProblem> warnings;
    const std::string error = k.apply(k.doc.spark_default, &conf, &warnings);
    const auto exception = DefaultExceptions().find(k.key);
    if (exception != DefaultExceptions().end()) {
      // Still an exception: the stated default is refused or changes the conf.
      INFO("listed as an exception: " << exception->second);
      CHECK((!error.empty() || !(conf == fresh)));
      continue;
    }
    CHECK(error == "");
    CHECK(conf == fresh);
    ++compared;
  }
  CHECK(compared == 55);
  for (const auto& [key, reason] : DefaultExceptions()) {
    bool listed = false;
    for (const ConfKeyInfo& k : ConfKeyTable()) listed |= k.key == key && IsLiteral(k.doc.spark_default);
    INFO(key);
    CHECK(listed);
  }
}

TEST_CASE("ConfKeyTable: the default comparison sees another value, not another spelling", "[conf]") {
  const SqlConf fresh;
  std::map<std::string, const ConfKeyInfo*> by_key;
  for (const ConfKeyInfo& k : ConfKeyTable()) by_key[k.key] = &k;
  const auto applied = [&](const std::string& key, const std::string& value) {
    SqlConf conf;
    std::vector<ConfProblem> warnings;
    REQUIRE(by_key.at(key)->apply(value, &conf, &warnings) == "");
    return conf;
  };
  CHECK(applied("spark.sql.adaptive.advisoryPartitionSizeInBytes", "64m") == fresh);
  CHECK_FALSE(applied("spark.sql.adaptive.advisoryPartitionSizeInBytes", "65m") == fresh);
  CHECK(applied("spark.locality.wait", "3000") == fresh);  // a bare number is in ms
  CHECK_FALSE(applied("spark.locality.wait", "3") == fresh);
  CHECK_FALSE(applied("spark.dynamicAllocation.shuffleTracking.enabled", "false") == fresh);
}

}  // namespace
}  // namespace aqesim
