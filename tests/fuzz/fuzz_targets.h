// Bodies of the libFuzzer targets (tests/fuzz/fuzz_*.cc), shared with the regression replay
// in the normal test run (tests/e2e/bad_inputs_test.cc replays tests/fuzz/regressions/<target>/*).
//
// Each target feeds arbitrary bytes to one input reader and checks the reader's contract:
// bad input comes back as diagnostics (or the reader's documented error type), never as a
// crash, an uncaught exception, a sanitizer report or a hang. A broken contract aborts
// (libFuzzer then saves the input); sanitizers catch memory and UB errors.
#ifndef AQESIM_TESTS_FUZZ_FUZZ_TARGETS_H_
#define AQESIM_TESTS_FUZZ_FUZZ_TARGETS_H_

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "models/conf/property_value.h"
#include "models/conf/spark_conf.h"
#include "models/scenario/plan_reader.h"
#include "models/scenario/scenario.h"
#include "tests/fuzz/fuzz_report.h"
#include "tools/eventlog/byte_source.h"
#include "tools/eventlog/event_log_error.h"
#include "tools/eventlog/recorded_application.h"
#include "tools/eventlog/scenario_import.h"

namespace aqesim::fuzz {

/// Aborts with a message when a contract of the reader is broken (libFuzzer saves the input).
inline void Require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz contract broken: %s\n", what);
    std::abort();
  }
}

/// A scratch file holding the fuzz input (readers that take a path). Per process, reused.
inline std::string WriteScratch(const uint8_t* data, size_t size, const char* suffix) {
  const char* dir = std::getenv("AQESIM_FUZZ_TMP");
  std::string path = std::string(dir ? dir : "/tmp") + "/aqesim-fuzz-" + std::to_string(::getpid()) + suffix;
  FILE* f = std::fopen(path.c_str(), "wb");
  Require(f != nullptr, "cannot write the scratch file");
  if (size > 0) Require(std::fwrite(data, 1, size, f) == size, "short write to the scratch file");
  std::fclose(f);
  return path;
}

/// Every diagnostic is one printable line that names the file.
inline void CheckDiagnostics(const LoadResult& r, const std::string& path) {
  Require(r.errors.empty() == (r.scenario != nullptr), "errors and scenario disagree");
  for (const Diagnostic& d : r.errors) {
    const std::string line = d.ToString();
    Require(!d.message.empty(), "empty diagnostic message");
    Require(line.find('\n') == std::string::npos, "diagnostic spans lines");
    Require(d.file == path || !d.file.empty(), "diagnostic without a file");
  }
}

/// Scenario loader from bytes: LoadScenarioFile on a file holding them.
inline int FuzzScenarioLoader(const uint8_t* data, size_t size) {
  const std::string path = WriteScratch(data, size, ".json");
  LoadResult r = LoadScenarioFile(path, {});
  CheckDiagnostics(r, path);
  if (r.scenario) {
    // A scenario that loads keeps its promises: ids are unique and every node has one.
    Require(r.scenario->plan != nullptr, "loaded scenario without a plan");
  }
  return 0;
}

/// Spark byte and time strings, and the whole conf resolution with fuzzed values: the input
/// is split at '\n' into values given to known keys in turn.
inline int FuzzSparkStrings(const uint8_t* data, size_t size) {
  const std::string_view s(reinterpret_cast<const char*>(data), size);
  if (auto b = ParseByteString(s)) Require(*b >= INT64_MIN, "byte string");
  const SizeStringResult r = ParseSizeString(s, 1 << 20);
  if (r.ok()) {
    // A bare number in MiB must not have wrapped: positive input gives a positive count.
    if (!s.empty() && s.find('-') == std::string_view::npos)
      Require(r.value >= 0, "MiB byte string wrapped negative");
  } else {
    (void)SizeStringErrorReason(r.error);
  }
  if (auto t = ParseTimeStringSeconds(s, 1.0)) Require(*t == *t, "time string is NaN");
  if (auto t = ParseTimeStringSeconds(s, 0.001)) Require(*t == *t, "time string is NaN");
  const TimeStringResult tr = ParseTimeString(s, 60.0);
  if (tr.ok) Require(tr.seconds == tr.seconds, "time string is NaN");

  RawConf raw;
  const std::vector<std::string>& keys = KnownConfKeys();
  size_t start = 0, k = size > 0 ? data[0] : 0;
  while (start <= s.size() && !keys.empty()) {
    size_t end = s.find('\n', start);
    if (end == std::string_view::npos) end = s.size();
    raw[keys[k++ % keys.size()]] = std::string(s.substr(start, end - start));
    start = end + 1;
  }
  std::vector<ConfProblem> problems;
  const SqlConf conf = ResolveSqlConf(raw, &problems);
  for (const ConfProblem& p : problems)
    Require(!p.message.empty() && !p.key.empty(), "conf problem without text");
  Require(conf.shuffle_partitions > 0, "resolved shuffle.partitions <= 0");
  Require(conf.task_cpus > 0, "resolved task.cpus <= 0");
  Require(conf.coalesce_min_partition_size_bytes > 0, "resolved minPartitionSize <= 0");
  return 0;
}

