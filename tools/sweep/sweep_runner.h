// Runs a sweep: validates the grid against the scenario, then simulates every pending point
// of the cartesian product (AQE off and on) on a pool of threads, appending each finished
// row to the journal (tools/sweep/journal.h) and returning all rows in grid order.
//
// The scenario is read once (models/scenario/scenario_base.h) and every point is built from
// it with the point's values as overrides (scenario_overrides.h), without re-reading it.
//
// Grid keys: a Spark configuration key (applied like --conf, winning over it), or
// `cluster.FIELD` (executors, executorCores, executorMemory, ...), `cost.PARAM` (the cost
// model's parameters, e.g. cost.taskLaunchSeconds) or `simulation.FIELD` (mapStatus), which
// are checked and applied as the document's own fields.
#ifndef AQESIM_TOOLS_SWEEP_SWEEP_RUNNER_H_
#define AQESIM_TOOLS_SWEEP_SWEEP_RUNNER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"
#include "models/scenario/scenario_base.h"
#include "models/scenario/scenario_overrides.h"
#include "tools/sweep/grid.h"
#include "tools/sweep/sweep_info.h"
#include "tools/sweep/sweep_row.h"

namespace aqesim::sweep {

struct SweepSpec {
  std::string scenario_path;
  /// --properties-file and --conf; grid values win over both.
  ConfOverrides overrides;
  std::vector<GridAxis> axes;
  Shard shard;
  /// Worker threads; 0 = std::thread::hardware_concurrency(), which is also the most used.
  int threads = 0;
  /// Where finished rows are journaled (conventionally OUT + ".journal").
  std::string journal_path;
  /// Draw a progress bar (rate, ETA) on stderr; callers pass isatty(2).
  bool progress = false;
};

/// The validated sweep: the scenario document, the metadata the outputs carry, and the
/// fingerprint that ties a journal to this exact sweep.
struct PreparedSweep {
  /// The scenario file, read once; every point is built from it.
  std::shared_ptr<const ScenarioBase> base;
  /// --properties-file, --conf and --cost, read once; each point adds its values.
  ScenarioOverrides overrides;
  std::string scenario_name;
  uint64_t num_points = 0;  // whole grid (all shards)
  /// The `sweep` object of the JSON output (sweep_info.h).
  SweepInfo info;
  std::string fingerprint;
  std::vector<std::string> base_warnings;  // the scenario's own warnings
  /// The files the scenario was read from (Scenario::input_files): no output may replace one.
  std::vector<std::string> input_files;
};

/// Why `key` cannot be swept ("unknown key (...); did you mean ...?"), or "" when it is a Spark
/// key the simulator uses or a cluster./cost./simulation. field (checked when applied).
std::string GridKeyProblem(const std::string& key);

/// Validates everything before any simulation: the scenario loads; keys are known (a Spark
/// key the simulator does not use is an error, with "did you mean"); every value is one the
/// key can take (GridValueProblems); no key repeats. nullopt with every problem in `*errors` (one line each).
std::optional<PreparedSweep> PrepareSweep(const SweepSpec& spec, std::vector<std::string>* errors);

/// Applies one grid value: cluster./cost./simulation. keys become field overrides; others are
/// appended to `overrides->conf`, and so is `cluster.executors` on a scenario with a recorded
/// `cluster.executorTimeline`, as spark.executor.instances (which replaces the timeline).
/// cluster., cost. and simulation. values that read as numbers or booleans are set as JSON
/// numbers / booleans (simulation.dataScale=2), anything else as a string (simulation.mapStatus=exact).
void ApplyGridValue(const std::string& key, const std::string& value, const ScenarioBase& base,
                    ScenarioOverrides* overrides);

/// What a single value of `key` can be wrong about: its type, unit or range ("expected an
/// integer >= 1, found \"0\""), one problem a line; empty when the key can take it. A Spark key's
/// value is checked by the key's own parser alone, a cluster./cost./simulation. field's by the
/// loader's diagnostics at that field (`/cluster/executors`). How it combines with the other keys
/// (spark.dynamicAllocation.maxExecutors >= minExecutors) is each point's check: min 50 is
/// refused with max 40 and runs with max 100, so it is not refused before the points run.
std::vector<std::string> GridValueProblems(const std::string& key, const std::string& value,
                                           const ScenarioBase& base, const ScenarioOverrides& overrides);

/// Simulates point `index` (AQE off and on). Never throws: a point that cannot load or run
/// gets `error`. New warnings (not among the scenario's own) are added to `*warnings`.
SweepRow ComputePoint(const SweepSpec& spec, const PreparedSweep& prepared, uint64_t index,
                      std::vector<std::string>* warnings);

struct SweepOutcome {
  std::vector<SweepRow> rows;  // the shard's points, in grid order
  uint64_t resumed = 0;        // taken from the journal
  uint64_t computed = 0;       // simulated by this call
  int dropped_journal_lines = 0;
  bool journal_started_over = false;
  std::vector<std::string> warnings;  // distinct, sorted
};

/// Runs the sweep (see file comment). nullopt with `*error` when the journal cannot be
/// written.
std::optional<SweepOutcome> RunSweep(const SweepSpec& spec, const PreparedSweep& prepared,
                                     std::string* error);

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_SWEEP_RUNNER_H_
