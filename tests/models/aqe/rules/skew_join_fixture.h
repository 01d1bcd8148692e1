// The small skew-join setting the OptimizeSkewedJoin tests share (optimize_skewed_join_test.cc,
// skew_join_why_not_test.cc): advisory 50 B, skewedPartitionFactor 5, threshold 300 B, no
// broadcast (runtime JoinSelection stays out), and matrices of four maps × five reducers of
// 25 B each except reducer 2. With reducer 2 at 1000 B the median is 100 B and the skew
// threshold max(5 × 100 B, 300 B) = 500 B.
#ifndef AQESIM_TESTS_MODELS_AQE_RULES_SKEW_JOIN_FIXTURE_H_
#define AQESIM_TESTS_MODELS_AQE_RULES_SKEW_JOIN_FIXTURE_H_

#include <cstdint>
#include <vector>

#include "models/conf/spark_conf.h"
#include "tests/support/plan_builder.h"

namespace aqesim::testing {

/// advisory 50 B, factor 5, threshold 300 B; no broadcast.
inline SqlConf SkewConf() {
  SqlConf c;
  c.advisory_partition_size_bytes = 50;
  c.skewed_partition_factor = 5.0;
  c.skewed_partition_threshold_bytes = 300;
  c.auto_broadcast_join_threshold_bytes = -1;
  return c;
}

/// Four maps of 25 B per reducer, except reducer 2, whose maps write `hot`.
inline Matrix WithHotReducer(const std::vector<int64_t>& hot) {
  Matrix m;
  for (int64_t h : hot) m.push_back({25, 25, h, 25, 25});
  return m;
}

}  // namespace aqesim::testing

#endif  // AQESIM_TESTS_MODELS_AQE_RULES_SKEW_JOIN_FIXTURE_H_
