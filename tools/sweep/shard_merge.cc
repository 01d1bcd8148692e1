#include "tools/sweep/shard_merge.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "models/scenario/json_text.h"
#include "tools/sweep/shard_folder.h"

namespace aqesim::sweep {

namespace {

// Where a point was read: "PATH: line L" or "PATH: /rows/I".
struct Origin {
  std::string path;
  std::string where;
  std::string Prefix() const { return path + ": " + where + ": "; }
};

struct MergedRow {
  SweepRow row;
  Origin origin;
};

// A cell in a message: JSON-quoted (a newline, ESC or NUL escaped: one line, no terminal
// control), at most 60 bytes of it.
std::string Quoted(const std::string& s) {
  return nlohmann::json(s.size() > 60 ? s.substr(0, 57) + "..." : s)
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string MissingList(const std::vector<uint64_t>& missing) {
  std::string out;
  for (size_t i = 0; i < missing.size() && i < 10; ++i) out += (i ? ", " : "") + std::to_string(missing[i]);
  if (missing.size() > 10) out += ", ... (" + std::to_string(missing.size()) + " in all)";
  return out;
}

// "a, b, c" for messages about the shards together (at most three named).
std::string ShardList(const std::vector<ShardFile>& shards) {
  std::string out;
  for (size_t i = 0; i < shards.size() && i < 3; ++i) out += (i ? ", " : "") + shards[i].path;
  if (shards.size() > 3) out += ", ... (" + std::to_string(shards.size()) + " shards)";
  return out;
}

// The shards the files say they are (by name and by content): one N, each K once.
class ShardLabels {
 public:
  explicit ShardLabels(std::vector<std::string>* errors) : errors_(errors) {}

  // The label of `path` from its name and from its content; false (with an error) when
  // they disagree with each other or with the other files' labels.
  bool Add(const std::string& path, const std::optional<Shard>& by_name,
           const std::optional<Shard>& by_content, std::optional<Shard>* label) {
    if (by_name && by_content && (by_name->k != by_content->k || by_name->n != by_content->n)) {
      errors_->push_back(path + ": the file's name says shard " + by_name->ToString() +
                         ", its content says shard " + by_content->ToString());
      return false;
    }
    *label = by_name ? by_name : by_content;
    if (!*label) return true;
    if (first_) {
      if ((*label)->n != first_->second.n) {
        errors_->push_back(path + ": shard " + (*label)->ToString() + ", but " + first_->first +
                           " is shard " + first_->second.ToString() + ": shards of a sweep split " +
                           std::to_string(first_->second.n) + " and " + std::to_string((*label)->n) +
                           " ways cannot be merged");
        return false;
      }
    } else {
      first_.emplace(path, **label);
    }
    if (const auto [at, inserted] = by_k_.emplace((*label)->k, path); !inserted) {
      errors_->push_back(path + ": shard " + (*label)->ToString() + " is given twice (also " + at->second +
                         ")");
      return false;
    }
    return true;
  }

 private:
  std::vector<std::string>* errors_;
  std::optional<std::pair<std::string, Shard>> first_;
  std::map<int, std::string> by_k_;
};

// "K/N" as the shard column and /sweep/shard hold it.
std::optional<Shard> ParseLabel(const std::string& s) {
  std::string ignored;
  return ParseShard(s, &ignored);
}

// Adds a row; false (with an error) when its point is outside its file's shard or repeats.
bool AddRow(SweepRow row, const Origin& origin, const std::optional<Shard>& label,
            std::map<uint64_t, MergedRow>* rows, std::vector<std::string>* errors) {
  const uint64_t point = row.point;
  if (label && !label->Contains(point)) {
    errors->push_back(origin.Prefix() + "point " + std::to_string(point) + " is not in shard " +
                      label->ToString() + ", which the file says it holds");
    return false;
  }
  const auto [at, inserted] = rows->emplace(point, MergedRow{std::move(row), origin});
  if (!inserted) {
    errors->push_back(origin.Prefix() + "point " + std::to_string(point) +
                      " is in more than one shard (also " + at->second.origin.path + ")");
    return false;
  }
  return true;
}

// Points 0..total-1 all present and none beyond; problems to `errors`.
void CheckComplete(const std::map<uint64_t, MergedRow>& rows, uint64_t total,
                   const std::vector<ShardFile>& shards, std::vector<std::string>* errors) {
  if (!rows.empty() && rows.rbegin()->first >= total) {
    const MergedRow& last = rows.rbegin()->second;
    errors->push_back(last.origin.Prefix() + "point " + std::to_string(last.row.point) +
                      " is outside the grid of " + std::to_string(total) + " points");
  }
  std::vector<uint64_t> missing;
  for (uint64_t i = 0; i < total && missing.size() <= 10'000; ++i) {
    if (!rows.count(i)) missing.push_back(i);
  }
  // Points of a rejected shard are not reported again as missing.
  if (!missing.empty() && errors->empty())
    errors->push_back(ShardList(shards) + ": points missing from the shards: " + MissingList(missing));
}

// Every row's values must be its point's values in `axes`.
void CheckValuesInGrid(const std::map<uint64_t, MergedRow>& rows, const std::vector<GridAxis>& axes,
                       const std::string& whose, std::vector<std::string>* errors) {
  for (const auto& [point, r] : rows) {
    const std::vector<std::string> expected = GridPointValues(axes, point);
    for (size_t k = 0; k < axes.size(); ++k) {
      if (r.row.values[k] == expected[k]) continue;
      errors->push_back(r.origin.Prefix() + "point " + std::to_string(point) + " has " + axes[k].key + "=" +
                        Quoted(r.row.values[k]) + ", but " + whose + " has " + Quoted(expected[k]) +
                        " at that point");
      return;
    }
  }
}

// A CSV carries no grid: the rows (all points 0..n-1) must form one. Each key's values, in
// the order points first show them, are its axis (grid order: the first key varies slowest).
void CheckCsvRowsFormGrid(const std::map<uint64_t, MergedRow>& rows, const std::vector<std::string>& keys,
                          std::vector<std::string>* errors) {
  std::vector<GridAxis> axes(keys.size());
  std::vector<std::map<std::string, uint64_t>> counts(keys.size());
  for (size_t k = 0; k < keys.size(); ++k) axes[k].key = keys[k];
  for (const auto& [_, r] : rows) {
    for (size_t k = 0; k < keys.size(); ++k) {
      if (counts[k][r.row.values[k]]++ == 0) axes[k].values.push_back(r.row.values[k]);
    }
  }
  if (GridPointCount(axes) != rows.size()) {
    // A value that is not the grid's shows up fewer times than the others of its key: the
    // rarest, and of those the one that shows up last (a value replaced by it is rare too).
    for (size_t k = 0; k < keys.size(); ++k) {
      uint64_t most = 0;
      for (const auto& [_, n] : counts[k]) most = std::max(most, n);
      const std::string* odd = nullptr;
      for (const std::string& v : axes[k].values) {
        if (counts[k][v] < most && (!odd || counts[k][v] <= counts[k][*odd])) odd = &v;
      }
      if (!odd) continue;
      for (const auto& [point, r] : rows) {
        if (r.row.values[k] != *odd) continue;
        errors->push_back(r.origin.Prefix() + "point " + std::to_string(point) + " has " + keys[k] + "=" +
                          Quoted(*odd) + ", a value " + std::to_string(counts[k][*odd]) +
                          " point(s) have where each other value of " + keys[k] + " has " +
                          std::to_string(most) + ": the rows do not form the sweep's grid");
        return;
      }
    }
    errors->push_back(rows.begin()->second.origin.path +
                      ": the rows' swept values do not form a grid (each combination once)");
    return;
  }
  CheckValuesInGrid(rows, axes, "the grid the other rows form", errors);
}

// The header's swept keys and whether it ends with the shard columns; nullopt with an error.
struct CsvHeaderParts {
  std::vector<std::string> keys;
  bool shard_column = false;        // ...,error,shard,gridPoints
  bool grid_points_column = false;  // ...,error[,shard],gridPoints
};
std::optional<CsvHeaderParts> ParseCsvHeader(const std::string& path, const CsvRecord& header,
                                             std::vector<std::string>* errors) {
  std::vector<std::string> f = header.fields;
  CsvHeaderParts parts;
  if (!f.empty() && f.back() == kGridPointsColumn) {
    parts.grid_points_column = true;
    f.pop_back();
    if (!f.empty() && f.back() == kShardColumn) {
      parts.shard_column = true;
      f.pop_back();
    }
  }
  const std::vector<std::string>& metrics = MetricColumns();
  const bool ok = f.size() >= 2 + metrics.size() && f.front() == "point" && f.back() == "error" &&
                  std::equal(metrics.begin(), metrics.end(), f.end() - 1 - metrics.size());
  if (!ok) {
    errors->push_back(path + ": line " + std::to_string(header.line) +
                      ": expected the header of an aqesim sweep CSV (point, the swept keys, " +
                      metrics.front() + ", ..., error)");
    return std::nullopt;
  }
  parts.keys.assign(f.begin() + 1, f.end() - 1 - static_cast<std::ptrdiff_t>(metrics.size()));
  return parts;
}

std::optional<std::string> MergeCsv(const std::vector<ShardFile>& shards, std::vector<std::string>* errors) {
  std::optional<CsvHeaderParts> header;
  std::string header_from;
  std::optional<std::pair<uint64_t, std::string>> grid_points;  // the grid's size, and who said so
  std::map<uint64_t, MergedRow> rows;
  ShardLabels labels(errors);
  for (const ShardFile& f : shards) {
    std::vector<CsvRecord> records;
    if (!ReadCsvRecords(f.path, f.text, &records, errors)) continue;
    if (records.empty()) {
      errors->push_back(f.path +
                        ": expected the header of an aqesim sweep CSV (point,...), found an empty file");
      continue;
    }
    std::optional<CsvHeaderParts> h = ParseCsvHeader(f.path, records.front(), errors);
    if (!h) continue;
    if (!header) {
      header = h;
      header_from = f.path;
    } else if (h->keys != header->keys) {
      errors->push_back(f.path + ": line 1: the swept keys differ from " + header_from + "'s");
      continue;
    } else if (h->grid_points_column != header->grid_points_column) {
      errors->push_back(f.path + ": line 1: " + (h->grid_points_column ? "a" : "no") +
                        " gridPoints column, " + header_from + " has " +
                        (header->grid_points_column ? "one" : "none") +
                        ": shards of different sweeps or versions");
      continue;
    }
    const size_t extra = (h->shard_column ? 1 : 0) + (h->grid_points_column ? 1 : 0);
    // The file's own label: every row's shard column says the same.
    std::optional<Shard> by_content;
    bool bad = false;
    for (size_t r = 1; r < records.size() && h->shard_column; ++r) {
      const std::vector<std::string>& cells = records[r].fields;
      const std::string cell = cells.size() >= 2 ? cells[cells.size() - 2] : "";
      const std::optional<Shard> s = ParseLabel(cell);
      if (!s || (by_content && s->ToString() != by_content->ToString())) {
        errors->push_back(
            f.path + ": line " + std::to_string(records[r].line) + ": expected the shard " +
            (by_content ? by_content->ToString() + " like the rows before" : std::string("K/N")) +
            ", found " + Quoted(cell));
        bad = true;
        break;
      }
      by_content = s;
    }
    std::optional<Shard> label;
    if (bad || !labels.Add(f.path, f.shard, by_content, &label)) continue;
    for (size_t r = 1; r < records.size(); ++r) {
      std::vector<std::string> cells = records[r].fields;
      const Origin origin{f.path, "line " + std::to_string(records[r].line)};
      if (h->grid_points_column && cells.size() > extra) {
        const std::string& cell = cells.back();
        uint64_t n = 0;
        auto [q, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), n);
        if (cell.empty() || ec != std::errc() || q != cell.data() + cell.size()) {
          errors->push_back(origin.Prefix() + "expected the grid's size in the last column, found " +
                            Quoted(cell));
          continue;
        }
        if (grid_points && grid_points->first != n) {
          errors->push_back(origin.Prefix() + "a grid of " + std::to_string(n) + " points, " +
                            grid_points->second + "'s has " + std::to_string(grid_points->first));
          continue;
        }
        if (!grid_points) grid_points.emplace(n, f.path);
        cells.resize(cells.size() - extra);
      }
      std::string why;
      std::optional<SweepRow> row = RowFromCsv(cells, h->keys.size(), &why);
      if (!row) {
        errors->push_back(origin.Prefix() + why);
        continue;
      }
      AddRow(std::move(*row), origin, label, &rows, errors);
    }
  }
  if (!header) return std::nullopt;
  // A CSV without the gridPoints column (a whole sweep's) must hold 0..n-1 without a gap.
  const uint64_t total = grid_points ? grid_points->first : (rows.empty() ? 0 : rows.rbegin()->first + 1);
  if (errors->empty()) CheckComplete(rows, total, shards, errors);
  if (errors->empty() && !rows.empty()) CheckCsvRowsFormGrid(rows, header->keys, errors);
  if (!errors->empty()) return std::nullopt;
  std::string out = CsvHeader(header->keys) + "\n";
  for (const auto& [_, r] : rows) out += RowToCsv(r.row) + "\n";
  return out;
}

// The grid a JSON output names (/sweep/grid), checked against /sweep/points.
std::optional<std::vector<GridAxis>> GridOfInfo(const std::string& path, const nlohmann::ordered_json& info,
                                                std::vector<std::string>* errors) {
  std::vector<GridAxis> axes;
  const auto fail = [&](const std::string& message) -> std::optional<std::vector<GridAxis>> {
    errors->push_back(path + ": " + message);
    return std::nullopt;
  };
  if (!info.contains("grid") || !info["grid"].is_array() || info["grid"].empty())
    return fail("/sweep/grid: expected the swept keys and their values");
  for (size_t i = 0; i < info["grid"].size(); ++i) {
    const nlohmann::ordered_json& a = info["grid"][i];
    GridAxis axis;
    bool ok = a.is_object() && a.contains("key") && a["key"].is_string() && a.contains("values") &&
              a["values"].is_array() && !a["values"].empty();
    if (ok) {
      axis.key = a["key"].get<std::string>();
      for (const auto& v : a["values"]) {
        ok = ok && v.is_string();
        if (ok) axis.values.push_back(v.get<std::string>());
      }
    }
    if (!ok)
      return fail("/sweep/grid/" + std::to_string(i) + ": expected {\"key\": KEY, \"values\": [V1, ...]}");
    axes.push_back(std::move(axis));
  }
  const uint64_t points = GridPointCount(axes);
  if (!info.contains("points") || !info["points"].is_number_unsigned() ||
      info["points"].get<uint64_t>() != points)
    return fail("/sweep/points: expected " + std::to_string(points) +
                ", the number of points of /sweep/grid");
  return axes;
}

std::optional<std::string> MergeJson(const std::vector<ShardFile>& shards, std::vector<std::string>* errors) {
  std::optional<nlohmann::ordered_json> info;
  std::string info_from;
  std::vector<std::string> keys;
  std::vector<GridAxis> axes;
  std::map<uint64_t, MergedRow> rows;
  ShardLabels labels(errors);
  for (const ShardFile& f : shards) {
    const nlohmann::ordered_json doc =
        nlohmann::ordered_json::parse(f.text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) {  // no JSON text: where it stops being one
      std::vector<Diagnostic> parse_errors;
      nlohmann::ordered_json unused;
      if (!ParseJsonText(f.path, f.text, &unused, &parse_errors) && !parse_errors.empty()) {
        errors->push_back(parse_errors.front().ToString());
        continue;
      }
    }
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("sweep") || !doc["sweep"].is_object() ||
        !doc.contains("rows") || !doc["rows"].is_array()) {
      errors->push_back(f.path +
                        ": expected the JSON output of aqesim sweep ({\"sweep\": ..., \"rows\": [...]})");
      continue;
    }
    nlohmann::ordered_json this_info = doc["sweep"];
    std::optional<Shard> by_content;
    if (this_info.contains("shard")) {
      const nlohmann::ordered_json& s = this_info["shard"];
      by_content = s.is_string() ? ParseLabel(s.get<std::string>()) : std::nullopt;
      if (!by_content) {
        errors->push_back(f.path + ": /sweep/shard: expected \"K/N\", found " + s.dump());
        continue;
      }
      this_info.erase("shard");
    } else if (f.shard && !f.shard->IsWhole()) {
      errors->push_back(f.path + ": /sweep/shard: absent, but the file's name says shard " +
                        f.shard->ToString());
      continue;
    }
    std::optional<Shard> label;
    if (!labels.Add(f.path, f.shard && !f.shard->IsWhole() ? f.shard : std::nullopt, by_content, &label))
      continue;
    if (!info) {
      std::optional<std::vector<GridAxis>> grid = GridOfInfo(f.path, this_info, errors);
      if (!grid) continue;
      info = this_info;
      info_from = f.path;
      axes = std::move(*grid);
      for (const GridAxis& a : axes) keys.push_back(a.key);
    } else if (this_info != *info) {
      errors->push_back(f.path + ": /sweep: another sweep than " + info_from +
                        "'s (scenario, grid or conf differ)");
      continue;
    }
    for (size_t r = 0; r < doc["rows"].size(); ++r) {
      const Origin origin{f.path, "/rows/" + std::to_string(r)};
      std::string why;
      std::optional<SweepRow> row = RowFromJson(doc["rows"][r], keys, &why);
      if (!row) {
        errors->push_back(origin.Prefix() + why);
        continue;
      }
      AddRow(std::move(*row), origin, label, &rows, errors);
    }
  }
  if (!info) return std::nullopt;
  if (errors->empty()) CheckComplete(rows, info->value("points", uint64_t{0}), shards, errors);
  if (errors->empty()) CheckValuesInGrid(rows, axes, info_from + "'s /sweep/grid", errors);
  if (!errors->empty()) return std::nullopt;
  std::vector<SweepRow> ordered;
  for (auto& [_, r] : rows) ordered.push_back(std::move(r.row));
  return RenderSweep(OutputFormat::kJson, *info, keys, ordered);
}

}  // namespace

