#include "tools/sweep/sweep_output.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <set>

namespace aqesim::sweep {

namespace {

std::vector<std::string> KeysOf(const nlohmann::ordered_json& info) {
  std::vector<std::string> keys;
  if (info.contains("grid") && info["grid"].is_array()) {
    for (const auto& a : info["grid"]) {
      if (a.is_object() && a.contains("key") && a["key"].is_string())
        keys.push_back(a["key"].get<std::string>());
    }
  }
  return keys;
}

std::string MissingList(const std::vector<uint64_t>& missing) {
  std::string out;
  for (size_t i = 0; i < missing.size() && i < 10; ++i) out += (i ? ", " : "") + std::to_string(missing[i]);
  if (missing.size() > 10) out += ", ... (" + std::to_string(missing.size()) + " in all)";
  return out;
}

std::optional<std::string> MergeCsv(const std::vector<ShardFile>& shards, std::vector<std::string>* errors) {
  std::string header;
  std::map<uint64_t, std::string> lines;
  const std::string points_suffix = "," + std::string(kGridPointsColumn);
  std::optional<uint64_t> grid_points;  // from the shards' last column (sweep --shard writes it)
  bool sized = false, unsized = false;
  for (const ShardFile& f : shards) {
    size_t pos = 0;
    size_t line_no = 0;
    while (pos < f.text.size()) {
      size_t nl = f.text.find('\n', pos);
      if (nl == std::string::npos) nl = f.text.size();
      const std::string line = f.text.substr(pos, nl - pos);
      pos = nl + 1;
      ++line_no;
      if (line_no == 1) {
        if (line.rfind("point,", 0) != 0) {
          errors->push_back(f.path + ": line 1: expected the header of an aqesim sweep CSV (point,...)");
          break;
        }
        std::string h = line;
        const bool has_size =
            h.size() > points_suffix.size() &&
            h.compare(h.size() - points_suffix.size(), points_suffix.size(), points_suffix) == 0;
        (has_size ? sized : unsized) = true;
        if (has_size) h.resize(h.size() - points_suffix.size());
        if (header.empty())
          header = h;
        else if (h != header)
          errors->push_back(f.path + ": line 1: the header differs from " + shards[0].path + "'s");
        continue;
      }
      std::string row_line = line;
      if (sized) {
        const size_t last = row_line.rfind(',');
        uint64_t n = 0;
        const std::string cell = last == std::string::npos ? row_line : row_line.substr(last + 1);
        auto [q, nec] = std::from_chars(cell.data(), cell.data() + cell.size(), n);
        if (last == std::string::npos || nec != std::errc() || q != cell.data() + cell.size()) {
          errors->push_back(f.path + ": line " + std::to_string(line_no) +
                            ": expected the grid's size in the last column, found \"" + cell + "\"");
          continue;
        }
        if (grid_points && *grid_points != n) {
          errors->push_back(f.path + ": line " + std::to_string(line_no) + ": a grid of " +
                            std::to_string(n) + " points, another shard's has " +
                            std::to_string(*grid_points));
          continue;
        }
        grid_points = n;
        row_line.resize(last);
      }
      const std::string& line_body = row_line;
      const size_t comma = line_body.find(',');
      uint64_t point = 0;
      const std::string cell = line_body.substr(0, comma);
      auto [p, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), point);
      if (ec != std::errc() || p != cell.data() + cell.size() || comma == std::string::npos) {
        errors->push_back(f.path + ": line " + std::to_string(line_no) +
                          ": expected a point index, found \"" + cell + "\"");
        continue;
      }
      if (f.shard && !f.shard->Contains(point)) {
        errors->push_back(f.path + ": line " + std::to_string(line_no) + ": point " + std::to_string(point) +
                          " is not in shard " + f.shard->ToString() +
                          ", which the file's name says it holds");
        continue;
      }
      if (!lines.emplace(point, line_body).second) {
        errors->push_back(f.path + ": line " + std::to_string(line_no) + ": point " + std::to_string(point) +
                          " is in more than one shard");
      }
    }
    if (line_no == 0)
      errors->push_back(f.path +
                        ": expected the header of an aqesim sweep CSV (point,...), found an empty file");
  }
  if (sized && unsized)
    errors->push_back(
        "some shards name the grid's size (a gridPoints column) and some do not: "
        "shards of different sweeps or versions");
  // Shards name the grid's size; a CSV without it (a whole sweep's) must hold 0..n-1 without a gap.
  std::vector<uint64_t> missing;
  uint64_t expect = 0;
  for (const auto& [i, _] : lines) {
    while (expect < i && missing.size() <= 10'000) missing.push_back(expect), ++expect;
    expect = std::max(expect, i + 1);
  }
  if (grid_points) {
    if (!lines.empty() && lines.rbegin()->first >= *grid_points && errors->empty()) {
      errors->push_back("point " + std::to_string(lines.rbegin()->first) + " is outside the grid of " +
                        std::to_string(*grid_points) + " points");
    }
    for (uint64_t i = expect; i < *grid_points && missing.size() <= 10'000; ++i) missing.push_back(i);
  }
  // Points of a rejected shard are not reported again as missing.
  if (!missing.empty() && errors->empty())
    errors->push_back("points missing from the shards: " + MissingList(missing));
  if (!errors->empty()) return std::nullopt;
  std::string out = header + "\n";
  for (const auto& [_, line] : lines) out += line + "\n";
  return out;
}

std::optional<std::string> MergeJson(const std::vector<ShardFile>& shards, std::vector<std::string>* errors) {
  std::optional<nlohmann::ordered_json> info;
  std::string info_from;
  std::vector<std::string> keys;
  std::map<uint64_t, SweepRow> rows;
  std::set<std::string> shard_names;
  for (const ShardFile& f : shards) {
    const nlohmann::ordered_json doc =
        nlohmann::ordered_json::parse(f.text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("sweep") || !doc["sweep"].is_object() ||
        !doc.contains("rows") || !doc["rows"].is_array()) {
      errors->push_back(f.path +
                        ": expected the JSON output of aqesim sweep ({\"sweep\": ..., \"rows\": [...]})");
      continue;
    }
    nlohmann::ordered_json this_info = doc["sweep"];
    if (f.shard) {
      // A whole sweep's output (shard 1/1) has no /sweep/shard.
      const nlohmann::ordered_json named =
          f.shard->IsWhole() ? nlohmann::ordered_json() : nlohmann::ordered_json(f.shard->ToString());
      const nlohmann::ordered_json held = this_info.value("shard", nlohmann::ordered_json());
      if (held != named) {
        errors->push_back(f.path + ": /sweep/shard: " + (held.is_null() ? "absent" : held.dump()) +
                          ", but the file's name says shard " + f.shard->ToString());
        continue;
      }
    }
    if (this_info.contains("shard") && this_info["shard"].is_string()) {
      const std::string s = this_info["shard"].get<std::string>();
      if (!shard_names.insert(s).second) {
        errors->push_back(f.path + ": /sweep/shard: shard " + s + " is given twice");
        continue;
      }
      this_info.erase("shard");
    }
    if (!info) {
      info = this_info;
      info_from = f.path;
      keys = KeysOf(*info);
    } else if (this_info != *info) {
      errors->push_back(f.path + ": /sweep: another sweep than " + info_from +
                        "'s (scenario, grid or conf differ)");
      continue;
    }
    for (size_t r = 0; r < doc["rows"].size(); ++r) {
      std::string why;
      std::optional<SweepRow> row = RowFromJson(doc["rows"][r], keys, &why);
      if (!row) {
        errors->push_back(f.path + ": /rows/" + std::to_string(r) + ": " + why);
        continue;
      }
      const uint64_t point = row->point;
      if (f.shard && !f.shard->Contains(point)) {
        errors->push_back(f.path + ": /rows/" + std::to_string(r) + ": point " + std::to_string(point) +
                          " is not in shard " + f.shard->ToString() +
                          ", which the file's name says it holds");
        continue;
      }
      if (!rows.emplace(point, std::move(*row)).second) {
        errors->push_back(f.path + ": /rows/" + std::to_string(r) + ": point " + std::to_string(point) +
                          " is in more than one shard");
      }
    }
  }
  if (!info) return std::nullopt;
  const uint64_t total = (*info).value("points", uint64_t{0});
  std::vector<uint64_t> missing;
  for (uint64_t i = 0; i < total && missing.size() <= 10'000; ++i) {
    if (!rows.count(i)) missing.push_back(i);
  }
  if (!missing.empty() && errors->empty())
    errors->push_back("points missing from the shards: " + MissingList(missing));
  if (!rows.empty() && rows.rbegin()->first >= total) {
    errors->push_back("point " + std::to_string(rows.rbegin()->first) + " is outside the grid of " +
                      std::to_string(total) + " points");
  }
  if (!errors->empty()) return std::nullopt;
  std::vector<SweepRow> ordered;
  for (auto& [_, r] : rows) ordered.push_back(std::move(r));
  return RenderSweep(OutputFormat::kJson, *info, keys, ordered);
}

}  // namespace

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
    // A shard's CSV also names the whole grid's size (last column), so that merge can tell
    // when trailing points are missing; a whole sweep's CSV does not need it.
    const bool shard = info.contains("shard");
    const std::string points = shard ? "," + std::to_string(info.value("points", uint64_t{0})) : "";
    out = CsvHeader(keys) + (shard ? "," + std::string(kGridPointsColumn) : "") + "\n";
    for (const SweepRow& r : rows) out += RowToCsv(r) + points + "\n";
    return out;
  }
  out = "{\n\"sweep\": " + info.dump() + ",\n\"rows\": [\n";
  for (size_t i = 0; i < rows.size(); ++i)
    out += RowToJsonLine(rows[i], keys) + (i + 1 < rows.size() ? ",\n" : "\n");
  return out + "]\n}\n";
}

std::optional<std::string> MergeShards(OutputFormat format, const std::vector<ShardFile>& shards,
                                       std::vector<std::string>* errors) {
  if (shards.empty()) {
    errors->push_back("expected at least one shard output to merge");
    return std::nullopt;
  }
  return format == OutputFormat::kCsv ? MergeCsv(shards, errors) : MergeJson(shards, errors);
}

}  // namespace aqesim::sweep
