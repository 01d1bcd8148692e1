#include "models/scenario/csv_matrix_reader.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "models/scenario/input_file.h"
#include "models/shuffle/generators.h"
#include "sim/units.h"

namespace aqesim {

namespace {

std::string ResolvePath(const std::string& dir, const std::string& path) {
  if (path.empty() || path[0] == '/' || dir.empty()) return path;
  return dir + "/" + path;
}

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// Parses one csv cell: digits only (a byte count); anything else is described for the message.
std::optional<int64_t> ParseCsvCell(std::string_view cell, std::string* problem) {
  if (cell.empty()) {
    *problem = "expected a non-negative integer byte count, found an empty field";
    return std::nullopt;
  }
  auto shown = [&] {  // a 10 MB cell is not echoed
    return cell.size() > 60 ? std::string(cell.substr(0, 57)) + "..." : std::string(cell);
  };
  if (cell.find_first_not_of("0123456789") != std::string::npos) {
    if (cell[0] == '-' && cell.size() > 1 && cell.find_first_not_of("0123456789", 1) == std::string::npos)
      *problem = "expected a non-negative byte count, found " + shown();
    else if (cell.find_first_not_of("0123456789.") == std::string::npos &&
             cell.find('.') != std::string::npos)
      *problem = "expected a whole number of bytes, found " + shown();
    else
      *problem = "expected a non-negative integer byte count, found " + DescribeJson(Json(std::string(cell)));
    return std::nullopt;
  }
  int64_t value = 0;
  for (char c : cell) {
    if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, c - '0', &value)) {
      *problem = "expected a byte count below 2^63, found " + shown();
      return std::nullopt;
    }
  }
  return value;
}

}  // namespace

std::optional<SizeMatrix> ReadCsvMatrix(const Json& v, const std::string& pointer, const std::string& dir,
                                        DiagnosticSink* sink) {
  auto path = ReadString(v, pointer, sink);
  if (!path) return std::nullopt;
  if (path->empty()) {
    sink->Error(pointer, "expected the path of a csv file, found \"\"");
    return std::nullopt;
  }
  const std::string resolved = ResolvePath(dir, *path);
  sink->FileRead(resolved);
  std::string text;
  if (const int err = sink->ReadFile(resolved, &text, kMaxCsvBytes); err != 0) {  // no hang on a FIFO
    std::string where = Json(*path).dump();
    if (resolved != *path) where += " (" + resolved + ")";
    sink->Error(pointer, "cannot read csv file " + where + ": " + InputFileError(err, kMaxCsvBytes));
    return std::nullopt;
  }
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);  // a UTF-8 BOM (spreadsheets write one)
  // A UTF-16 text (a spreadsheet's "Unicode text": a BOM, or NUL bytes between ASCII digits)
  // is one problem, not one per cell.
  if (text.rfind("\xFF\xFE", 0) == 0 || text.rfind("\xFE\xFF", 0) == 0 ||
      (text.size() >= 2 && (text[0] == '\0' || text[1] == '\0'))) {
    sink->Add(true, resolved, "line 1", pointer, "expected UTF-8 text, found UTF-16 (save the csv as UTF-8)");
    return std::nullopt;
  }
  size_t problems = 0;
  auto problem = [&](size_t line, size_t column, const std::string& message) {
    ++problems;
    if (problems > kMaxProblemsPerTable) return;
    std::string location = "line " + std::to_string(line);
    if (column > 0) location += ", column " + std::to_string(column);
    sink->Add(true, resolved, location, pointer, message);
  };
  // The cells are parsed from the text in place (no copy of it, no string per cell) into one
  // vector reserved for the most cells the text can hold at the first row's width, and copied
  // into the matrix once the text is freed: a 200 MB csv of 10^8 cells peaks at its text and
  // cells, then cells and matrix (1.96 GB max RSS for the whole run, 2.21 GB before).
  const std::string_view all(text);
  std::vector<int64_t> cells;
  size_t width = 0, width_line = 0, rows = 0;
  int64_t total = 0;
  bool total_overflow = false;
  size_t line_number = 0;
  for (size_t pos = 0; pos < all.size();) {
    const size_t eol = std::min(all.find('\n', pos), all.size());
    const std::string_view line = all.substr(pos, eol - pos);
    pos = eol < all.size() ? eol + 1 : all.size();  // a last line without its line break ends here
    ++line_number;
    if (TrimSpaces(line).empty()) continue;  // blank lines are ignored
    const size_t fields = static_cast<size_t>(std::count(line.begin(), line.end(), ',')) + 1;
    if (rows == 0) {
      width = fields;
      width_line = line_number;
      const size_t lines_left =
          static_cast<size_t>(std::count(all.begin() + static_cast<std::ptrdiff_t>(pos), all.end(), '\n')) +
          1;
      cells.reserve(std::min(width * (lines_left + 1), all.size() / 2 + 1));  // a cell takes >= 2 bytes
    } else if (fields != width) {
      problem(line_number, 0,
              "expected " + std::to_string(width) + " values like line " + std::to_string(width_line) +
                  ", found " + std::to_string(fields));
      ++rows;
      continue;
    }
    ++rows;
    size_t start = 0;
    for (size_t c = 0; c < fields; ++c) {
      const size_t comma = std::min(line.find(',', start), line.size());
      const std::string_view field = TrimSpaces(line.substr(start, comma - start));
      start = comma + 1;
      std::string message;
      auto value = ParseCsvCell(field, &message);
      if (!value) {
        problem(line_number, c + 1, message);
        continue;
      }
      if (problems == 0) cells.push_back(*value);  // a table with problems is not built
      if (auto sum = CheckedAdd(total, *value))
        total = *sum;
      else
        total_overflow = true;
    }
  }
  if (problems > kMaxProblemsPerTable)
    sink->Add(true, resolved, "", pointer,
              "... and " + std::to_string(problems - kMaxProblemsPerTable) + " more problems in this file");
  if (rows == 0) {
    sink->Error(pointer,
                "expected at least one row (one per map task) in " + Json(*path).dump() + ", found none");
    return std::nullopt;
  }
  if (problems > 0) return std::nullopt;
  if (total_overflow) {
    sink->Error(pointer, "expected partition sizes whose total is below 2^63 bytes, found a larger total");
    return std::nullopt;
  }
  text = std::string();  // the text is not needed beside the matrix
  SizeMatrix m(static_cast<int>(rows), static_cast<int>(width));
  std::copy(cells.begin(), cells.end(), m.mutable_row(0).data());
  return m;
}

}  // namespace aqesim
