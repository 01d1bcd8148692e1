#include "tools/sweep/sweep_row.h"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "models/engine/task_spread.h"

namespace aqesim::sweep {

namespace {

enum class CellKind { kSeconds, kRatio, kInteger };

struct MetricColumn {
  const char* name;
  CellKind kind;
  double PointMetrics::*real = nullptr;
  int64_t PointMetrics::*integer = nullptr;
};

const std::vector<MetricColumn>& Columns() {
  static const std::vector<MetricColumn> kColumns = {
      {"makespanSecondsAqeOn", CellKind::kSeconds, &PointMetrics::makespan_seconds_aqe_on},
      {"makespanSecondsAqeOff", CellKind::kSeconds, &PointMetrics::makespan_seconds_aqe_off},
      {"stages", CellKind::kInteger, nullptr, &PointMetrics::stages},
      {"tasks", CellKind::kInteger, nullptr, &PointMetrics::tasks},
      {"spillBytes", CellKind::kInteger, nullptr, &PointMetrics::spill_bytes},
      {"longestTaskSeconds", CellKind::kSeconds, &PointMetrics::longest_task_seconds},
      {"coalescings", CellKind::kInteger, nullptr, &PointMetrics::coalescings},
      {"skewSplits", CellKind::kInteger, nullptr, &PointMetrics::skew_splits},
      {"broadcastConversions", CellKind::kInteger, nullptr, &PointMetrics::broadcast_conversions},
      {"maxTaskSkewRatio", CellKind::kRatio, &PointMetrics::max_task_skew_ratio},
      {"failures", CellKind::kInteger, nullptr, &PointMetrics::failures},
  };
  return kColumns;
}

/// Seconds no simulation reaches: simulated time is int64 microseconds (9,223,372,036,854.775 s).
/// A forged row of 1e308 printed as a 63-digit makespan, "+inf %" (hostile round, 2026-12-04).
constexpr double kMaxRowSeconds = 9223372036854.775;

bool InRange(const MetricColumn& c, double v) {
  return std::isfinite(v) && v >= 0 && (c.kind != CellKind::kSeconds || v <= kMaxRowSeconds);
}

std::string FormatReal(double v, int digits) {
  if (!std::isfinite(v)) return "null";
  // Rounds half away from zero at the last digit printed, and never prints "-0.000000".
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  std::string s = buf;
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
  return s;
}

std::string Cell(const PointMetrics& m, const MetricColumn& c) {
  switch (c.kind) {
    case CellKind::kSeconds:
      return FormatReal(m.*(c.real), 6);
    case CellKind::kRatio:
      return FormatReal(m.*(c.real), 4);
    case CellKind::kInteger:
      return std::to_string(m.*(c.integer));
  }
  return "";
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string JsonString(const std::string& s) { return nlohmann::json(s).dump(); }

}  // namespace

const std::vector<std::string>& MetricColumns() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const MetricColumn& c : Columns()) names.emplace_back(c.name);
    return names;
  }();
  return kNames;
}

PointMetrics MetricsFromRuns(const RunResult& aqe_off, const RunResult& aqe_on) {
  PointMetrics m;
  m.makespan_seconds_aqe_on = aqe_on.makespan_seconds;
  m.makespan_seconds_aqe_off = aqe_off.makespan_seconds;
  m.stages = static_cast<int64_t>(aqe_on.stages.size());
  m.max_task_skew_ratio = aqe_on.stages.empty() ? 0 : 1;
  for (const StageResult& s : aqe_on.stages) {
    m.tasks += s.tasks;
    m.spill_bytes += s.spill_bytes;
    m.longest_task_seconds = std::max(m.longest_task_seconds, s.task_max_seconds);
    // The spread the data explains: the fresh executors' first tasks are not skew (task_spread.h).
    if (s.task_median_seconds > 0)
      m.max_task_skew_ratio = std::max(m.max_task_skew_ratio, TaskSpreadOf(s).data_ratio);
  }
  for (const Decision& d : aqe_on.decisions) {
    const bool applied = !(d.fields.contains("applied") && d.fields["applied"] == false);
    if (!applied) continue;
    if (d.rule == "CoalesceShufflePartitions") {
      ++m.coalescings;
    } else if (d.rule == "OptimizeSkewedJoin") {
      for (const char* f : {"numSkewedLeft", "numSkewedRight"}) {
        if (d.fields.contains(f) && d.fields[f].is_number_integer())
          m.skew_splits += d.fields[f].get<int64_t>();
      }
    } else if (d.rule == "OptimizeSkewInRebalancePartitions") {
      if (d.fields.contains("skewedPartitions") && d.fields["skewedPartitions"].is_number_integer())
        m.skew_splits += d.fields["skewedPartitions"].get<int64_t>();
    } else if (d.rule == "JoinSelection") {
      const bool at_planning = d.fields.contains("static") && d.fields["static"] == true;
      if (!at_planning && d.fields.value("to", "") == "BroadcastHashJoin") ++m.broadcast_conversions;
    }
  }
  m.failures = static_cast<int64_t>(aqe_on.failures.size());
  return m;
}

std::string CsvHeader(const std::vector<std::string>& keys) {
  std::string out = "point";
  for (const std::string& k : keys) out.append(",").append(CsvField(k));
  for (const std::string& c : MetricColumns()) out.append(",").append(c);
  return out + ",error";
}

std::string RowToCsv(const SweepRow& row) {
  std::string out = std::to_string(row.point);
  for (const std::string& v : row.values) out.append(",").append(CsvField(v));
  for (const MetricColumn& c : Columns()) {
    out += ",";
    if (row.metrics) {
      const std::string cell = Cell(*row.metrics, c);
      if (cell != "null") out += cell;
    }
  }
  out += ',';
  out += CsvField(row.error);
  return out;
}

