#include "models/cost/cost_params.h"

#include <cmath>
#include <cstdio>

namespace aqesim {

const std::vector<CostParamInfo>& CostParamRegistry() {
  // One entry per CostParams field, in the header's order; docs are the header's comments.
  static const std::vector<CostParamInfo> kRegistry = {
      {"taskLaunchSeconds", "s", &CostParams::task_launch_seconds,
       "Per task: scheduler delay + task deserialization + result serialization. Default 0.01 s.", 0,
       kMaxOverheadSeconds},
      {"executorStartupSeconds", "s", &CostParams::executor_startup_seconds,
       "Extra time of every task that starts on a fresh executor (whose JVM has not finished a task yet): "
       "class loading, first deserializations. Default 0 s.",
       0, kMaxOverheadSeconds},
      {"executorStageWarmupSeconds", "s", &CostParams::executor_stage_warmup_seconds,
       "Extra time of the first tasks of a stage's code on each executor (those starting before any task "
       "with the same operators finished there): class loading, deserialization, JIT of generated code. "
       "Default 0 s.",
       0, kMaxOverheadSeconds},
      {"coldCodeSlowdown", "ratio", &CostParams::cold_code_slowdown,
       "Work of a stage's code done on an executor before it is compiled there (coldCodeWindowSeconds) runs "
       "(1 + x) times longer: generated code not yet JIT-compiled, classes loading. Default 0.",
       0, 1000},
      {"coldCodeWindowSeconds", "s", &CostParams::cold_code_window_seconds,
       "Work (seconds at warm speed, over an executor's tasks of a stage's code) done before the code is "
       "compiled there, taken by its tasks in the order they start. Default 1 s.",
       0, kMaxOverheadSeconds},
      {"stageOverheadSeconds", "s", &CostParams::stage_overhead_seconds,
       "Per stage on the driver: DAGScheduler submission, task-set creation, stage completion handling. "
       "Default 0.05 s.",
       0, kMaxOverheadSeconds},
      {"replanSeconds", "s", &CostParams::replan_seconds,
       "Per AQE re-optimization and query-stage creation on the driver. Default 0.02 s.", 0,
       kMaxOverheadSeconds},
      {"remoteFetchRequestSeconds", "s", &CostParams::remote_fetch_request_seconds,
       "Per remote shuffle block fetch request: request round trip + open of the shuffle file segment. "
       "Default 0.0005 s.",
       0, 60},
      {"localFetchRequestSeconds", "s", &CostParams::local_fetch_request_seconds,
       "Per local block read (seek into the shuffle file). Default 0.0001 s.", 0, 60},
      {"scanSecondsPerByte", "s/B", &CostParams::scan_seconds_per_byte,
       "Scan: read + decode storage format, per byte on one core. Default 1/150 MB/s.", 0,
       kMaxSecondsPerByte},
      {"shuffleWriteSecondsPerByte", "s/B", &CostParams::shuffle_write_seconds_per_byte,
       "Shuffle write: serialize + compress + write, per byte on one core. Default 1/200 MB/s.", 0,
       kMaxSecondsPerByte},
      {"shuffleReadSecondsPerByte", "s/B", &CostParams::shuffle_read_seconds_per_byte,
       "Shuffle read: decompress + deserialize, per byte on one core. Default 1/300 MB/s.", 0,
       kMaxSecondsPerByte},
      {"sortSecondsPerByte", "s/B", &CostParams::sort_seconds_per_byte,
       "Sort, per byte sorted on one core. Default 1/100 MB/s.", 0, kMaxSecondsPerByte},
      {"hashBuildSecondsPerByte", "s/B", &CostParams::hash_build_seconds_per_byte,
       "Hash-table build (broadcast or shuffled hash join), per byte on one core. Default 1/150 MB/s.", 0,
       kMaxSecondsPerByte},
      {"joinProbeSecondsPerByte", "s/B", &CostParams::join_probe_seconds_per_byte,
       "Hash probe / merge join streaming side, per byte on one core. Default 1/400 MB/s.", 0,
       kMaxSecondsPerByte},
      {"aggregateSecondsPerByte", "s/B", &CostParams::aggregate_seconds_per_byte,
       "Hash aggregation, per input byte on one core. Default 1/200 MB/s.", 0, kMaxSecondsPerByte},
      {"streamSecondsPerByte", "s/B", &CostParams::stream_seconds_per_byte,
       "Filter / project and other streaming operators, per input byte on one core. Default 1/1 GB/s.", 0,
       kMaxSecondsPerByte},
      {"compressionRatio", "ratio", &CostParams::compression_ratio,
       "In-memory working set / shuffle (compressed) bytes of a sort, hash or aggregate input; also the "
       "uncompressed/compressed ratio when an exchange gives no dataSizeBytes. Default 3.0.",
       0.01, 1000},
      {"broadcastBuildSecondsPerByte", "s/B", &CostParams::broadcast_build_seconds_per_byte,
       "Build of the broadcast relation per executor, per byte. Default 1/150 MB/s.", 0, kMaxSecondsPerByte},
      {"mapStatusAggregateSecondsPerBlock", "s", &CostParams::map_status_aggregate_seconds_per_block,
       "Driver time to aggregate one MapStatus block into MapOutputStatistics. Default 2e-9 s.", 0, 1e-3},
      {"taskNoiseSigma", "ratio", &CostParams::task_noise_sigma,
       "Per-task multiplicative noise: duration x exp(N(0, sigma)), seeded by (scenario seed, stage, task); "
       "0 disables. Default 0.",
       0, 5},
  };
  return kRegistry;
}

std::string CostParamRange(const CostParamInfo& info) {
  auto shown = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return std::string(buf);
  };
  // Appended, not "[" + std::string&&: that trips a GCC 12 -Wrestrict false positive (GCC bug
  // 105329), an error under AQESIM_WERROR.
  std::string out = "[";
  out += shown(info.min_value);
  out += ", ";
  out += shown(info.max_value);
  out += "]";
  return out;
}

bool CostParamInRange(const CostParamInfo& info, double value) {
  return std::isfinite(value) && value >= info.min_value && value <= info.max_value;
}

}  // namespace aqesim
