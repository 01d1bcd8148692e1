#include "tools/sweep/sweep_output.h"

#include <algorithm>
#include <cctype>

namespace aqesim::sweep {

std::optional<OutputFormat> FormatForPath(const std::string& path) {
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos) return std::nullopt;
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == "csv") return OutputFormat::kCsv;
  if (ext == "json") return OutputFormat::kJson;
  return std::nullopt;
}

std::string RenderSweep(OutputFormat format, const nlohmann::ordered_json& info,
                        const std::vector<std::string>& keys, const std::vector<SweepRow>& rows) {
  std::string out;
  if (format == OutputFormat::kCsv) {
    // A shard's CSV also names its shard and the whole grid's size (last columns), so that
    // merge can tell a shard of another split and missing trailing points; a whole sweep's
    // CSV does not need them.
    const bool shard = info.contains("shard");
    // std::string(",") + ...: "x" + std::string&& trips a GCC 12 -Wrestrict false positive
    // (GCC bug 105329).
    const std::string points = shard ? std::string(",") + info["shard"].get<std::string>() + "," +
                                           std::to_string(info.value("points", uint64_t{0}))
                                     : "";
    out = CsvHeader(keys) + (shard ? std::string(",") + kShardColumn + "," + kGridPointsColumn : "") + "\n";
    for (const SweepRow& r : rows) out += RowToCsv(r) + points + "\n";
    return out;
  }
  out = "{\n\"sweep\": " + info.dump() + ",\n\"rows\": [\n";
  for (size_t i = 0; i < rows.size(); ++i)
    out += RowToJsonLine(rows[i], keys) + (i + 1 < rows.size() ? ",\n" : "\n");
  return out + "]\n}\n";
}

std::optional<SweepDocument> SweepFromJson(const nlohmann::json& doc, const std::string& path,
                                           std::vector<std::string>* errors) {
  const size_t before = errors->size();
  if (!doc.is_object() || !doc.contains("sweep") || !doc.contains("rows")) {
    errors->push_back(path + ": expected the JSON output of aqesim sweep (\"sweep\", \"rows\")");
    return std::nullopt;
  }
  if (!doc["sweep"].is_object()) errors->push_back(path + ": /sweep: expected an object");
  if (!doc["rows"].is_array()) errors->push_back(path + ": /rows: expected an array");
  if (errors->size() != before) return std::nullopt;
  std::optional<SweepInfo> info = SweepInfoFromJson(doc["sweep"], path, errors);
  if (!info) return std::nullopt;
  SweepDocument out;
  out.info = std::move(*info);
  std::vector<std::string> keys;
  for (const GridAxis& a : out.info.grid) keys.push_back(a.key);
  const nlohmann::json& rows = doc["rows"];
  if (rows.empty())
    errors->push_back(path + ": /rows: expected at least one row of aqesim sweep, found an empty array");
  out.rows.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    std::string why;
    std::optional<SweepRow> row = RowFromJson(rows[i], keys, &why);
    if (!row) {
      errors->push_back(path + ": /rows/" + std::to_string(i) + ": " + why);
      break;
    }
    // A point of the grid (compare named a forged "point": 7 of a 4-point sweep its fastest).
    if (out.info.points > 0 && row->point >= out.info.points) {
      errors->push_back(path + ": /rows/" + std::to_string(i) + "/point: expected a point index below " +
                        std::to_string(out.info.points) + " (the grid's points), found " +
                        std::to_string(row->point));
      break;
    }
    out.rows.push_back(std::move(*row));
  }
  if (errors->size() != before) return std::nullopt;
  return out;
}

}  // namespace aqesim::sweep