std::string RowToJsonLine(const SweepRow& row, const std::vector<std::string>& keys) {
  std::string out = "{\"point\":" + std::to_string(row.point) + ",\"values\":{";
  for (size_t i = 0; i < keys.size() && i < row.values.size(); ++i) {
    if (i) out += ',';
    out.append(JsonString(keys[i])).append(":").append(JsonString(row.values[i]));
  }
  out += "}";
  for (const MetricColumn& c : Columns()) {
    out.append(",\"").append(c.name).append("\":").append(row.metrics ? Cell(*row.metrics, c)
                                                                      : std::string("null"));
  }
  out.append(",\"error\":").append(row.error.empty() ? std::string("null") : JsonString(row.error));
  return out + "}";
}

std::optional<SweepRow> RowFromJson(const nlohmann::json& j, const std::vector<std::string>& keys,
                                    std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<SweepRow> {
    *error = why;
    return std::nullopt;
  };
  if (!j.is_object()) return fail("expected a row object");
  SweepRow row;
  if (!j.contains("point") || !j["point"].is_number_unsigned())
    return fail("expected \"point\", a point index");
  row.point = j["point"].get<uint64_t>();
  if (!j.contains("values") || !j["values"].is_object() || j["values"].size() != keys.size())
    return fail("expected \"values\" with one value per swept key");
  for (const std::string& k : keys) {
    if (!j["values"].contains(k) || !j["values"][k].is_string()) return fail("expected a value for " + k);
    row.values.push_back(j["values"][k].get<std::string>());
  }
  const bool failed = j.contains("error") && j["error"].is_string();
  if (failed) row.error = j["error"].get<std::string>();
  if (!failed) {
    PointMetrics m;
    for (const MetricColumn& c : Columns()) {
      if (!j.contains(c.name)) return fail(std::string("expected \"") + c.name + "\"");
      const nlohmann::json& v = j[c.name];
      if (c.kind == CellKind::kInteger) {
        if (!v.is_number_integer() || v.get<int64_t>() < 0)
          return fail(std::string("expected a non-negative integer \"") + c.name + "\"");
        m.*(c.integer) = v.get<int64_t>();
      } else {
        if (!v.is_number() || !InRange(c, v.get<double>()))
          return fail(std::string("expected a non-negative number \"") + c.name + "\"" +
                      (c.kind == CellKind::kSeconds
                           ? " of at most 9223372036854.775 (the simulated time's limit)"
                           : ""));
        m.*(c.real) = v.get<double>();
      }
    }
    row.metrics = m;
  }
  return row;
}

std::optional<SweepRow> RowFromCsv(const std::vector<std::string>& fields, size_t num_keys,
                                   std::string* error) {
  const std::vector<MetricColumn>& columns = Columns();
  const size_t expected = 1 + num_keys + columns.size() + 1;
  if (fields.size() != expected) {
    *error = "expected " + std::to_string(expected) + " fields (point, " + std::to_string(num_keys) +
             " swept value(s), " + std::to_string(columns.size()) + " metrics, error), found " +
             std::to_string(fields.size());
    return std::nullopt;
  }
  SweepRow row;
  const std::string& point = fields[0];
  auto [p, ec] = std::from_chars(point.data(), point.data() + point.size(), row.point);
  if (point.empty() || ec != std::errc() || p != point.data() + point.size() ||
      std::to_string(row.point) != point) {
    *error = "expected a point index, found \"" + point.substr(0, 60) + "\"";
    return std::nullopt;
  }
  row.values.assign(fields.begin() + 1, fields.begin() + 1 + static_cast<std::ptrdiff_t>(num_keys));
  row.error = fields.back();
  const size_t first_metric = 1 + num_keys;
  bool any_empty = false, all_empty = true;
  for (size_t c = 0; c < columns.size(); ++c) {
    const bool empty = fields[first_metric + c].empty();
    any_empty |= empty;
    all_empty &= empty;
  }
  if (!row.error.empty()) {
    if (!all_empty) {
      *error = "a failed point (with an error) has no metrics, found some";
      return std::nullopt;
    }
    return row;
  }
  if (any_empty) {
    *error = "expected every metric of a point without an error, found an empty cell";
    return std::nullopt;
  }
  PointMetrics m;
  for (size_t c = 0; c < columns.size(); ++c) {
    const MetricColumn& col = columns[c];
    const std::string& cell = fields[first_metric + c];
    bool ok = false;
    if (col.kind == CellKind::kInteger) {
      int64_t v = 0;
      auto [q, e] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
      ok = e == std::errc() && q == cell.data() + cell.size() && v >= 0;
      m.*(col.integer) = v;
    } else {
      double v = 0;
      auto [q, e] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
      ok = e == std::errc() && q == cell.data() + cell.size() && InRange(col, v);
      m.*(col.real) = v;
    }
    // The sweep's own text form, so that the merged bytes are the unsharded sweep's.
    if (ok) ok = Cell(m, col) == cell;
    if (!ok) {
      *error = std::string(col.name) + ": expected " +
               (col.kind == CellKind::kInteger   ? "a non-negative integer"
                : col.kind == CellKind::kSeconds ? "non-negative seconds with 6 decimals"
                                                 : "a non-negative ratio with 4 decimals") +
               ", found \"" + cell.substr(0, 60) + "\"";
      return std::nullopt;
    }
  }
  row.metrics = m;
  return row;
}

std::optional<std::vector<std::string>> SplitCsvLine(std::string_view line) {
  std::vector<std::string> fields;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          cur += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (quoted) return std::nullopt;
  fields.push_back(std::move(cur));
  return fields;
}

}  // namespace aqesim::sweep
