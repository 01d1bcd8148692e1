// The shuffle of a bucketed table read without its buckets (spark.sql.sources.bucketing.enabled
// false, or a scan DisableUnnecessaryBucketedScan reads normally) on its bucket keys: Spark's
// HashPartitioning hashes a row's keys with the same Murmur3 hash its bucketing used
// (BucketingUtils / HashPartitioning.partitionIdExpression), so a bucket's keys land in the
// shuffle partitions p with p ≡ hash (mod the partition count) — and a single key, whatever its
// bytes, in exactly one. A bucket larger than the median bucket holds that much more of one key
// (the heaviest it has: what makes a bucket hot), so the shuffle keeps the excess in one
// partition instead of spreading it as evenly as the rest. docs/aqe-behaviour.md §14.
#ifndef AQESIM_MODELS_ENGINE_HOT_BUCKET_SHUFFLE_H_
#define AQESIM_MODELS_ENGINE_HOT_BUCKET_SHUFFLE_H_

#include <optional>

#include "models/plan/exec_node.h"
#include "models/shuffle/sizes_spec.h"

namespace aqesim {

/// The sizes of `exchange` (hash partitioning into `reducers`, no `sizes` of its own, its child
/// planned) when it shuffles, through filters and projects, a bucketed scan read without its
/// buckets on exactly its bucket keys (the parent join's side keys or aggregate's grouping keys,
/// or none given) and some bucket is above the median bucket: every map task splits its bytes by
/// the same column weights — the bytes of bucket b above the median (scaled from the scan's bytes
/// to the exchange's) all in partition b mod `reducers` (a hash ≡ b modulo numBuckets is b's
/// representative), the rest evenly over every partition. nullopt otherwise (the uniform default
/// applies). The exchange's map tasks each send the same share to the hot partition: the hot
/// key's rows are taken to be spread over the scan's splits as its bytes are.
std::optional<SizesSpec> HotBucketShuffleSizes(const ExecNode& exchange, int reducers);

}  // namespace aqesim

#endif  // AQESIM_MODELS_ENGINE_HOT_BUCKET_SHUFFLE_H_
