// Spark configuration keys that exist in Spark but that aqesim does not model: a scenario or
// `--conf` that sets one is told "a Spark key that aqesim does not model (ignored)" rather than
// "unused configuration key ...; did you mean ...?", which suggests a typo. Keys as Spark 4.0
// defines them (core/src/main/scala/org/apache/spark/internal/config/package.scala,
// sql/catalyst/src/main/scala/org/apache/spark/sql/internal/SQLConf.scala, the deploy modes'
// config objects); families by prefix (spark.hadoop.*, spark.yarn.*, spark.kubernetes.*, ...).
#ifndef AQESIM_MODELS_CONF_UNMODELLED_KEYS_H_
#define AQESIM_MODELS_CONF_UNMODELLED_KEYS_H_

#include <string_view>

namespace aqesim {

/// True when `key` is a Spark key (or of a Spark key family) that aqesim does not model.
/// Never true for a key of the configuration table (conf_key_table.h): a test checks it.
bool IsUnmodelledSparkKey(std::string_view key);

}  // namespace aqesim

#endif  // AQESIM_MODELS_CONF_UNMODELLED_KEYS_H_
