#include "models/scenario/allocation_file_reader.h"

#include <algorithm>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <cctype>
#include <filesystem>
#include <sstream>

#include "models/scenario/input_file.h"

namespace aqesim {
namespace {

namespace pt = boost::property_tree;

/// fairscheduler.xml is a few pools: 1 MiB and 64 levels of nesting are far beyond any real one
/// (the XML parser recurses per level).
constexpr size_t kMaxAllocationFileBytes = size_t{1} << 20;
constexpr int kMaxDepth = 64;

std::string Trim(const std::string& s) {
  const auto b = std::find_if_not(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
  const auto e =
      std::find_if_not(s.rbegin(), s.rend(), [](unsigned char c) { return std::isspace(c); }).base();
  return b < e ? std::string(b, e) : std::string();
}

/// The deepest element nesting of `text` and the line where it first passes kMaxDepth (0 when it
/// does not): a scan of tags that skips comments, CDATA, declarations and quoted attributes.
int LineTooDeep(const std::string& text) {
  int depth = 0, line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') ++line;
    if (text[i] != '<') continue;
    if (text.compare(i, 4, "<!--") == 0) {
      const size_t end = text.find("-->", i + 4);
      if (end == std::string::npos) return 0;  // the parser reports it
      line += static_cast<int>(
          std::count(text.begin() + static_cast<long>(i), text.begin() + static_cast<long>(end), '\n'));
      i = end + 2;
      continue;
    }
    const bool closing = i + 1 < text.size() && text[i + 1] == '/';
    const bool special = i + 1 < text.size() && (text[i + 1] == '!' || text[i + 1] == '?');
    char quote = 0;
    size_t j = i + 1;
    for (; j < text.size(); ++j) {
      if (text[j] == '\n') ++line;
      if (quote != 0) {
        if (text[j] == quote) quote = 0;
      } else if (text[j] == '"' || text[j] == '\'') {
        quote = text[j];
      } else if (text[j] == '>') {
        break;
      }
    }
    if (j >= text.size()) return 0;
    const bool empty_element = text[j - 1] == '/';
    if (closing) {
      --depth;
    } else if (!special && !empty_element && ++depth > kMaxDepth) {
      return line;
    }
    i = j;
  }
  return 0;
}

/// "<pool name="etl">" for messages.
std::string PoolElement(const std::string& name) { return "<pool name=\"" + name + "\">"; }

void ReadPool(const std::string& file, const pt::ptree& node, std::map<std::string, PoolSpec>* pools,
              std::vector<Diagnostic>* errors, std::vector<Diagnostic>* warnings) {
  const std::string name = Trim(node.get<std::string>("<xmlattr>.name", ""));
  if (name.empty()) {
    errors->push_back({file, "<pool>", "expected a name attribute (<pool name=\"...\">)"});
    return;
  }
  PoolSpec pool;
  pool.name = name;
  const std::string where = PoolElement(name);
  if (auto mode = node.get_child_optional("schedulingMode")) {
    std::string m = Trim(mode->get_value<std::string>());
    std::transform(m.begin(), m.end(), m.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (m == "FAIR" || m == "FIFO") {
      pool.mode = m == "FAIR" ? SchedulingMode::kFair : SchedulingMode::kFifo;
    } else {
      warnings->push_back({file, where + " <schedulingMode>",
                           "expected FIFO or FAIR, found \"" + mode->get_value<std::string>() +
                               "\"; FIFO is used (as Spark does)"});
    }
  }
  for (auto [element, field, fallback] :
       {std::tuple{"weight", &pool.weight, 1}, {"minShare", &pool.min_share, 0}}) {
    auto child = node.get_child_optional(element);
    if (!child) continue;
    const std::string text = Trim(child->get_value<std::string>());
    int64_t value = -1;
    const bool digits =
        !text.empty() && text.size() <= 9 &&
        std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
    if (digits) value = std::stoll(text);
    if (value >= 0) {
      *field = static_cast<int>(value);
    } else {
      warnings->push_back({file, where + " <" + element + ">",
                           "expected an integer from 0 to 999999999, found \"" +
                               child->get_value<std::string>() + "\"; " + std::to_string(fallback) +
                               " is used (as Spark does)"});
    }
  }
  if (pools->count(name) != 0)
    warnings->push_back({file, where, "pool \"" + name + "\" is defined twice; the later one is used"});
  (*pools)[name] = pool;
}

/// Every <pool> below `node`, in document order (depth bounded by LineTooDeep).
void FindPools(const std::string& file, const pt::ptree& node, std::map<std::string, PoolSpec>* pools,
               std::vector<Diagnostic>* errors, std::vector<Diagnostic>* warnings) {
  for (const auto& [tag, child] : node) {
    if (tag == "pool") {
      ReadPool(file, child, pools, errors, warnings);
    } else if (tag != "<xmlattr>" && tag != "<xmlcomment>") {
      FindPools(file, child, pools, errors, warnings);
    }
  }
}

}  // namespace

void ParseAllocationFile(const std::string& file, const std::string& text,
                         std::map<std::string, PoolSpec>* pools, std::vector<Diagnostic>* errors,
                         std::vector<Diagnostic>* warnings) {
  if (const int line = LineTooDeep(text); line != 0) {
    errors->push_back({file, "line " + std::to_string(line),
                       "elements nested deeper than " + std::to_string(kMaxDepth) + " levels"});
    return;
  }
  pt::ptree tree;
  std::istringstream in(text);
  try {
    pt::read_xml(in, tree, pt::xml_parser::trim_whitespace);
  } catch (const pt::xml_parser_error& e) {
    errors->push_back({file, "line " + std::to_string(e.line()), "malformed XML: " + e.message()});
    return;
  }
  if (tree.get_child_optional("allocations") == boost::none) {
    errors->push_back({file, "", "expected a fairscheduler.xml document (root element <allocations>)"});
    return;
  }
  FindPools(file, tree, pools, errors, warnings);
}

void ReadAllocationFile(const std::string& path, std::map<std::string, PoolSpec>* pools,
                        std::vector<Diagnostic>* errors, std::vector<Diagnostic>* warnings,
                        InputFiles* files) {
  std::string text;
  if (const int err = ReadInputFileOnce(files, path, &text, kMaxAllocationFileBytes);
      err != 0) {  // never blocks on a FIFO
    errors->push_back(
        {path, "",
         "cannot read the scheduler allocation file: " + InputFileError(err, kMaxAllocationFileBytes)});
    return;
  }
  ParseAllocationFile(path, text, pools, errors, warnings);
}

std::string AllocationFilePath(const std::string& value, const std::string& dir) {
  std::string v = value;
  if (v.rfind("file://", 0) == 0) {
    v = v.substr(7);
  } else if (v.rfind("file:", 0) == 0) {
    v = v.substr(5);
  }
  std::filesystem::path p = v;
  if (p.is_relative() && !dir.empty()) p = std::filesystem::path(dir) / p;
  return p.string();
}

}  // namespace aqesim
