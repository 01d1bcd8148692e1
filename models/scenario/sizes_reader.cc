// ReadSizes: the four forms of an exchange's `sizes` (see models/shuffle/sizes_spec.h).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <numeric>
#include <sstream>

#include "models/scenario/csv_matrix_reader.h"
#include "models/scenario/plan_reader.h"
#include "models/shuffle/generators.h"
#include "models/shuffle/shuffle_sizes.h"
#include "sim/units.h"

namespace aqesim {
namespace {

const std::vector<std::string> kSizesForms = {"matrix", "csv", "marginals", "generate"};

// Reports "... and N more problems" when a table had more than kMaxProblemsPerTable.
void ReportOverflow(size_t problems, const std::string& pointer, const std::string& where,
                    DiagnosticSink* sink) {
  if (problems > kMaxProblemsPerTable)
    sink->Error(pointer,
                "... and " + std::to_string(problems - kMaxProblemsPerTable) + " more problems in " + where);
}

std::optional<SizeMatrix> ReadMatrix(const Json& v, const std::string& pointer, DiagnosticSink* sink) {
  if (!v.is_array()) {
    sink->Error(pointer, "expected a matrix (an array of rows, one per map task), found " + DescribeJson(v));
    return std::nullopt;
  }
  if (v.empty()) {
    sink->Error(pointer, "expected at least one row (one per map task), found an empty array");
    return std::nullopt;
  }
  const size_t errors_before = sink->error_count();
  size_t problems = 0;
  DiagnosticSink silent("");
  auto target = [&]() { return problems < kMaxProblemsPerTable ? sink : &silent; };
  std::optional<size_t> width;
  size_t width_row = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const Json& row = v[i];
    const std::string row_pointer = PointerAppend(pointer, i);
    if (!row.is_array()) {
      target()->Error(row_pointer, "expected a row of partition sizes (an array of byte counts), found " +
                                       DescribeJson(row));
      ++problems;
      continue;
    }
    if (row.empty()) {
      target()->Error(row_pointer, "expected at least one partition size, found an empty array");
      ++problems;
      continue;
    }
    if (!width) {
      width = row.size();
      width_row = i;
    } else if (row.size() != *width) {
      target()->Error(row_pointer, "expected " + std::to_string(*width) + " partition sizes like row " +
                                       std::to_string(width_row) + ", found " + std::to_string(row.size()));
      ++problems;
      continue;
    }
    for (size_t j = 0; j < row.size(); ++j) {
      DiagnosticSink* t = target();
      const size_t before = t->error_count();
      ReadByteCount(row[j], PointerAppend(row_pointer, j), {.allow_string = false}, t);
      problems += t->error_count() - before;
    }
  }
  ReportOverflow(problems, pointer, "this matrix", sink);
  if (sink->error_count() != errors_before || !width) return std::nullopt;
  SizeMatrix m(static_cast<int>(v.size()), static_cast<int>(*width));
  int64_t total = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    for (size_t j = 0; j < *width; ++j) {
      const int64_t cell = v[i][j].get<int64_t>();
      m.at(static_cast<int>(i), static_cast<int>(j)) = cell;
      auto sum = CheckedAdd(total, cell);
      if (!sum) {
        sink->Error(pointer,
                    "expected partition sizes whose total is below 2^63 bytes, found a larger total");
        return std::nullopt;
      }
      total = *sum;
    }
  }
  return m;
}

// A non-empty array of byte counts; nullopt after reporting problems.
std::optional<std::vector<int64_t>> ReadByteArray(const Json& v, const std::string& pointer,
                                                  std::string_view what, DiagnosticSink* sink) {
  if (!v.is_array() || v.empty()) {
    sink->Error(pointer, "expected " + std::string(what) + " (a non-empty array of byte counts), found " +
                             DescribeJson(v));
    return std::nullopt;
  }
  const size_t before = sink->error_count();
  std::vector<int64_t> out;
  int64_t total = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    auto b = ReadByteCount(v[i], PointerAppend(pointer, i), {.allow_string = false}, sink);
    if (!b) continue;
    out.push_back(*b);
    auto sum = CheckedAdd(total, *b);
    if (!sum) {
      sink->Error(pointer, "expected byte counts whose total is below 2^63 bytes, found a larger total");
      return std::nullopt;
    }
    total = *sum;
  }
  if (sink->error_count() != before) return std::nullopt;
  return out;
}

std::string CellsMessage(int64_t rows, int64_t columns) {
  return "expected at most " + std::to_string(kMaxSizeMatrixCells) +
         " cells (map tasks x partitions), found " + std::to_string(rows) + " x " + std::to_string(columns);
}

