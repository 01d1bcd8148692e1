#include "models/scenario/properties_file.h"

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/parsers.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "models/conf/property_value.h"
#include "models/scenario/input_file.h"

namespace aqesim {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\r'; }

}  // namespace

std::vector<PropertyEntry> ReadPropertiesFile(const std::string& path, std::vector<Diagnostic>* errors,
                                              std::vector<Diagnostic>* warnings) {
  std::vector<PropertyEntry> entries;
  std::string text;
  if (const int err = ReadInputFile(path, &text); err != 0) {  // no hang on a FIFO
    errors->push_back({path, "", std::string("cannot read properties file: ") + std::strerror(err)});
    return entries;
  }
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);  // a UTF-8 BOM (editors on Windows write one)
  std::istringstream in(text);
  // Normalise each property line to "key=value" for Boost, remembering its line number.
  std::string normalised;
  std::vector<int> line_of_entry;
  std::vector<std::string> key_of_entry;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const std::string trimmed(Trim(line));
    if (trimmed.empty() || trimmed[0] == '#' || trimmed[0] == '!') continue;
    size_t key_end = 0;
    while (key_end < trimmed.size() && !IsSpace(trimmed[key_end]) && trimmed[key_end] != '=' &&
           trimmed[key_end] != ':')
      ++key_end;
    const std::string key = trimmed.substr(0, key_end);
    size_t value_start = key_end;
    while (value_start < trimmed.size() && IsSpace(trimmed[value_start])) ++value_start;
    if (value_start < trimmed.size() && (trimmed[value_start] == '=' || trimmed[value_start] == ':'))
      ++value_start;
    const std::string value(Trim(std::string_view(trimmed).substr(value_start)));
    if (key.empty() || key[0] == '[') {
      errors->push_back({path, "line " + std::to_string(line_number),
                         "expected \"key value\" or \"key=value\", found \"" + trimmed + "\""});
      continue;
    }
    if (value.find('#') != std::string::npos)
      warnings->push_back({path, "line " + std::to_string(line_number),
                           "'#' starts a comment: the value of '" + key + "' ends before it"});
    normalised += key + "=" + value + "\n";
    line_of_entry.push_back(line_number);
    key_of_entry.push_back(key);
  }

  namespace po = boost::program_options;
  try {
    std::istringstream stream(normalised);
    po::options_description none;
    const po::parsed_options parsed = po::parse_config_file(stream, none, /*allow_unregistered=*/true);
    size_t index = 0;
    for (const po::option& option : parsed.options) {
      // One option per normalised line, in order; match by key to be safe.
      while (index < key_of_entry.size() && key_of_entry[index] != option.string_key) ++index;
      const int at = index < line_of_entry.size() ? line_of_entry[index] : 0;
      ++index;
      entries.push_back({option.string_key, option.value.empty() ? std::string() : option.value.front(), at});
    }
  } catch (const std::exception& e) {
    errors->push_back({path, "", std::string("cannot parse properties file: ") + e.what()});
  }
  return entries;
}

}  // namespace aqesim