/// The csv matrix reader (sizes {"csv": PATH}) on a file holding the bytes.
inline int FuzzCsvMatrix(const uint8_t* data, size_t size) {
  const std::string path = WriteScratch(data, size, ".csv");
  DiagnosticSink sink(path);
  Json sizes = Json::object();
  sizes["csv"] = path;
  std::optional<SizesSpec> spec = ReadSizes(sizes, "/plan/sizes", "", &sink);
  Require(spec.has_value() == (sink.error_count() == 0), "csv: result and errors disagree");
  if (spec) {
    const SizeMatrix& m = std::get<SizeMatrix>(spec->form);
    Require(m.num_maps() > 0 && m.num_reducers() > 0, "csv: empty matrix accepted");
    int64_t total = 0;
    for (int i = 0; i < m.num_maps(); ++i)
      for (int64_t v : m.row(i)) {
        Require(v >= 0, "csv: negative cell accepted");
        Require(!__builtin_add_overflow(total, v, &total), "csv: total overflows 64 bits");
      }
  }
  return 0;
}

/// Codec decoders: the first byte picks the codec, the rest is the compressed stream. Reads
/// at most 64 MiB of output (a decompression bomb is not a bug).
inline int FuzzEventLogCodecs(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  using eventlog::Codec;
  static constexpr Codec kCodecs[] = {Codec::kPlain, Codec::kGzip,   Codec::kZstd,
                                      Codec::kLz4,   Codec::kSnappy, Codec::kLzf};
  const Codec codec = kCodecs[data[0] % 6];
  try {
    auto source =
        eventlog::MemoryByteSource(std::string(reinterpret_cast<const char*>(data) + 1, size - 1), codec);
    std::vector<char> buffer(1 << 16);
    size_t total = 0;
    while (total < (size_t{64} << 20)) {
      const size_t n = source->Read(buffer.data(), buffer.size());
      Require(n <= buffer.size(), "decoder returned more than asked");
      if (n == 0) break;
      total += n;
    }
    (void)source->truncated();
  } catch (const eventlog::EventLogError& e) {
    Require(std::string_view(e.what()).find('\n') == std::string_view::npos, "codec error spans lines");
  }
  return 0;
}

/// Event-log lines and reconstruction: ReadEventLog on a plain file holding the bytes, then
/// the scenario import and the loader on the imported scenario (an imported scenario loads).
inline int FuzzEventLogLines(const uint8_t* data, size_t size) {
  const std::string path = WriteScratch(data, size, ".json");
  std::vector<std::string> warnings;
  try {
    eventlog::RecordedApplication app = eventlog::ReadEventLog(path, &warnings);
    std::vector<std::string> import_warnings;
    eventlog::ImportedScenario imported = eventlog::ImportScenario(app, {}, &import_warnings);
    LoadResult r = LoadScenarioJson(imported.scenario, path, {});
    CheckDiagnostics(r, path);
  } catch (const eventlog::EventLogError& e) {
    Require(std::string_view(e.what()).find('\n') == std::string_view::npos, "event-log error spans lines");
  }
  for (const std::string& w : warnings) Require(w.find('\n') == std::string::npos, "warning spans lines");
  return 0;
}

/// The targets by name (regression directories are named after them).
struct Target {
  const char* name;
  int (*run)(const uint8_t*, size_t);
};
inline constexpr Target kTargets[] = {
    {"scenario_loader", FuzzScenarioLoader}, {"spark_strings", FuzzSparkStrings},
    {"csv_matrix", FuzzCsvMatrix},           {"eventlog_codecs", FuzzEventLogCodecs},
    {"eventlog_lines", FuzzEventLogLines},   {"report_renderer", FuzzReportRenderer},
};

}  // namespace aqesim::fuzz

#endif  // AQESIM_TESTS_FUZZ_FUZZ_TARGETS_H_
