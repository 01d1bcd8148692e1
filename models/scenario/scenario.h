// Scenario: one simulation input (cluster, Spark conf, cost overrides, plan with sizes),
// and its loader. Format: docs/user-contract.md §2 (README.md shows it by example).
#ifndef AQESIM_MODELS_SCENARIO_SCENARIO_H_
#define AQESIM_MODELS_SCENARIO_SCENARIO_H_

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/cluster/cluster.h"
#include "models/conf/spark_conf.h"
#include "models/cost/cost_params.h"
#include "models/cost/stage_profile.h"
#include "models/plan/plan.h"
#include "models/plan/subquery.h"
#include "models/scenario/driver_structure.h"
#include "models/scenario/input_file.h"
#include "models/shuffle/map_output_statistics.h"  // MapStatusMode (`simulation.mapStatus`)

namespace aqesim {

/// Work bounds checked when loading (README "Input limits").
inline constexpr int kMaxExecutors = 1'000'000;
inline constexpr int64_t kMaxTaskSlots = 10'000'000;
/// A configuration value longer than this is refused (its key named), not parsed.
inline constexpr size_t kMaxConfValueBytes = 65536;

/// A plan rooted at a collectLimit (JSON `{"op": "collectLimit", "limit", "rows", "child"}`; the
/// child is Scenario::plan): the engine runs SparkPlan.executeTake's jobs over the final stage.
struct CollectLimit {
  int64_t limit = 0;
  /// Rows the child yields over all its partitions; unset: each partition reading any byte
  /// yields at least `limit`.
  std::optional<int64_t> rows;
};

struct Scenario {
  std::string name;
  std::string description;
  /// Path of the scenario file as given (messages, relative csv paths).
  std::string path;
  uint64_t seed = 0;
  ClusterSpec cluster;
  /// Raw configuration after precedence (scenario conf < --properties-file < --conf).
  RawConf raw_conf;
  /// Typed view of raw_conf.
  SqlConf conf;
  /// Cost model parameters: defaults overridden by the scenario's `cost` object.
  CostParams cost;
  MapStatusMode map_status_mode = MapStatusMode::kSpark;
  std::unique_ptr<PlanNode> plan;
  /// The plan's root was a collectLimit (collect, show(), take()): `plan` is its child.
  std::optional<CollectLimit> collect_limit;
  /// Jobs whose results scans of `plan` wait for (JSON `subqueries`: scalar and IN-subqueries,
  /// runtime bloom filters, dynamic partition pruning; models/plan/subquery.h).
  std::vector<Subquery> subqueries;
  /// Recorded stage profiles by stage name ("e3 map", "j2 broadcast", "result", "sq1 result"; JSON
  /// `profiles`): a stage with one is timed by it (models/cost/stage_profile.h).
  std::map<std::string, StageProfile> profiles;
  /// The recorded driver times (JSON `driver`).
  DriverStructure driver;
  /// JSON pointers of quantities an importer estimated rather than read from a log
  /// (top-level `estimated`; informational).
  std::vector<std::string> estimated;
  /// Every file the scenario was read from: the scenario itself, the --properties-file, its
  /// cost file and csv matrices (as opened). Commands refuse to write their output onto any.
  std::vector<std::string> input_files;
  /// Non-fatal problems (unknown spark.* keys, ...), one sentence each, already formatted
  /// as "FILE: /pointer: message".
  std::vector<std::string> warnings;
};

/// One problem found while loading: printed as "FILE: POINTER: MESSAGE".
struct Diagnostic {
  std::string file;
  std::string pointer;           // JSON pointer ("/plan/left/sizes/3"); "" for the whole document
  std::string message;           // "expected ..., found ..." (+ "; did you mean ...?")
  std::string ToString() const;  // "FILE: POINTER: MESSAGE" (pointer omitted when empty)
};

/// Every diagnostic's ToString(), "; " between them: one line for a sweep or scale row's error.
std::string JoinDiagnostics(const std::vector<Diagnostic>& diagnostics);

/// Command-line overrides applied on top of the scenario's `conf`.
struct ConfOverrides {
  /// --properties-file FILE (Spark's spark-defaults.conf format: `key value` or `key=value`
  /// lines, # comments), read with Boost.Program_options' config-file parser.
  std::string properties_file;
  /// --conf KEY=VALUE, in order (later wins).
  std::vector<std::pair<std::string, std::string>> conf;
  /// --cost FILE: a cost file (`aqesim calibrate -o`) whose parameters win over the scenario's
  /// `costFile` and `cost`; its problems are reported as "FILE: /parameter: message".
  std::string cost_file;
  /// The command's input files, each read once (input_file.h): a command that loads the
  /// scenario more than once (sweep points, report's what-ifs) shares one, so a FIFO or `<(...)`
  /// given as any of its files gives every load the same bytes. Null: files are read afresh.
  std::shared_ptr<InputFiles> files;
};

struct LoadResult {
  std::unique_ptr<Scenario> scenario;  // null when errors is non-empty
  std::vector<Diagnostic> errors;      // every problem found, in document order
  /// The warnings, also when there are errors (a misspelled key beside a bad value: both are
  /// worth fixing); a loaded scenario has them in Scenario::warnings too.
  std::vector<std::string> warnings;
};

/// Loads and validates a scenario file. Never throws on bad input: every problem found is
/// collected (one pass) into `errors`.
LoadResult LoadScenarioFile(const std::string& path, const ConfOverrides& overrides);

/// A cost file's parameters (`aqesim calibrate -o`: an object of them, or {"cost": {...}}),
/// checked as a scenario's `cost` and `costFile` are, with the same messages ("FILE:
/// /pointer: message"); nullopt, with `errors`, when it cannot be read, is not JSON or has a
/// bad or unknown parameter. Never blocks on a FIFO.
std::optional<nlohmann::json> ReadCostFileParameters(const std::string& path, std::vector<Diagnostic>* errors,
                                                     InputFiles* files = nullptr);
/// Same, from an already-parsed document (`path` is used for messages and relative paths).
LoadResult LoadScenarioJson(const nlohmann::json& doc, const std::string& path,
                            const ConfOverrides& overrides);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_SCENARIO_H_
