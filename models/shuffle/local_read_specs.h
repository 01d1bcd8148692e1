// Local shuffle read specs: how OptimizeShuffleWithLocalRead cuts a shuffle into tasks that
// each read map outputs on the mapper's own host.
//
// Mirrors OptimizeShuffleWithLocalRead.getPartitionSpecs / equallyDivide in
// sql/core/src/main/scala/org/apache/spark/sql/execution/adaptive/OptimizeShuffleWithLocalRead.scala
// (docs/aqe-behaviour.md §9). Sizes are ignored: every block is assumed equal.
#ifndef AQESIM_MODELS_SHUFFLE_LOCAL_READ_SPECS_H_
#define AQESIM_MODELS_SHUFFLE_LOCAL_READ_SPECS_H_

#include <vector>

#include "models/shuffle/partition_spec.h"

namespace aqesim {

/// Start indices of `num_buckets` buckets over `num_elements` elements: the first
/// (num_elements % num_buckets) buckets get one element more. Always num_buckets entries (when
/// num_buckets > num_elements the trailing buckets are empty). num_buckets <= 0 gives {}.
std::vector<int> EquallyDivide(int num_elements, int num_buckets);

/// The local read of a shuffle with `num_mappers` map tasks and `num_reducers` reducers.
/// `advisory_parallelism` = the number of specs of the existing AQE read (e.g. after
/// coalescing), else num_reducers.
///  advisory >= num_mappers: per mapper, PartialMapper specs over
///    EquallyDivide(num_reducers, advisory / num_mappers) -> num_mappers * (advisory / num_mappers) tasks
///  otherwise: CoalescedMapper specs over EquallyDivide(num_mappers, advisory) -> advisory tasks
/// num_mappers <= 0 or advisory_parallelism <= 0 gives {}.
std::vector<ShufflePartitionSpec> LocalShuffleReadSpecs(int num_mappers, int num_reducers,
                                                        int advisory_parallelism);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_LOCAL_READ_SPECS_H_
