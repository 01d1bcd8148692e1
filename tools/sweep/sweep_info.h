// What a sweep's JSON output says about the sweep itself (its `sweep` object): the scenario,
// the grid, the values the swept keys have without the sweep, the scenario's configuration and
// cluster. The sweep builds it (PrepareSweep), writes it (SweepInfoToJson), and the report reads
// it back from a SWEEP.json (SweepInfoFromJson). `seconds` says how far the rows' seconds can be
// trusted: {"timeSource": "modelled"|"profiled"|"mixed" (models/engine/run_time_source.h: a
// stage timed by a resized profile counts as profiled), "band": {"lowFactor", "highFactor"} or
// null when no stage is modelled} (the band: every modelled task × the factors,
// models/cost/defaults_band.h; a stage resized 2× or more scales with them too).
#ifndef AQESIM_TOOLS_SWEEP_SWEEP_INFO_H_
#define AQESIM_TOOLS_SWEEP_SWEEP_INFO_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "models/conf/spark_conf.h"
#include "models/cost/defaults_band.h"
#include "tools/sweep/grid.h"

namespace aqesim::sweep {

/// The scenario's cluster as the sweep's output records it.
struct SweepCluster {
  int executors = 0;
  int executor_cores = 0;
  int64_t executor_memory_bytes = 0;
};

struct SweepInfo {
  std::string scenario;           // `scenario`: the scenario's name
  std::string scenario_file;      // `scenarioFile`
  std::string properties_file;    // `propertiesFile`, "" = none given
  std::string cost_file;          // `costFile`, "" = none given
  std::vector<std::string> conf;  // `conf`: the --conf arguments, "KEY=VALUE"
  std::vector<GridAxis> grid;     // `grid`
  uint64_t points = 0;            // `points`: the whole grid's (all shards)
  std::string shard;              // `shard`: "K/N" for a sharded run, "" for the whole grid
  /// `baseline`: each swept key's value without the sweep; a key it lacks is unset (Spark's
  /// default applies; written as null).
  std::map<std::string, std::string> baseline;
  /// `scenarioConf`: the scenario's Spark configuration; nullopt when the file has none.
  std::optional<RawConf> scenario_conf;
  /// `cluster`; nullopt when the file has none.
  std::optional<SweepCluster> cluster;
  /// `seconds.timeSource`: how the scenario's stages are timed, from its AQE-on run as given
  /// ("modelled": the cost model, whose band is kDefaultsBand; "profiled": every stage by its
  /// recorded profile; "mixed"); "" when unknown (an older file, or the run failed).
  std::string time_source;
};

/// One sentence on how far the sweep's seconds can be trusted, for `time_source` as above
/// ("" for unknown): "seconds modelled: ...", "seconds profiled from the log: ...".
std::string SecondsTrustText(const std::string& time_source);

/// The `sweep` object of the JSON output, members in the order the sweep has always written.
nlohmann::ordered_json SweepInfoToJson(const SweepInfo& info);

/// Reads the `sweep` object of SWEEP.json (`pointer` "/sweep" in `path`). Absent members take
/// their defaults; a member of the wrong type is an error "PATH: /sweep/...: expected ...".
std::optional<SweepInfo> SweepInfoFromJson(const nlohmann::json& j, const std::string& path,
                                           std::vector<std::string>* errors);

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_SWEEP_INFO_H_
