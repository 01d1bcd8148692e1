#include "models/engine/explain_reader.h"

#include <cstdint>

#include "models/engine/json_problems.h"
#include "models/engine/run_result_reader.h"

namespace aqesim {
namespace {

using Json = nlohmann::json;
using json_read::Problems;

/// The members of a why-not's `numbers` the report acts on, of the types the rules write
/// (JoinSelection's aboveBroadcastThreshold: bytes, thresholdBytes, runtime, side, exchange,
/// thresholdKey): a hand-edited "bytes": "x" is an error, not a crash of the report.
void CheckWhyNotNumbers(const Json& numbers, const std::string& at, Problems* p) {
  for (const char* key : {"bytes", "thresholdBytes"}) {
    int64_t bytes = 0;
    p->Read(numbers, key, at, &bytes);
  }
  bool runtime = false;
  p->Read(numbers, "runtime", at, &runtime);
  for (const char* key : {"side", "exchange", "thresholdKey"}) {
    std::string text;
    p->Read(numbers, key, at, &text);
  }
}

/// explain's `notApplied` (absent in documents written before it existed: none).
void ReadNotApplied(const Json& doc, const std::string& at, Problems* p, std::vector<NotApplied>* out) {
  if (!doc.contains("notApplied")) return;
  const Json* entries = p->Array(doc, "notApplied", at);
  if (entries == nullptr) return;
  for (size_t i = 0; i < entries->size(); ++i) {
    const Json& e = (*entries)[i];
    const std::string ni = at + "/notApplied/" + std::to_string(i);
    if (!p->Object(e, ni)) continue;
    NotApplied n;
    p->Read(e, "rule", ni, &n.rule);
    p->Read(e, "target", ni, &n.target);
    p->Read(e, "reason", ni, &n.reason);
    p->Read(e, "message", ni, &n.message);
    double at_seconds = 0;
    p->Read(e, "atSeconds", ni, &at_seconds);
    n.at = SimTime::Seconds(at_seconds);
    if (e.contains("numbers")) {
      if (e["numbers"].is_object()) {
        n.numbers = e["numbers"];
        CheckWhyNotNumbers(n.numbers, ni + "/numbers", p);
      } else {
        p->Add(ni + "/numbers", "expected an object");
      }
    }
    out->push_back(std::move(n));
  }
}

std::optional<ShufflePartitionSpec> ReadSpec(const Json& s, const std::string& at, Problems* p) {
  if (!p->Object(s, at)) return std::nullopt;
  std::string type;
  p->Read(s, "type", at, &type);
  if (type == "CoalescedPartitionSpec") {
    CoalescedPartitionSpec c;
    p->Read(s, "startReducerIndex", at, &c.start_reducer_index);
    p->Read(s, "endReducerIndex", at, &c.end_reducer_index);
    if (s.contains("dataSize")) {
      int64_t bytes = 0;
      p->Read(s, "dataSize", at, &bytes);
      c.data_size_bytes = bytes;
    }
    return c;
  }
  if (type == "PartialReducerPartitionSpec") {
    PartialReducerPartitionSpec r;
    p->Read(s, "reducerIndex", at, &r.reducer_index);
    p->Read(s, "startMapIndex", at, &r.start_map_index);
    p->Read(s, "endMapIndex", at, &r.end_map_index);
    p->Read(s, "dataSize", at, &r.data_size_bytes);
    return r;
  }
  if (type == "PartialMapperPartitionSpec") {
    PartialMapperPartitionSpec m;
    p->Read(s, "mapIndex", at, &m.map_index);
    p->Read(s, "startReducerIndex", at, &m.start_reducer_index);
    p->Read(s, "endReducerIndex", at, &m.end_reducer_index);
    return m;
  }
  if (type == "CoalescedMapperPartitionSpec") {
    CoalescedMapperPartitionSpec cm;
    p->Read(s, "startMapIndex", at, &cm.start_map_index);
    p->Read(s, "endMapIndex", at, &cm.end_map_index);
    p->Read(s, "numReducers", at, &cm.num_reducers);
    return cm;
  }
  p->Expected(at + "/type",
              "CoalescedPartitionSpec, PartialReducerPartitionSpec, PartialMapperPartitionSpec or "
              "CoalescedMapperPartitionSpec",
              s.contains("type") ? s["type"] : Json());
  return std::nullopt;
}

void ReadExchange(const Json& e, const std::string& at, Problems* p, ExchangeExplain* x) {
  p->Read(e, "id", at, &x->id);
  p->Read(e, "mapTasks", at, &x->map_tasks);
  p->Read(e, "numPartitions", at, &x->num_partitions);
  p->Read(e, "mapStatus", at, &x->map_status);
  p->Read(e, "bytesByPartitionId", at, &x->bytes_by_partition_id);
  p->Read(e, "trueBytesByPartitionId", at, &x->true_bytes_by_partition_id);
  p->Read(e, "dataSizeBytes", at, &x->data_size_bytes);
  p->Read(e, "dataSizeEstimated", at, &x->data_size_estimated);
  p->Read(e, "reportedSizeRatio", at, &x->reported_size_ratio);
  p->Read(e, "driverMapStatusBytes", at, &x->driver_map_status_bytes);
  p->Read(e, "driverAggregationSeconds", at, &x->driver_aggregation_seconds);
  if (e.contains("driverExactTotalsBytes")) {
    int64_t bytes = 0;
    p->Read(e, "driverExactTotalsBytes", at, &bytes);
    x->driver_exact_totals_bytes = bytes;
  }
  p->Read(e, "exactBytesByPartitionId", at, &x->exact_bytes_by_partition_id);
  p->Read(e, "driverDecompressedBlocks", at, &x->driver_decompressed_blocks);
  p->Read(e, "driverDecompressSeconds", at, &x->driver_decompress_seconds);
  p->Read(e, "recordsByPartitionId", at, &x->records_by_partition_id);
  if (e.contains("rangePartitioning") && !(x->range = RangeSamplingFromJson(e["rangePartitioning"])))
    p->Add(at + "/rangePartitioning", "expected a range exchange's sampling (RangeSamplingToJson)");
}

}  // namespace

std::optional<RunResult> ExplainFromJson(const Json& e, const std::string& path, const std::string& pointer,
                                         std::vector<std::string>* errors) {
  Problems p(path, errors);
  if (!p.Object(e, pointer)) return std::nullopt;
  RunResult run;
  p.Read(e, "adaptive", pointer, &run.adaptive);
  if (const Json* exchanges = p.Array(e, "exchanges", pointer)) {
    for (size_t i = 0; i < exchanges->size(); ++i) {
      const std::string xi = pointer + "/exchanges/" + std::to_string(i);
      if (!p.Object((*exchanges)[i], xi)) continue;
      ReadExchange((*exchanges)[i], xi, &p, &run.exchanges.emplace_back());
    }
  }
  DecisionsFromJson(e, pointer, &p, &run.decisions);
  ReadNotApplied(e, pointer, &p, &run.not_applied);
  if (const Json* reads = p.Array(e, "reads", pointer)) {
    for (size_t i = 0; i < reads->size(); ++i) {
      const Json& r = (*reads)[i];
      const std::string ri = pointer + "/reads/" + std::to_string(i);
      if (!p.Object(r, ri)) continue;
      ReadExplain& read = run.reads.emplace_back();
      p.Read(r, "exchange", ri, &read.exchange);
      p.Read(r, "stage", ri, &read.stage);
      if (const Json* specs = p.Array(r, "specs", ri)) {
        for (size_t k = 0; k < specs->size(); ++k)
          if (auto spec = ReadSpec((*specs)[k], ri + "/specs/" + std::to_string(k), &p))
            read.specs.push_back(*spec);
      }
      p.Read(r, "trueBytes", ri, &read.true_bytes);
    }
  }
  if (const Json* joins = p.Array(e, "joins", pointer)) {
    for (size_t i = 0; i < joins->size(); ++i) {
      const Json& j = (*joins)[i];
      const std::string ji = pointer + "/joins/" + std::to_string(i);
      if (!p.Object(j, ji)) continue;
      JoinExplain& join = run.joins.emplace_back();
      p.Read(j, "id", ji, &join.id);
      p.Read(j, "strategy", ji, &join.strategy);
      p.Read(j, "finalStrategy", ji, &join.final_strategy);
      p.Read(j, "buildSide", ji, &join.build_side);
      p.Read(j, "isSkewJoin", ji, &join.is_skew_join);
    }
  }
  p.Read(e, "failures", pointer, &run.failures);
  p.Read(e, "variants", pointer, &run.variants);
  if (p.any()) return std::nullopt;
  return run;
}

}  // namespace aqesim
