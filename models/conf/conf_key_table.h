// The configuration keys aqesim knows, each with how its value is checked and where it goes in
// SqlConf: Spark's name, type, range and unit, as SQLConf.scala
// (sql/catalyst/src/main/scala/org/apache/spark/sql/internal/SQLConf.scala) and
// core/src/main/scala/org/apache/spark/internal/config/package.scala define them. Resolving a
// raw conf against this table (unknown keys, "did you mean", fallbacks) is spark_conf.h's.
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

struct ConfKeyInfo {
  std::string key;
  ApplyFn apply;
};

/// `, found "value"` with JSON-style escapes: the end of a key's error message.
std::string FoundValue(const std::string& value);

/// Every known key, in the order of the table.
const std::vector<ConfKeyInfo>& ConfKeyTable();

}  // namespace aqesim

#endif  // AQESIM_MODELS_CONF_CONF_KEY_TABLE_H_
