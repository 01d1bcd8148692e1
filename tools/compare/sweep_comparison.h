// SweepComparison: two sweeps' points side by side (`aqesim compare A.json B.json` on two
// `aqesim sweep` JSON outputs): points matched by their swept values, per point the AQE-on
// makespans and B − A, the fastest point of each sweep, and the points whose AQE decisions differ
// (the sweep's counts of coalescings, skew splits and runtime broadcast conversions) — what a
// tuning engineer reads after sweeping the same grid twice (another cost file, another cluster,
// the job before and after a change).
//
// Units: seconds. Band: a sweep's row carries no band (tools/sweep/sweep_row.h); every modelled
// makespan has the one `aqesim run` prints with that point's values (README "How far to trust
// the seconds"), and the difference none: two configurations of one job share part of the
// model's error, by how much is not measured.
#ifndef AQESIM_TOOLS_COMPARE_SWEEP_COMPARISON_H_
#define AQESIM_TOOLS_COMPARE_SWEEP_COMPARISON_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/sweep/sweep_output.h"

namespace aqesim::compare {

/// One grid point in both sweeps.
struct PointPair {
  std::vector<std::string> values;  // A's values, in A's key order
  uint64_t a_point = 0, b_point = 0;
  const sweep::SweepRow* a = nullptr;  // into the documents compared
  const sweep::SweepRow* b = nullptr;
  /// B − A of the AQE-on makespans; nullopt when a side failed.
  std::optional<double> difference_seconds() const;
  /// Whether the AQE-on runs decided differently (any of the three counts differs; a failed
  /// side differs from one that ran).
  bool decisions_differ() const;
};

struct SweepComparison {
  std::vector<std::string> keys;  // A's order
  std::vector<PointPair> points;  // A's row order
  /// The fastest AQE-on point of each sweep without failures (index into points); nullopt when
  /// none ran.
  std::optional<size_t> a_best, b_best;
};

/// Pairs the points of `a` and `b`. The grids must match: the same swept keys (in any order)
/// and, for every point of either, one point of the other with the same values (a byte size or
/// number written two ways, "64m" and "67108864", is the same value). nullopt with one line per
/// problem in `*errors` ("PATH: /sweep/grid: ...", "PATH: /rows/3: ...") otherwise.
std::optional<SweepComparison> CompareSweeps(const sweep::SweepDocument& a, const std::string& a_path,
                                             const sweep::SweepDocument& b, const std::string& b_path,
                                             std::vector<std::string>* errors);

/// The comparison as a table within 160 columns; "A" and "B" named in the first lines.
std::string SweepComparisonTable(const std::string& a_path, const std::string& b_path,
                                 const SweepComparison& c);

/// The same as JSON: {"a": PATH, "b": PATH, "keys": [...], "band": null, "points": [{"values": {KEY:
/// VALUE}, "a": SIDE, "b": SIDE, "differenceSeconds": x | null, "decisionsDiffer": bool}],
/// "bestA": {"values", "makespanSeconds"} | null, "bestB": ..., "decisionsDiffer": N} with SIDE
/// {"point", "makespanSecondsAqeOn", "makespanSecondsAqeOff", "coalescings", "skewSplits",
/// "broadcastConversions"} (null makespans and counts, and "error", for a failed point).
nlohmann::json SweepComparisonJson(const std::string& a_path, const std::string& b_path,
                                   const SweepComparison& c);

}  // namespace aqesim::compare

#endif  // AQESIM_TOOLS_COMPARE_SWEEP_COMPARISON_H_
