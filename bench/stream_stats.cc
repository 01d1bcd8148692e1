// B4: one generated shuffle streamed through the statistics path — rows generated from the
// seed one map task at a time (GeneratedRowStream), each reported as its MapStatus and added
// to bytesByPartitionId (StreamShuffleStatistics' builder) and to the true column sums, then
// dropped — followed by the coalescing decision (CoalescePartitions on bytesByPartitionId).
// The dense matrix is never built. With threads=2 generation runs one row ahead on a second
// thread (a bounded queue of row buffers); the statistics are the same either way.
//
// Usage: aqesim_bench_stream MAPS REDUCERS [zipf|uniform|hotKeys] [NOISE] [THREADS]
// Prints one JSON object.
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "models/shuffle/generated_rows.h"
#include "models/shuffle/shuffle_partitions_util.h"

namespace aqesim::bench {
namespace {

double Since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Same result as StreamShuffleStatistics, generation on a producer thread.
StreamedShuffleStatistics StreamTwoThreads(GeneratedRowStream* rows, const MapStatusConfig& config) {
  const size_t n = static_cast<size_t>(rows->num_reducers());
  constexpr size_t kBuffers = 4;
  std::vector<std::vector<int64_t>> buffers(kBuffers, std::vector<int64_t>(n));
  std::deque<size_t> free_list = {0, 1, 2, 3}, full;
  std::mutex mu;
  std::condition_variable cv;
  const int maps = rows->num_maps();
  std::thread producer([&] {
    for (int m = 0; m < maps; ++m) {
      size_t b;
      {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return !free_list.empty(); });
        b = free_list.front();
        free_list.pop_front();
      }
      rows->NextRow(buffers[b]);
      {
        std::lock_guard lock(mu);
        full.push_back(b);
      }
      cv.notify_all();
    }
  });
  ReportedShuffleSizes::Builder builder(static_cast<int>(n), config, MapStatusMode::kSpark);
  builder.Reserve(maps);
  StreamedShuffleStatistics out;
  out.true_partition_bytes.assign(n, 0);
  int64_t* col = out.true_partition_bytes.data();
  for (int m = 0; m < maps; ++m) {
    size_t b;
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return !full.empty(); });
      b = full.front();
      full.pop_front();
    }
    const std::vector<int64_t>& row = buffers[b];
    builder.AddMap(row);
    int64_t sum = 0;
    for (size_t r = 0; r < n; ++r) {
      col[r] += row[r];
      sum += row[r];
    }
    out.map_bytes.push_back(sum);
    {
      std::lock_guard lock(mu);
      free_list.push_back(b);
    }
    cv.notify_all();
  }
  producer.join();
  out.reported = std::move(builder).Build();
  return out;
}

}  // namespace
}  // namespace aqesim::bench

int main(int argc, char** argv) {
  using namespace aqesim;
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MAPS REDUCERS [zipf|uniform|hotKeys] [NOISE] [THREADS]\n", argv[0]);
    return 2;
  }
  const int maps = std::atoi(argv[1]);
  const int reducers = std::atoi(argv[2]);
  GenerateSizes g;
  const char* dist = argc > 3 ? argv[3] : "zipf";
  g.distribution = !std::strcmp(dist, "uniform")   ? GenerateSizes::Distribution::kUniform
                   : !std::strcmp(dist, "hotKeys") ? GenerateSizes::Distribution::kHotKeys
                                                   : GenerateSizes::Distribution::kZipf;
  g.exponent = 1.0;
  g.hot_count = 10;
  g.hot_fraction = 0.3;
  g.noise = argc > 4 ? std::atof(argv[4]) : 0.0;
  const int threads = argc > 5 ? std::atoi(argv[5]) : 1;
  const int64_t total = int64_t{2} << 40;  // 2 TiB: ~20 MiB per reducer, so coalescing has work

  const auto t0 = std::chrono::steady_clock::now();
  GeneratedRowStream rows(g, maps, reducers, total, 7);
  const MapStatusConfig config;
  const StreamedShuffleStatistics s = threads >= 2
                                          ? bench::StreamTwoThreads(&rows, config)
                                          : StreamShuffleStatistics(&rows, config, MapStatusMode::kSpark);
  const double stats_seconds = bench::Since(t0);

  const auto t1 = std::chrono::steady_clock::now();
  const CoalesceResult c = CoalescePartitions({s.reported.BytesByPartitionId()}, {std::nullopt},
                                              /*advisory=*/int64_t{64} << 20, /*min_num_partitions=*/400,
                                              /*min_partition_size=*/int64_t{1} << 20);
  const double coalesce_seconds = bench::Since(t1);
  int64_t true_total = 0;
  for (int64_t b : s.true_partition_bytes) true_total += b;
  std::printf(
      "{\"maps\": %d, \"reducers\": %d, \"cells\": %.0f, \"distribution\": \"%s\", \"noise\": %g, "
      "\"threads\": %d, \"map_status\": \"%s\", \"huge_blocks\": %lld, \"driver_map_status_bytes\": %lld, "
      "\"true_total_bytes\": %lld, \"reported_total_bytes\": %lld, \"coalesced_partitions\": %zu, "
      "\"statistics_seconds\": %.3f, \"coalesce_seconds\": %.3f, \"wall_seconds\": %.3f}\n",
      maps, reducers, static_cast<double>(maps) * reducers, dist, g.noise, threads,
      std::string(s.reported.StatusKind()).c_str(), static_cast<long long>(s.reported.NumHugeBlocks()),
      static_cast<long long>(s.reported.DriverMemoryBytes()), static_cast<long long>(true_total),
      static_cast<long long>(s.reported.TotalReportedBytes()),
      c.coalesced() ? c.specs_per_shuffle[0].size() : static_cast<size_t>(reducers), stats_seconds,
      coalesce_seconds, bench::Since(t0));
  return 0;
}
