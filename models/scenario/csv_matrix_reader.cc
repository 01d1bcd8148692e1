#include "models/scenario/csv_matrix_reader.h"

#include <cstring>
#include <sstream>
#include <string_view>
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

std::string TrimSpaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

// Parses one csv cell: digits only (a byte count); anything else is described for the message.
std::optional<int64_t> ParseCsvCell(const std::string& cell, std::string* problem) {
  if (cell.empty()) {
    *problem = "expected a non-negative integer byte count, found an empty field";
    return std::nullopt;
  }
  const Json as_string(cell);
  const std::string shown =
      cell.size() > 60 ? cell.substr(0, 57) + "..." : cell;  // a 10 MB cell is not echoed
  if (cell.find_first_not_of("0123456789") != std::string::npos) {
    if (cell[0] == '-' && cell.size() > 1 && cell.find_first_not_of("0123456789", 1) == std::string::npos)
      *problem = "expected a non-negative byte count, found " + shown;
    else if (cell.find_first_not_of("0123456789.") == std::string::npos &&
             cell.find('.') != std::string::npos)
      *problem = "expected a whole number of bytes, found " + shown;
    else
      *problem = "expected a non-negative integer byte count, found " + DescribeJson(as_string);
    return std::nullopt;
  }
  int64_t value = 0;
  for (char c : cell) {
    if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, c - '0', &value)) {
      *problem = "expected a byte count below 2^63, found " + shown;
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
  std::istringstream in(text);
  size_t problems = 0;
  auto problem = [&](size_t line, size_t column, const std::string& message) {
    ++problems;
    if (problems > kMaxProblemsPerTable) return;
    std::string location = "line " + std::to_string(line);
    if (column > 0) location += ", column " + std::to_string(column);
    sink->Add(true, resolved, location, pointer, message);
  };
  std::vector<int64_t> cells;
  size_t width = 0, width_line = 0, rows = 0;
  int64_t total = 0;
  bool total_overflow = false;
  std::string line;
  size_t line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (TrimSpaces(line).empty()) continue;  // blank lines are ignored
    std::vector<std::string> fields;
    size_t start = 0;
    while (true) {
      const size_t comma = line.find(',', start);
      fields.push_back(TrimSpaces(std::string_view(line).substr(
          start, comma == std::string::npos ? std::string::npos : comma - start)));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (rows == 0) {
      width = fields.size();
      width_line = line_number;
    } else if (fields.size() != width) {
      problem(line_number, 0,
              "expected " + std::to_string(width) + " values like line " + std::to_string(width_line) +
                  ", found " + std::to_string(fields.size()));
      ++rows;
      continue;
    }
    ++rows;
    for (size_t c = 0; c < fields.size(); ++c) {
      std::string message;
      auto value = ParseCsvCell(fields[c], &message);
      if (!value) {
        problem(line_number, c + 1, message);
        continue;
      }
      cells.push_back(*value);
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
  SizeMatrix m(static_cast<int>(rows), static_cast<int>(width));
  for (size_t i = 0; i < rows; ++i)
    for (size_t j = 0; j < width; ++j) m.at(static_cast<int>(i), static_cast<int>(j)) = cells[i * width + j];
  return m;
}

}  // namespace aqesim
