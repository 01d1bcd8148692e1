// Cost-model terms against hand-computed values.
#include "models/cost/cost_model.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

/// Explicit values (not the defaults, which are fitted to logs and move): each term below is
/// hand-computed from these.
CostParams HandParams() {
  CostParams p;
  p.task_launch_seconds = 0.01;
  p.executor_startup_seconds = 0;
  p.executor_stage_warmup_seconds = 0;
  p.cold_code_slowdown = 0;
  p.remote_fetch_request_seconds = 0.0005;
  p.local_fetch_request_seconds = 0.0001;
  p.scan_seconds_per_byte = 1.0 / 150e6;
  p.shuffle_write_seconds_per_byte = 1.0 / 200e6;
  p.shuffle_read_seconds_per_byte = 1.0 / 300e6;
  p.sort_seconds_per_byte = 1.0 / 100e6;
  p.hash_build_seconds_per_byte = 1.0 / 150e6;
  p.join_probe_seconds_per_byte = 1.0 / 400e6;
  p.aggregate_seconds_per_byte = 1.0 / 200e6;
  p.stream_seconds_per_byte = 1.0 / 1e9;
  p.read_seconds_per_row = 0;
  p.write_seconds_per_row = 0;
  p.join_seconds_per_output_row = 0;
  p.compression_ratio = 3.0;
  p.broadcast_build_seconds_per_byte = 1.0 / 150e6;
  p.task_noise_sigma = 0;
  p.modelled_time_scale = 1;
  return p;
}

TEST_CASE("CostModel: each term against a hand computation", "[cost]") {
  const CostParams p = HandParams();
  ClusterSpec c;
  c.executors = 2;
  c.executor_cores = 4;
  c.executor_memory_bytes = 1300LL << 20;    // 1000 MiB usable after the 300 MiB reserve
  c.network_bytes_per_second = 400'000'000;  // 100 MB/s per slot with 4 slots
  c.disk_bytes_per_second = 800'000'000;     // 200 MB/s per slot
  CostModel m(p, c, /*slots_per_executor=*/4, /*memory_fraction=*/0.6);

  SECTION("execution memory per task = (1300 MiB - 300 MiB) * 0.6 / 4 = 150 MiB") {
    CHECK(m.ExecutionMemoryPerTask() == Bytes(157286400));
  }
  SECTION("scan: bytes / disk share + bytes * scan CPU") {
    TaskWork w;
    w.scan_bytes = Bytes(300'000'000);
    const TaskCost t = m.EstimateTask(w, 1);
    CHECK(t.scan_seconds == Approx(300e6 / 200e6 + 300e6 / 150e6));  // 1.5 + 2.0
    CHECK(t.launch_seconds == Approx(0.01));
    CHECK(t.total_seconds() == Approx(3.51));
  }
  SECTION("fetch: remote over the network share, local over the disk share, per round and per local read") {
    TaskWork w;
    w.remote_shuffle_bytes = Bytes(100'000'000);
    w.local_shuffle_bytes = Bytes(50'000'000);
    w.remote_fetch_requests = 10;  // Spark's requests: informational, the rounds are priced
    w.remote_fetch_rounds = 3;
    w.local_fetch_requests = 4;
    const TaskCost t = m.EstimateTask(w, 1);
    const double expected = 1.0 + 3 * 0.0005 + 0.25 + 4 * 0.0001 + 150e6 / 300e6;
    CHECK(t.fetch_seconds == Approx(expected));
  }
  SECTION("rows: read and joined rows are compute, written records are write time") {
    CostParams q = p;
    q.read_seconds_per_row = 1e-6;
    q.write_seconds_per_row = 2e-6;
    q.join_seconds_per_output_row = 5e-7;
    CostModel rows(q, c, 4, 0.6);
    TaskWork w;
    w.rows_read = 1e6;
    w.rows_written = 5e5;
    w.join_output_rows = 2e6;
    const TaskCost t = rows.EstimateTask(w, 1);
    CHECK(t.compute_seconds == Approx(1.0 + 1.0));  // 1e6 x 1 µs + 2e6 x 0.5 µs
    CHECK(t.write_seconds == Approx(1.0));          // 5e5 x 2 µs
  }
  SECTION("spill: in-memory working set above execution memory is written and read back") {
    TaskWork w;
    w.working_set_bytes = Bytes::MiB(100);  // x3 = 300 MiB in memory, 150 MiB over
    const TaskCost t = m.EstimateTask(w, 1);
    CHECK(t.spill_bytes == Bytes(52428800));  // 150 MiB / 3
    CHECK(t.spill_seconds == Approx(2.0 * 52428800 / 200e6));
  }
  SECTION("no spill when it fits") {
    TaskWork w;
    w.working_set_bytes = Bytes::MiB(50);  // 150 MiB in memory: exactly the limit
    CHECK(m.EstimateTask(w, 1).spill_bytes == Bytes(0));
  }
  SECTION("broadcast: collect + ship + build") {
    const auto b = m.EstimateBroadcast(Bytes(150'000'000));
    CHECK(b.collect_seconds == Approx(150e6 / 1.25e9));
    CHECK(b.ship_seconds == Approx(150e6 / 400e6));
    CHECK(b.build_seconds == Approx(1.0));
  }
  SECTION("noise is seeded: same seed same factor, sigma 0 is exactly 1") {
    TaskWork w;
    w.scan_bytes = Bytes(1000);
    CHECK(m.EstimateTask(w, 7).noise_factor == 1.0);
    CostParams q = HandParams();
    q.task_noise_sigma = 0.3;
    CostModel noisy(q, c, 4, 0.6);
    CHECK(noisy.EstimateTask(w, 7).noise_factor == noisy.EstimateTask(w, 7).noise_factor);
    CHECK(noisy.EstimateTask(w, 7).noise_factor != noisy.EstimateTask(w, 8).noise_factor);
  }
  SECTION("modelledTimeScale multiplies the whole task: 2.5 x (0.01 + 1.5 + 2.0) = 8.775 s") {
    CostParams q = HandParams();
    q.modelled_time_scale = 2.5;
    CostModel scaled(q, c, 4, 0.6);
    TaskWork w;
    w.scan_bytes = Bytes(300'000'000);
    const TaskCost t = scaled.EstimateTask(w, 1);
    CHECK(t.scan_seconds == Approx(3.5));  // the terms are unscaled
    CHECK(t.noise_factor == 2.5);
    CHECK(t.total_seconds() == Approx(8.775));
  }
}

}  // namespace
}  // namespace aqesim
