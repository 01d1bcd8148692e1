#include "models/scenario/range_reader.h"

#include <optional>
#include <string>
#include <vector>

#include "models/shuffle/key_distribution.h"

namespace aqesim {
namespace {

const std::vector<std::string> kDistributionNames = {"uniform", "zipf", "hotKeys"};
const std::vector<std::string> kPartitioningNames = {"hash", "range"};

// `keys`: one non-empty array of integers per scan task.
void ReadExplicitKeys(const Json& v, const std::string& pointer, PlanNode* scan, KeyDistribution* d,
                      DiagnosticSink* sink) {
  if (!v.is_array() || v.empty()) {
    sink->Error(pointer, "expected a non-empty array with one array of integer keys per scan task, found " +
                             DescribeJson(v));
    return;
  }
  int64_t total = 0;
  bool ok = true;
  for (size_t t = 0; t < v.size() && ok; ++t) {
    const std::string tp = PointerAppend(pointer, t);
    if (!v[t].is_array()) {
      sink->Error(tp, "expected an array of integer keys (the rows of scan task " + std::to_string(t) +
                          "), found " + DescribeJson(v[t]));
      ok = false;
      break;
    }
    total += static_cast<int64_t>(v[t].size());
    if (total > kMaxExplicitKeys) {
      sink->Error(pointer, "expected at most " + std::to_string(kMaxExplicitKeys) +
                               " keys in all (use a generated distribution for more), found more");
      return;
    }
    std::vector<int64_t> keys;
    keys.reserve(v[t].size());
    for (size_t i = 0; i < v[t].size(); ++i) {
      const auto k = ReadInteger(v[t][i], PointerAppend(tp, i), INT64_MIN, INT64_MAX, "an integer key", sink);
      if (!k) {
        ok = false;
        break;
      }
      keys.push_back(*k);
    }
    d->task_keys.push_back(std::move(keys));
  }
  if (!ok) return;
  const int64_t tasks = static_cast<int64_t>(v.size());
  if (scan->tasks && *scan->tasks != tasks) {
    sink->Error(pointer, "expected one array of keys per scan task (tasks = " + std::to_string(*scan->tasks) +
                             "), found " + std::to_string(tasks));
    return;
  }
  scan->tasks = static_cast<int>(tasks);
  d->kind = KeyDistribution::Kind::kExplicit;
}

}  // namespace

void ReadKeyDistribution(const Json& v, PlanNode* scan, DiagnosticSink* sink) {
  const std::string p = PointerAppend(scan->pointer, "keyDistribution");
  if (!v.is_object()) {
    sink->Error(p, "expected an object (\"distribution\" with its parameters, or \"keys\"), found " +
                       DescribeJson(v));
    return;
  }
  CheckFields(v, p, {"distribution", "distinctKeys", "exponent", "hotCount", "hotFraction", "keys"},
              "a key distribution", sink);
  KeyDistribution d;
  if (v.contains("keys")) {
    for (const char* f : {"distribution", "distinctKeys", "exponent", "hotCount", "hotFraction"})
      if (v.contains(f))
        sink->Error(PointerAppend(p, f), std::string("expected either \"keys\" or a generated distribution, "
                                                     "found \"") +
                                             f + "\" beside \"keys\"");
    ReadExplicitKeys(v["keys"], PointerAppend(p, "keys"), scan, &d, sink);
    scan->key_distribution = std::move(d);
    return;
  }
  if (v.contains("distribution")) {
    const auto kind = ReadEnum<KeyDistribution::Kind>(
        v["distribution"], PointerAppend(p, "distribution"),
        [](const std::string& s) -> std::optional<KeyDistribution::Kind> {
          if (s == "uniform") return KeyDistribution::Kind::kUniform;
          if (s == "zipf") return KeyDistribution::Kind::kZipf;
          if (s == "hotKeys") return KeyDistribution::Kind::kHotKeys;
          return std::nullopt;
        },
        kDistributionNames, "a key distribution", sink);
    if (kind) d.kind = *kind;
  }
  const int64_t max_keys = d.kind == KeyDistribution::Kind::kZipf ? kMaxZipfKeys : kMaxDistinctKeys;
  if (v.contains("distinctKeys")) {
    if (auto n = ReadInteger(v["distinctKeys"], PointerAppend(p, "distinctKeys"), 1, max_keys,
                             "an integer from 1 to " + std::to_string(max_keys), sink))
      d.distinct_keys = *n;
  } else {
    d.distinct_keys = std::min(d.distinct_keys, max_keys);
  }
  if (v.contains("exponent")) {
    if (auto e = ReadNumber(
            v["exponent"], PointerAppend(p, "exponent"), [](double x) { return x >= 0 && x <= 100; },
            "a number from 0 to 100", sink))
      d.exponent = *e;
  }
  if (v.contains("hotCount")) {
    if (auto h = ReadInteger(v["hotCount"], PointerAppend(p, "hotCount"), 1, INT64_MAX, "a positive integer",
                             sink))
      d.hot_count = *h;
  }
  if (v.contains("hotFraction")) {
    if (auto f = ReadNumber(
            v["hotFraction"], PointerAppend(p, "hotFraction"), [](double x) { return x >= 0 && x <= 1; },
            "a number from 0 to 1", sink))
      d.hot_fraction = *f;
  }
  if (d.kind == KeyDistribution::Kind::kHotKeys && d.hot_count >= d.distinct_keys)
    sink->Error(PointerAppend(p, "hotCount"), "expected fewer hot keys than distinctKeys (" +
                                                  std::to_string(d.distinct_keys) + "), found " +
                                                  std::to_string(d.hot_count));
  scan->key_distribution = std::move(d);
}

void ReadExchangePartitioning(const Json& v, PlanNode* exchange, DiagnosticSink* sink) {
  if (!v.contains("partitioning")) return;
  const std::string p = PointerAppend(exchange->pointer, "partitioning");
  const auto part = ReadEnum<ExchangePartitioning>(
      v["partitioning"], p,
      [](const std::string& s) -> std::optional<ExchangePartitioning> {
        if (s == "hash") return ExchangePartitioning::kHash;
        if (s == "range") return ExchangePartitioning::kRange;
        return std::nullopt;
      },
      kPartitioningNames, "a partitioning", sink);
  if (!part) return;
  exchange->partitioning = *part;
  if (*part != ExchangePartitioning::kRange) return;
  if (v.contains("sizes"))
    sink->Error(PointerAppend(exchange->pointer, "sizes"),
                "expected no sizes on a range exchange (they follow from the keyDistribution of the scan "
                "below it), found " +
                    DescribeJson(v["sizes"]));
  if (exchange->single_partition)
    sink->Error(PointerAppend(exchange->pointer, "singlePartition"),
                "expected no singlePartition on a range exchange, found true");
  if (exchange->origin == ShuffleOrigin::kRebalancePartitionsByNone ||
      exchange->origin == ShuffleOrigin::kRebalancePartitionsByCol)
    sink->Error(PointerAppend(exchange->pointer, "origin"),
                "expected ENSURE_REQUIREMENTS (a global sort), REPARTITION_BY_COL or REPARTITION_BY_NUM "
                "(repartitionByRange) on a range exchange, found \"" +
                    std::string(ShuffleOriginName(exchange->origin)) + "\"");
}

void ReadSortGlobal(const Json& v, PlanNode* sort, DiagnosticSink* sink) {
  if (!v.contains("global")) return;
  if (auto g = ReadBool(v["global"], PointerAppend(sort->pointer, "global"), sink)) sort->global_sort = *g;
}

}  // namespace aqesim