std::optional<MarginalsSizes> ReadMarginals(const Json& v, const std::string& pointer, DiagnosticSink* sink) {
  if (!v.is_object()) {
    sink->Error(pointer,
                "expected an object with \"mapBytes\" and \"partitionBytes\", found " + DescribeJson(v));
    return std::nullopt;
  }
  CheckFields(v, pointer, {"mapBytes", "partitionBytes"}, "marginals", sink);
  std::optional<std::vector<int64_t>> map_bytes, partition_bytes;
  bool complete = true;
  for (const char* field : {"mapBytes", "partitionBytes"}) {
    if (!v.contains(field)) {
      sink->Error(pointer, std::string("missing field \"") + field + "\" of marginals");
      complete = false;
    }
  }
  if (v.contains("mapBytes"))
    map_bytes = ReadByteArray(v["mapBytes"], PointerAppend(pointer, "mapBytes"), "bytes per map task", sink);
  if (v.contains("partitionBytes"))
    partition_bytes = ReadByteArray(v["partitionBytes"], PointerAppend(pointer, "partitionBytes"),
                                    "bytes per partition", sink);
  if (!complete || !map_bytes || !partition_bytes) return std::nullopt;
  const int64_t map_total = std::accumulate(map_bytes->begin(), map_bytes->end(), int64_t{0});
  const int64_t partition_total =
      std::accumulate(partition_bytes->begin(), partition_bytes->end(), int64_t{0});
  if (map_total != partition_total) {
    sink->Error(pointer, "expected mapBytes and partitionBytes with equal totals, found " +
                             std::to_string(map_total) + " and " + std::to_string(partition_total));
    return std::nullopt;
  }
  const int64_t rows = static_cast<int64_t>(map_bytes->size()),
                columns = static_cast<int64_t>(partition_bytes->size());
  if (rows * columns > kMaxSizeMatrixCells) {
    sink->Error(pointer, CellsMessage(rows, columns));
    return std::nullopt;
  }
  return MarginalsSizes{std::move(*map_bytes), std::move(*partition_bytes)};
}

std::optional<GenerateSizes> ReadGenerate(const Json& v, const std::string& pointer, DiagnosticSink* sink) {
  if (!v.is_object()) {
    sink->Error(pointer, "expected an object (the generator's parameters), found " + DescribeJson(v));
    return std::nullopt;
  }
  static const std::vector<std::string> kFields = {"distribution", "mapTasks", "partitions",    "totalBytes",
                                                   "mapBytes",     "exponent", "hotPartitions", "hotCount",
                                                   "hotFraction",  "noise",    "seed"};
  CheckFields(v, pointer, kFields, "generate", sink);
  const size_t before = sink->error_count();
  GenerateSizes g;
  auto field = [&](const char* name) { return PointerAppend(pointer, name); };
  if (v.contains("distribution")) {
    static const std::vector<std::string> kNames = {"uniform", "zipf", "hotKeys"};
    auto d = ReadEnum<GenerateSizes::Distribution>(
        v["distribution"], field("distribution"),
        [](const std::string& s) -> std::optional<GenerateSizes::Distribution> {
          if (s == "uniform") return GenerateSizes::Distribution::kUniform;
          if (s == "zipf") return GenerateSizes::Distribution::kZipf;
          if (s == "hotKeys") return GenerateSizes::Distribution::kHotKeys;
          return std::nullopt;
        },
        kNames, "a distribution", sink);
    if (d) g.distribution = *d;
  }
  constexpr int64_t kMaxCount = 100'000'000;
  if (v.contains("mapTasks")) {
    if (auto n = ReadInteger(v["mapTasks"], field("mapTasks"), 1, kMaxCount, "a positive integer", sink))
      g.map_tasks = static_cast<int>(*n);
  }
  if (v.contains("partitions")) {
    if (auto n = ReadInteger(v["partitions"], field("partitions"), 1, kMaxCount, "a positive integer", sink))
      g.partitions = static_cast<int>(*n);
  }
  if (v.contains("totalBytes")) g.total_bytes = ReadByteCount(v["totalBytes"], field("totalBytes"), {}, sink);
  if (v.contains("mapBytes")) {
    g.map_bytes = ReadByteArray(v["mapBytes"], field("mapBytes"), "bytes per map task", sink);
    if (g.map_bytes && g.map_tasks && static_cast<int>(g.map_bytes->size()) != *g.map_tasks)
      sink->Error(field("mapTasks"), "expected " + std::to_string(g.map_bytes->size()) +
                                         " map tasks like mapBytes, found " + std::to_string(*g.map_tasks));
    if (g.map_bytes && v.contains("totalBytes"))
      sink->Warning(field("totalBytes"), "\"totalBytes\" has no effect when \"mapBytes\" is given");
  }
  if (v.contains("exponent")) {
    if (auto e = ReadNumber(
            v["exponent"], field("exponent"), [](double x) { return x >= 0; }, "a number >= 0", sink))
      g.exponent = *e;
  }
  if (v.contains("hotPartitions")) {
    const Json& hp = v["hotPartitions"];
    const std::string hp_pointer = field("hotPartitions");
    if (!hp.is_array()) {
      sink->Error(hp_pointer, "expected an array of partition indexes, found " + DescribeJson(hp));
    } else {
      const int64_t limit = g.partitions ? *g.partitions - 1 : kMaxCount;
      const std::string what = g.partitions ? "a partition index from 0 to " + std::to_string(limit)
                                            : "a non-negative partition index";
      for (size_t i = 0; i < hp.size(); ++i) {
        if (auto p = ReadInteger(hp[i], PointerAppend(hp_pointer, i), 0, limit, what, sink))
          g.hot_partitions.push_back(static_cast<int>(*p));
      }
    }
  }
  if (v.contains("hotCount")) {
    if (auto n = ReadInteger(v["hotCount"], field("hotCount"), 0, kMaxCount, "a non-negative integer", sink))
      g.hot_count = static_cast<int>(*n);
  }
  if (v.contains("hotFraction")) {
    if (auto f = ReadNumber(
            v["hotFraction"], field("hotFraction"), [](double x) { return x >= 0 && x <= 1; },
            "a number from 0 to 1", sink))
      g.hot_fraction = *f;
  }
  if (v.contains("noise")) {
    if (auto f = ReadNumber(
            v["noise"], field("noise"), [](double x) { return x >= 0 && x < 1; },
            "a number from 0 up to (not including) 1", sink))
      g.noise = *f;
  }
  if (v.contains("seed")) g.seed = ReadUnsigned(v["seed"], field("seed"), "a non-negative integer", sink);

  // Parameters of another distribution are almost certainly a mistake: warn.
  const std::string dist_name = g.distribution == GenerateSizes::Distribution::kUniform ? "uniform"
                                : g.distribution == GenerateSizes::Distribution::kZipf  ? "zipf"
                                                                                        : "hotKeys";
  auto unused = [&](const char* name) {
    if (v.contains(name))
      sink->Warning(field(name),
                    std::string("\"") + name + "\" has no effect with distribution \"" + dist_name + "\"");
  };
  if (g.distribution != GenerateSizes::Distribution::kZipf) unused("exponent");
  if (g.distribution != GenerateSizes::Distribution::kHotKeys) {
    unused("hotPartitions");
    unused("hotCount");
    unused("hotFraction");
  } else if (v.contains("hotPartitions") && v.contains("hotCount")) {
    sink->Warning(field("hotCount"), "\"hotCount\" has no effect when \"hotPartitions\" is given");
  }

  const int64_t rows = g.map_tasks   ? *g.map_tasks
                       : g.map_bytes ? static_cast<int64_t>(g.map_bytes->size())
                                     : 0;
  // Generated shuffles are streamed by the engine (shuffle_sizes.h), not materialised.
  if (rows > 0 && g.partitions && rows * *g.partitions > kMaxGeneratedCells)
    sink->Error(pointer, "expected at most " + std::to_string(kMaxGeneratedCells) +
                             " cells (map tasks x partitions) in a generated shuffle, found " +
                             std::to_string(rows) + " x " + std::to_string(*g.partitions));
  if (sink->error_count() != before) return std::nullopt;
  return g;
}

}  // namespace

