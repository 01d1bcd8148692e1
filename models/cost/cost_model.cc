#include "models/cost/cost_model.h"

#include <algorithm>
#include <cmath>

#include "sim/rng.h"

namespace aqesim {

CostModel::CostModel(const CostParams& params, const ClusterSpec& cluster, int slots_per_executor,
                     double memory_fraction)
    : params_(params), cluster_(cluster), slots_per_executor_(std::max(1, slots_per_executor)) {
  const double usable =
      std::max<double>(0.0, static_cast<double>(cluster.executor_memory_bytes - kReservedSystemMemoryBytes));
  execution_memory_per_task_ = Bytes(static_cast<int64_t>(usable * memory_fraction / slots_per_executor_));
}

TaskCost CostModel::EstimateTask(const TaskWork& w, uint64_t noise_seed) const {
  const double disk_share = static_cast<double>(cluster_.disk_bytes_per_second) / slots_per_executor_;
  const double net_share = static_cast<double>(cluster_.network_bytes_per_second) / slots_per_executor_;
  auto b = [](Bytes x) { return static_cast<double>(x.count()); };
  auto n = [](int64_t count) { return static_cast<double>(count); };

  TaskCost c;
  c.launch_seconds = params_.task_launch_seconds +
                     (w.first_wave_on_executor ? params_.executor_stage_warmup_seconds : 0.0) +
                     (w.fresh_executor ? params_.executor_startup_seconds : 0.0);
  c.scan_seconds = b(w.scan_bytes) / disk_share + b(w.scan_bytes) * params_.scan_seconds_per_byte;
  c.fetch_seconds = b(w.remote_shuffle_bytes) / net_share +
                    n(w.remote_fetch_rounds) * params_.remote_fetch_request_seconds +
                    b(w.local_shuffle_bytes) / disk_share +
                    n(w.local_fetch_requests) * params_.local_fetch_request_seconds +
                    b(w.local_shuffle_bytes + w.remote_shuffle_bytes) * params_.shuffle_read_seconds_per_byte;
  c.compute_seconds = b(w.sort_bytes) * params_.sort_seconds_per_byte +
                      b(w.hash_build_bytes) * params_.hash_build_seconds_per_byte +
                      b(w.probe_bytes) * params_.join_probe_seconds_per_byte +
                      b(w.aggregate_bytes) * params_.aggregate_seconds_per_byte +
                      b(w.stream_bytes) * params_.stream_seconds_per_byte +
                      w.rows_read * params_.read_seconds_per_row +
                      w.join_output_rows * params_.join_seconds_per_output_row;
  c.write_seconds = b(w.shuffle_write_bytes) * params_.shuffle_write_seconds_per_byte +
                    b(w.shuffle_write_bytes) / disk_share + w.rows_written * params_.write_seconds_per_row;

  const double in_memory = b(w.working_set_bytes) * params_.compression_ratio;
  if (in_memory > b(execution_memory_per_task_)) {
    const double spilled_in_memory_bytes = in_memory - b(execution_memory_per_task_);
    // Spill files are compressed like shuffle files.
    c.spill_bytes = Bytes(static_cast<int64_t>(spilled_in_memory_bytes / params_.compression_ratio));
    c.spill_seconds = 2.0 * b(c.spill_bytes) / disk_share;
  }
  const double work =
      c.scan_seconds + c.fetch_seconds + c.compute_seconds + c.write_seconds + c.spill_seconds;
  if (params_.cold_code_slowdown > 0 && work > 0 && w.cold_work_limit_seconds > 0) {
    // The work done before the code compiles runs (1 + x) times slower; the extra is spread
    // over the terms.
    c.cold_work_seconds = std::min(work, w.cold_work_limit_seconds);
    const double f = 1.0 + params_.cold_code_slowdown * c.cold_work_seconds / work;
    c.scan_seconds *= f;
    c.fetch_seconds *= f;
    c.compute_seconds *= f;
    c.write_seconds *= f;
    c.spill_seconds *= f;
  }
  c.noise_factor = params_.modelled_time_scale;
  if (params_.task_noise_sigma > 0) {
    Rng rng(noise_seed);
    c.noise_factor *= std::exp(params_.task_noise_sigma * rng.Normal());
  }
  return c;
}

CostModel::BroadcastCost CostModel::EstimateBroadcast(Bytes data_size) const {
  BroadcastCost c;
  const double bytes = static_cast<double>(data_size.count());
  c.collect_seconds = bytes / static_cast<double>(cluster_.driver_network_bytes_per_second);
  c.ship_seconds = bytes / static_cast<double>(cluster_.network_bytes_per_second);
  c.build_seconds = bytes * params_.broadcast_build_seconds_per_byte;
  return c;
}

}  // namespace aqesim
