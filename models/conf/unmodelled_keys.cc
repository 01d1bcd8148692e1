#include "models/conf/unmodelled_keys.h"

#include <algorithm>
#include <iterator>

namespace aqesim {

namespace {

// Keys users commonly set (spark-submit, spark-defaults.conf, cluster templates) whose effect
// the simulator does not represent: memory overheads and off-heap memory, serialization and
// compression, JVM options, deployment, I/O buffers, retries and speculation, SQL features
// outside AQE's decisions. Sorted (checked at compile time), for binary search.
constexpr std::string_view kKeys[] = {
    "spark.driver.cores",
    "spark.driver.extraClassPath",
    "spark.driver.extraJavaOptions",
    "spark.driver.maxResultSize",
    "spark.driver.memoryOverhead",
    "spark.driver.memoryOverheadFactor",
    "spark.executor.extraClassPath",
    "spark.executor.extraJavaOptions",
    "spark.executor.extraLibraryPath",
    "spark.executor.heartbeatInterval",
    "spark.executor.memoryOverhead",
    "spark.executor.memoryOverheadFactor",
    "spark.executor.pyspark.memory",
    "spark.files",
    "spark.io.compression.codec",
    "spark.io.compression.lz4.blockSize",
    "spark.io.compression.zstd.level",
    "spark.jars",
    "spark.jars.packages",
    "spark.kryo.registrationRequired",
    "spark.kryoserializer.buffer",
    "spark.kryoserializer.buffer.max",
    "spark.memory.offHeap.enabled",
    "spark.memory.offHeap.size",
    "spark.memory.storageFraction",
    "spark.network.timeout",
    "spark.rdd.compress",
    "spark.serializer",
    "spark.shuffle.compress",
    "spark.shuffle.file.buffer",
    "spark.shuffle.io.maxRetries",
    "spark.shuffle.io.retryWait",
    "spark.shuffle.spill.compress",
    "spark.speculation",
    "spark.speculation.multiplier",
    "spark.speculation.quantile",
    "spark.sql.catalogImplementation",
    "spark.sql.cbo.enabled",
    "spark.sql.execution.arrow.pyspark.enabled",
    "spark.sql.extensions",
    "spark.sql.optimizer.dynamicPartitionPruning.enabled",
    "spark.sql.optimizer.runtime.bloomFilter.enabled",
    "spark.sql.parquet.compression.codec",
    "spark.sql.session.timeZone",
    "spark.sql.sources.partitionOverwriteMode",
    "spark.sql.warehouse.dir",
    "spark.submit.deployMode",
    "spark.submit.pyFiles",
};

// Families: every key under these prefixes is Spark's (or a deploy mode's) and not modelled.
constexpr std::string_view kPrefixes[] = {
    "spark.authenticate", "spark.eventLog.", "spark.executorEnv.", "spark.hadoop.",    "spark.history.",
    "spark.kubernetes.",  "spark.mesos.",    "spark.metrics.",     "spark.redaction.", "spark.sql.catalog.",
    "spark.ssl.",         "spark.ui.",       "spark.yarn.",
};

}  // namespace

static_assert(std::is_sorted(std::begin(kKeys), std::end(kKeys)), "kKeys is binary-searched");

bool IsUnmodelledSparkKey(std::string_view key) {
  if (std::binary_search(std::begin(kKeys), std::end(kKeys), key)) return true;
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [key](std::string_view p) { return key.substr(0, p.size()) == p; });
}

}  // namespace aqesim
