// The configuration keys aqesim knows, each with how its value is checked and where it goes in
// SqlConf, and what a person needs to know about it (Spark's default, the unit, the first Spark
// version with the key, what aqesim uses it for): Spark's name, type, range and unit, as
// SQLConf.scala (sql/catalyst/src/main/scala/org/apache/spark/sql/internal/SQLConf.scala) and
// core/src/main/scala/org/apache/spark/internal/config/package.scala define them. `aqesim
// conf-keys` prints the table (docs/spark-keys.md). Resolving a raw conf against this table
// (unknown keys, "did you mean", fallbacks) is spark_conf.h's. The entries live in
// conf_key_table.cc (spark.sql.*), core_conf_keys.cc (spark.shuffle.*, scheduling, executors)
// and dynamic_allocation.cc (spark.dynamicAllocation.*).
#ifndef AQESIM_MODELS_CONF_CONF_KEY_TABLE_H_
#define AQESIM_MODELS_CONF_CONF_KEY_TABLE_H_

#include <functional>
#include <string>
#include <vector>

#include "models/conf/spark_conf.h"

namespace aqesim {

// Applies one value to the SqlConf. Returns an error message ("expected ..., found ...")
// or "" on success; may append warnings (about the value, not the key's existence).
using ApplyFn =
    std::function<std::string(const std::string& value, SqlConf* conf, std::vector<ConfProblem>* warnings)>;

/// What a person reads about a key (`aqesim conf-keys`).
struct ConfKeyDoc {
  /// Spark 4.0's default as Spark writes it ("64MB", "true", "5.0", "3s"); "(none)" for a key
  /// that is unset by default, "(value of KEY)" for one that falls back to another key.
  std::string spark_default;
  /// The value's kind in words: "boolean", "integer", "bytes", "duration (bare number: ms)",
  /// "ratio", ...
  std::string unit;
  /// The first Apache Spark release with the key ("3.2.0").
  std::string since;
  /// What aqesim uses it for, a short phrase.
  std::string use;
};

struct ConfKeyInfo {
  std::string key;
  ApplyFn apply;
  ConfKeyDoc doc;
};

/// `, found "value"` with JSON-style escapes: the end of a key's error message.
std::string FoundValue(const std::string& value);

/// Every known key, in the order of the table.
const std::vector<ConfKeyInfo>& ConfKeyTable();

/// The table's parts kept in other files, appended in this order after the spark.sql.* keys.
void AppendCoreConfKeys(std::vector<ConfKeyInfo>* table);  // core_conf_keys.cc

}  // namespace aqesim

#endif  // AQESIM_MODELS_CONF_CONF_KEY_TABLE_H_
