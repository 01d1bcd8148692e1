// KeyDistribution: the sort keys of a scan's rows, from which a range exchange above it gets its
// bounds and partition sizes (scenario JSON: a scan's `keyDistribution`; README "Range
// partitioning", docs/aqe-behaviour.md §15).
//
// Keys are integers. Two forms:
//  * generated: every row's key is drawn independently from one distribution over the keys
//    0 .. distinctKeys-1, in which key k is the (k+1)-th heaviest — the heavy keys sort first:
//      uniform   every key 1 / distinctKeys
//      zipf      key k ∝ (k + 1)^-exponent (at most kMaxZipfKeys keys: its CDF is held)
//      hotKeys   keys 0 .. hotCount-1 share hotFraction evenly, the others the rest evenly
//  * explicit (`keys`): the keys of every scan task's rows, one list per task — small cases
//    whose samples and bounds can be computed by hand.
#ifndef AQESIM_MODELS_SHUFFLE_KEY_DISTRIBUTION_H_
#define AQESIM_MODELS_SHUFFLE_KEY_DISTRIBUTION_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/rng.h"

namespace aqesim {

/// Most distinct keys of a generated distribution (uniform, hotKeys).
inline constexpr int64_t kMaxDistinctKeys = 1'000'000'000'000;
/// Most distinct keys of a zipf distribution (its cumulative weights are held: 8 bytes a key).
inline constexpr int64_t kMaxZipfKeys = 10'000'000;
/// Most explicit keys of a scan, all tasks together.
inline constexpr int64_t kMaxExplicitKeys = 10'000'000;

struct KeyDistribution {
  enum class Kind { kUniform, kZipf, kHotKeys, kExplicit };
  Kind kind = Kind::kUniform;
  /// Generated: keys 0 .. distinct_keys-1 (>= 1).
  int64_t distinct_keys = 1'000'000;
  /// zipf: the exponent s of (k + 1)^-s (>= 0).
  double exponent = 1.0;
  /// hotKeys: the first hot_count keys (>= 1, < distinct_keys) hold hot_fraction of the rows.
  int64_t hot_count = 1;
  double hot_fraction = 0.5;
  /// explicit: the keys of each scan task's rows, in the order the task reads them.
  std::vector<std::vector<int64_t>> task_keys;
};

/// A generated distribution, ready to draw from: P(key <= k) and independent draws.
class KeyModel {
 public:
  /// Precondition: d.kind != kExplicit and its fields within the ranges above.
  explicit KeyModel(const KeyDistribution& d);
  /// P(key <= k); 0 below key 0, 1 from the last key on.
  double Cdf(int64_t k) const;
  /// One key drawn from the distribution (one or two Rng draws).
  int64_t Draw(Rng& rng) const;

 private:
  KeyDistribution d_;
  std::vector<double> zipf_cdf_;  // zipf: P(key <= k) for every k
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_KEY_DISTRIBUTION_H_