bool ReadCsvRecords(const std::string& path, const std::string& text, std::vector<CsvRecord>* records,
                    std::vector<std::string>* errors) {
  size_t line = 1, pos = 0;
  while (pos < text.size()) {
    CsvRecord record;
    record.line = line;
    std::string field;
    bool quoted = false, was_quoted = false, end = false;
    while (!end) {
      if (pos >= text.size()) {
        if (quoted) {
          errors->push_back(path + ": line " + std::to_string(record.line) +
                            ": a quoted field is not closed (it runs to the end of the file)");
          return false;
        }
        break;
      }
      const char c = text[pos++];
      if (quoted) {
        if (c == '"') {
          if (pos < text.size() && text[pos] == '"') {
            field += '"';
            ++pos;
          } else {
            quoted = false;
          }
        } else {
          line += c == '\n';
          field += c;
        }
      } else if (c == '"') {
        if (!field.empty() || was_quoted) {
          errors->push_back(path + ": line " + std::to_string(line) +
                            ": a quote inside an unquoted field (expected RFC 4180 quoting)");
          return false;
        }
        quoted = was_quoted = true;
      } else if (c == ',') {
        record.fields.push_back(std::move(field));
        field.clear();
        was_quoted = false;
      } else if (c == '\n' || (c == '\r' && pos < text.size() && text[pos] == '\n')) {
        if (c == '\r') ++pos;
        ++line;
        end = true;
      } else {
        if (was_quoted) {
          errors->push_back(path + ": line " + std::to_string(line) +
                            ": text after a quoted field's closing quote (expected RFC 4180 quoting)");
          return false;
        }
        field += c;
      }
    }
    record.fields.push_back(std::move(field));
    const bool blank = record.fields.size() == 1 && record.fields[0].empty() && !was_quoted;
    if (!blank) records->push_back(std::move(record));
  }
  return true;
}

std::optional<std::string> MergeShards(OutputFormat format, const std::vector<ShardFile>& shards,
                                       std::vector<std::string>* errors) {
  if (shards.empty()) {
    errors->push_back("expected at least one shard output to merge");
    return std::nullopt;
  }
  // A file named shard-K-of-N is that shard, wherever it is.
  std::vector<ShardFile> named = shards;
  for (ShardFile& f : named) {
    if (f.shard) continue;
    const std::optional<ShardFileNameParts> parts =
        ParseShardFileName(std::filesystem::path(f.path).filename().string());
    if (parts && parts->n >= 1 && parts->k >= 1 && parts->k <= parts->n) f.shard = Shard{parts->k, parts->n};
  }
  return format == OutputFormat::kCsv ? MergeCsv(named, errors) : MergeJson(named, errors);
}

}  // namespace aqesim::sweep
