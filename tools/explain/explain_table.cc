#include "tools/explain/explain_table.h"

#include <algorithm>
#include <map>
#include <vector>

#include "models/aqe/decision.h"
#include "tools/text/shared_limits_text.h"
#include "tools/text/subquery_text.h"
#include "tools/text/table_text.h"

namespace aqesim::explain {
namespace {

constexpr size_t kWidth = 160;

/// "min / median / max" of `bytes` (the upper median for an even count), the unit written once
/// when the three share it ("97.7 / 97.7 / 488.3 MiB"); "—" when empty.
std::string Spread(std::vector<int64_t> bytes) {
  if (bytes.empty()) return "—";
  std::sort(bytes.begin(), bytes.end());
  std::string v[3] = {FormatBytes(bytes.front()), FormatBytes(bytes[bytes.size() / 2]),
                      FormatBytes(bytes.back())};
  const auto unit = [](const std::string& s) { return s.substr(s.rfind(' ') + 1); };
  if (unit(v[0]) == unit(v[1]) && unit(v[1]) == unit(v[2])) {
    for (int i = 0; i < 2; ++i) v[i].resize(v[i].rfind(' '));
    return v[0] + " / " + v[1] + " / " + v[2];
  }
  return v[0] + " / " + v[1] + " / " + v[2];
}

/// max ÷ median of `bytes`, as "12.3×"; "" when the median is 0 or there is nothing.
std::string MaxOverMedian(std::vector<int64_t> bytes) {
  if (bytes.empty()) return "";
  std::sort(bytes.begin(), bytes.end());
  const int64_t median = bytes[bytes.size() / 2];
  if (median <= 0) return "";
  return Fixed(static_cast<double>(bytes.back()) / static_cast<double>(median), 1) + "×";
}

/// Two-space indented copy of a table's lines.
std::string Indented(const std::string& table) {
  std::string out;
  for (size_t start = 0; start < table.size();) {
    const size_t end = table.find('\n', start);
    out += "  " + table.substr(start, end - start + 1);
    start = end + 1;
  }
  return out;
}

std::string ExchangesSection(const RunResult& run) {
  std::vector<std::vector<std::string>> rows;
  for (const ExchangeExplain& e : run.exchanges) {
    rows.push_back({e.id, std::to_string(e.map_tasks), std::to_string(e.num_partitions), e.map_status,
                    FormatBytes(e.data_size_bytes) + (e.data_size_estimated ? " (est.)" : ""),
                    Spread(e.bytes_by_partition_id), Spread(e.true_bytes_by_partition_id),
                    MaxOverMedian(e.true_bytes_by_partition_id)});
  }
  if (rows.empty()) return "";
  // dataSize is Spark's uncompressed row size (what join selection compares with the broadcast
  // threshold), not the shuffle bytes written: the partition sizes are those (new-user finding 6).
  return "Exchanges (dataSize: Spark's uncompressed size of the rows; partition sizes: the shuffle bytes "
         "written, as the driver saw them in MapStatus and as they are):\n" +
         Indented(TextTableWithin(kWidth - 2, 0, 8,
                                  {"exchange", "maps", "partitions", "MapStatus", "dataSize",
                                   "seen min / med / max", "true min / med / max", "true max÷med"},
                                  std::move(rows),
                                  [](size_t i) { return i == 1 || i == 2 || i == 4 || i == 7; }));
}

std::string ReadsSection(const RunResult& run) {
  std::vector<std::vector<std::string>> rows;
  for (const ReadExplain& r : run.reads) {
    std::map<std::string, int> kinds;
    int merged = 0;  // specs that read two or more reducers: what coalescing made
    for (const ShufflePartitionSpec& s : r.specs) {
      ++kinds[SpecTypeName(s)];
      if (const auto* c = std::get_if<CoalescedPartitionSpec>(&s))
        merged += c->end_reducer_index - c->start_reducer_index > 1 ? 1 : 0;
    }
    const auto count = [&](const char* k) {
      auto it = kinds.find(k);
      return it == kinds.end() ? std::string("") : std::to_string(it->second);
    };
    const int local =
        (kinds.count("PartialMapperPartitionSpec") ? kinds["PartialMapperPartitionSpec"] : 0) +
        (kinds.count("CoalescedMapperPartitionSpec") ? kinds["CoalescedMapperPartitionSpec"] : 0);
    rows.push_back({r.exchange, std::to_string(r.stage), std::to_string(r.specs.size()),
                    merged > 0 ? std::to_string(merged) : "", count("PartialReducerPartitionSpec"),
                    local > 0 ? std::to_string(local) : "", Spread(r.true_bytes),
                    MaxOverMedian(r.true_bytes)});
  }
  if (rows.empty()) return "";
  return "Reads (one task per spec; coalesced: tasks reading two or more partitions; true bytes each task "
         "reads):\n" +
         Indented(TextTableWithin(kWidth - 2, 0, 8,
                                  {"exchange", "stage", "tasks", "coalesced", "skew splits", "local",
                                   "true min / med / max", "true max÷med"},
                                  std::move(rows), [](size_t i) { return (i >= 1 && i <= 5) || i == 7; }));
}

std::string JoinsSection(const RunResult& run) {
  std::string out;
  for (const JoinExplain& j : run.joins) {
    std::string line = "  " + j.id + ": " + j.strategy;
    if (j.final_strategy != j.strategy) line += " → " + j.final_strategy;
    if (!j.build_side.empty()) line += " (build " + j.build_side + ")";
    if (j.is_skew_join) line += ", skew join";
    out += WrapText(line, kWidth, 4) + "\n";
  }
  return out.empty() ? "" : "Joins (as planned → as run):\n" + out;
}

}  // namespace

std::string ExplainTable(const std::string& scenario_name, const RunResult& run) {
  std::string out =
      WrapText(scenario_name + ": AQE " + (run.adaptive ? "on" : "off") + ", " +
                   std::to_string(run.decisions.size()) + " decision" +
                   (run.decisions.size() == 1 ? "" : "s") + ", " + std::to_string(run.not_applied.size()) +
                   " not applied (`aqesim explain` without --format lists every spec)",
               kWidth, 2) +
      "\n";
  if (!run.variants.empty()) {
    std::string v = "variants on:";
    for (const std::string& name : run.variants) v += " " + name;
    out += WrapText(v, kWidth, 2) + "\n";
  }
  for (const std::string& section : {ExchangesSection(run), ReadsSection(run), JoinsSection(run)}) {
    if (!section.empty()) out += "\n" + section;
  }
  if (const std::string sq = SubqueriesText(run, kWidth); !sq.empty()) out += "\n" + sq;
  out += "\nDecisions (in the order AQE took them):\n";
  if (run.decisions.empty()) out += "  none\n";
  for (const Decision& d : run.decisions) out += WrapText("  " + d.rule + ": " + d.message, kWidth, 4) + "\n";
  out += "\nNot applied (the first early-out that stopped each rule):\n";
  if (run.not_applied.empty()) out += "  none\n";
  for (const NotApplied& n : run.not_applied)
    out += WrapText("  " + n.rule + " (" + n.reason + "): " + n.message, kWidth, 4) + "\n";
  const std::vector<std::string> limited = SharedLimitsLines(run);
  if (!limited.empty()) out += "\nShared limits that bound (modelled, from the cluster's limits):\n";
  for (const std::string& l : limited) out += WrapText("  " + l, kWidth, 4) + "\n";
  for (const std::string& f : run.failures) out += WrapText("failure: " + f, kWidth, 2) + "\n";
  return out;
}

}  // namespace aqesim::explain
