// The spill term of a profiled stage (models/cost/profile_spill.h) against hand-computed
// what-ifs: the spill record imported from customshuffle_eventlog's reducers (12 spilling
// tasks, 553,648,128 memory bytes spilled, 16.0069 s of spill, 28.838 bytes per record; the
// importer's measurement: tests/tools/eventlog/spill_import_test.cc) applied to a 1 GiB and a
// 30 GiB local[12] heap.
#include "models/cost/profile_spill.h"

#include <catch2/catch.hpp>

#include "models/cost/cost_model.h"
#include "models/cost/stage_profile.h"

namespace aqesim {
namespace {

std::vector<double> Constant(double r) { return std::vector<double>(kResidualQuantiles, r); }

StageProfile CustomShuffleReducers() {
  StageProfile p;
  p.tasks = 13;
  p.input_bytes = 101409496;
  p.row_ops = 20000000;
  p.seconds_per_row_op = 1e-6;
  p.residuals[0] = {Constant(1.0)};
  p.residuals[1] = {Constant(1.0)};
  p.spill = StageProfile::Spill{12, 553648128, 118948980, 10.561, 16.0069, 28.838};
  return p;
}

/// Execution memory per task of one executor of `heap_gib` GiB and 12 slots (cost_model.h).
int64_t MemoryPerTask(int64_t heap_gib) {
  ClusterSpec cluster;
  cluster.executors = 1;
  cluster.executor_cores = 12;
  cluster.executor_memory_bytes = heap_gib << 30;
  return CostModel(CostParams{}, cluster, 12, 0.6).ExecutionMemoryPerTask().count();
}

TEST_CASE("Execution memory per task follows the unified memory manager", "[cost][profile][spill]") {
  // (1 GiB - 300 MiB) x 0.6 / 12 = 759,169,024 x 0.05 = 37,958,451 bytes.
  CHECK(MemoryPerTask(1) == 37958451);
  // (30 GiB - 300 MiB) x 0.6 / 12 = 1,594,884,096 bytes.
  CHECK(MemoryPerTask(30) == 1594884096);
}

TEST_CASE("SpillSeconds: the recorded reducers spill again, small ones do not", "[cost][profile][spill]") {
  const auto pricing = MeasuredSpillPricing(CustomShuffleReducers(), MemoryPerTask(1));
  REQUIRE(pricing);
  CHECK(pricing->record_bytes == 28.838);
  CHECK(pricing->seconds_per_byte == Approx(16.0069 / 553648128));
  // A reducer of 1,601,106 records holds 46,172,697 bytes > 37,958,451: it pays
  // 46,172,697 x 16.0069 / 553,648,128 = 1.33494 s.
  CHECK(SpillSeconds(*pricing, 1601106) == Approx(1.33494).epsilon(1e-5));
  // The 13th reducer (801,142 records: 23,103,333 bytes) fits, as it did in the log.
  CHECK(SpillSeconds(*pricing, 801142) == 0.0);
  // AQE off, 200 reducers of ~100,000 records: 2.9 MB each, no spill.
  CHECK(SpillSeconds(*pricing, 100000) == 0.0);
  // The same reducer on a 30 GiB heap: 46 MB fits in 1.59 GB.
  const auto big = MeasuredSpillPricing(CustomShuffleReducers(), MemoryPerTask(30));
  CHECK(SpillSeconds(*big, 1601106) == 0.0);
}

TEST_CASE("SpillSeconds: the fallback of a profile that did not spill", "[cost][profile][spill]") {
  StageProfile calm = CustomShuffleReducers();
  calm.spill.reset();
  CHECK_FALSE(MeasuredSpillPricing(calm, MemoryPerTask(1)));
  // 16-byte UnsafeRows (Spark's data size 160,000,000 over 10,000,000 rows) + 20 bytes of sorter
  // bookkeeping = 36 bytes a record; 2 / (3 x 500 MB/s / 12) = 16 ns per byte.
  const SpillPricing p = FallbackSpillPricing(16, 3.0, 500e6 / 12, MemoryPerTask(1));
  CHECK(p.record_bytes == 36);
  CHECK(p.seconds_per_byte == Approx(1.6e-8));
  // 1,600,000 records: 57,600,000 bytes > 37,958,451: 57.6e6 x 1.6e-8 = 0.9216 s.
  CHECK(SpillSeconds(p, 1600000) == Approx(0.9216));
  // 1,000,000 records: 36,000,000 bytes fit.
  CHECK(SpillSeconds(p, 1000000) == 0.0);
}

TEST_CASE("ProfiledStageTimes adds the spill term to the task's time", "[cost][profile][spill]") {
  const StageProfile p = CustomShuffleReducers();
  const auto pricing = MeasuredSpillPricing(p, MemoryPerTask(1));
  // Recorded count, a later task of 8,120,000 bytes: U = 20,000,000 x 8,120,000 / 101,409,496
  // = 1,601,427 row-operations; (0 + 1e-6 x U) x 1 + U x 28.838 x 16.0069 / 553,648,128.
  ProfiledStageTimes with(p, 13, 12, pricing);
  ProfiledStageTimes without(p, 13, 12);
  const double u = 20000000.0 * 8120000 / 101409496;
  const double spill = u * 28.838 * 16.0069 / 553648128;
  CHECK(with.TaskSeconds(3, 8120000, false) == Approx(1e-6 * u + spill));
  CHECK(without.TaskSeconds(3, 8120000, false) == Approx(1e-6 * u));
}

}  // namespace
}  // namespace aqesim