std::optional<SizesSpec> ReadSizes(const Json& v, const std::string& pointer, const std::string& scenario_dir,
                                   DiagnosticSink* sink) {
  if (!v.is_object()) {
    sink->Error(pointer,
                "expected an object with one of \"matrix\", \"csv\", \"marginals\" or \"generate\", found " +
                    DescribeJson(v));
    return std::nullopt;
  }
  CheckFields(v, pointer, kSizesForms, "sizes", sink);
  std::vector<std::string> present;
  for (const std::string& form : kSizesForms)
    if (v.contains(form)) present.push_back(form);
  if (present.empty()) {
    sink->Error(pointer, "expected one of \"matrix\", \"csv\", \"marginals\" or \"generate\", found none");
    return std::nullopt;
  }
  if (present.size() > 1) {
    sink->Error(pointer, "expected only one of \"matrix\", \"csv\", \"marginals\" or \"generate\", found \"" +
                             present[0] + "\" and \"" + present[1] + "\"");
    return std::nullopt;
  }
  const std::string& form = present.front();
  const Json& body = v[form];
  const std::string body_pointer = PointerAppend(pointer, form);
  SizesSpec spec;
  if (form == "matrix") {
    auto m = ReadMatrix(body, body_pointer, sink);
    if (!m) return std::nullopt;
    spec.form = std::move(*m);
    spec.source = "matrix";
  } else if (form == "csv") {
    auto m = ReadCsvMatrix(body, body_pointer, scenario_dir, sink);
    if (!m) return std::nullopt;
    spec.form = std::move(*m);
    spec.source = "csv " + body.get<std::string>();
  } else if (form == "marginals") {
    auto m = ReadMarginals(body, body_pointer, sink);
    if (!m) return std::nullopt;
    spec.form = std::move(*m);
    spec.source = "marginals";
  } else {
    auto g = ReadGenerate(body, body_pointer, sink);
    if (!g) return std::nullopt;
    spec.source =
        std::string("generate ") + (g->distribution == GenerateSizes::Distribution::kUniform ? "uniform"
                                    : g->distribution == GenerateSizes::Distribution::kZipf  ? "zipf"
                                                                                             : "hotKeys");
    spec.form = std::move(*g);
  }
  return spec;
}

}  // namespace aqesim
