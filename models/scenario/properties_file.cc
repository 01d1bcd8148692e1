#include "models/scenario/properties_file.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

#include "models/conf/property_value.h"
#include "models/conf/spark_conf.h"
#include "models/scenario/input_file.h"

namespace aqesim {
namespace {

// java.util.Properties' whitespace between and before key and value.
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\f'; }

// Appends code point `cp` as UTF-8 (a lone surrogate from \uD800 is kept as Java keeps it,
// encoded as U+FFFD so the text stays UTF-8).
void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xC0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xE0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The text decoded as Spark's reader decodes the file (UTF-8, each malformed byte U+FFFD), so
// a key in invalid UTF-8 never reaches a message as raw bytes.
std::string DecodeUtf8Lossy(const std::string& in) {
  std::string out;
  out.reserve(in.size());
  size_t i = 0;
  while (i < in.size()) {
    const unsigned char c = static_cast<unsigned char>(in[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = len > 0 && i + len <= in.size();
    uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; ok && k < len; ++k) {
      const unsigned char d = static_cast<unsigned char>(in[i + k]);
      ok = (d >> 6) == 2;
      cp = (cp << 6) | (d & 0x3F);
    }
    // Overlong forms, surrogates and code points beyond U+10FFFF are malformed too.
    ok = ok && !(len == 2 && cp < 0x80) && !(len == 3 && cp < 0x800) && !(len == 4 && cp < 0x10000) &&
         cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    if (ok) {
      out.append(in, i, len);
      i += len;
    } else {
      AppendUtf8(0xFFFD, &out);
      ++i;
    }
  }
  return out;
}

// One logical line: its text (continuations joined, escapes still in) and its first line.
struct LogicalLine {
  std::string text;
  int line = 0;
};

// Splits into logical lines as Properties.load does: natural lines end at \n, \r or \r\n;
// blank lines and comment lines ('#' or '!' first after whitespace) are skipped; a line ending
// in an odd number of backslashes continues on the next, whose leading whitespace is dropped.
std::vector<LogicalLine> LogicalLines(const std::string& text) {
  std::vector<LogicalLine> out;
  int line = 0;
  size_t pos = 0;
  bool continuing = false;
  while (pos < text.size()) {
    size_t end = pos;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r') ++end;
    std::string_view natural(text.data() + pos, end - pos);
    pos = end;
    if (pos < text.size() && text[pos] == '\r') {
      ++pos;
      if (pos < text.size() && text[pos] == '\n') ++pos;
    } else if (pos < text.size()) {
      ++pos;
    }
    ++line;
    while (!natural.empty() && IsSpace(natural.front())) natural.remove_prefix(1);
    if (!continuing) {
      if (natural.empty() || natural[0] == '#' || natural[0] == '!') continue;
      out.push_back({"", line});
    }
    size_t slashes = 0;
    while (slashes < natural.size() && natural[natural.size() - 1 - slashes] == '\\') ++slashes;
    continuing = slashes % 2 == 1;
    if (continuing) natural.remove_suffix(1);
    out.back().text.append(natural);
  }
  return out;
}

// Four hexadecimal digits at `at`, or nullopt.
std::optional<uint32_t> Hex4(std::string_view s, size_t at) {
  if (at + 4 > s.size()) return std::nullopt;
  uint32_t v = 0;
  for (size_t k = at; k < at + 4; ++k) {
    const char h = s[k];
    const int d = h >= '0' && h <= '9'   ? h - '0'
                  : h >= 'a' && h <= 'f' ? h - 'a' + 10
                  : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                         : -1;
    if (d < 0) return std::nullopt;
    v = v * 16 + static_cast<uint32_t>(d);
  }
  return v;
}

// Unescapes a key or value: \t \n \r \f, \uXXXX (a surrogate pair as two escapes is one code
// point), and \c as c. Nullopt on a malformed \u (Java throws IllegalArgumentException).
std::optional<std::string> Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (i + 1 >= s.size()) break;  // a lone backslash at the end of the file
    const char c = s[++i];
    if (c != 'u') {
      out += c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == 'f' ? '\f' : c;
      continue;
    }
    std::optional<uint32_t> cp = Hex4(s, i + 1);
    if (!cp) return std::nullopt;
    i += 4;
    if (*cp >= 0xD800 && *cp <= 0xDBFF && s.substr(i + 1, 2) == "\\u") {
      if (auto lo = Hex4(s, i + 3); lo && *lo >= 0xDC00 && *lo <= 0xDFFF) {
        *cp = 0x10000 + ((*cp - 0xD800) << 10) + (*lo - 0xDC00);
        i += 6;
      }
    }
    AppendUtf8(*cp, &out);
  }
  return out;
}

}  // namespace

std::vector<PropertyEntry> ReadPropertiesFile(const std::string& path, std::vector<Diagnostic>* errors,
                                              std::vector<Diagnostic>* warnings, InputFiles* files) {
  std::vector<PropertyEntry> entries;
  std::string raw;
  if (const int err = ReadInputFileOnce(files, path, &raw, kMaxPropertiesFileBytes);
      err != 0) {  // no hang on a FIFO
    errors->push_back(
        {path, "", "cannot read properties file: " + InputFileError(err, kMaxPropertiesFileBytes)});
    return entries;
  }
  if (raw.rfind("\xEF\xBB\xBF", 0) == 0) raw.erase(0, 3);  // a UTF-8 BOM (editors on Windows write one)
  const std::string text = DecodeUtf8Lossy(raw);
  std::map<std::string, int> line_of_key;
  size_t repeats = 0;      // keys set again
  int first_unlisted = 0;  // the line of the first repeat not warned one by one
  for (const LogicalLine& l : LogicalLines(text)) {
    const std::string where = "line " + std::to_string(l.line);
    const std::string_view t = l.text;
    // The key ends at the first unescaped whitespace, '=' or ':'.
    size_t key_end = 0;
    while (key_end < t.size() && !IsSpace(t[key_end]) && t[key_end] != '=' && t[key_end] != ':')
      key_end += t[key_end] == '\\' ? 2 : 1;
    key_end = std::min(key_end, t.size());
    size_t value_start = key_end;
    while (value_start < t.size() && IsSpace(t[value_start])) ++value_start;
    if (value_start < t.size() && (t[value_start] == '=' || t[value_start] == ':')) ++value_start;
    while (value_start < t.size() && IsSpace(t[value_start])) ++value_start;
    const std::optional<std::string> key = Unescape(t.substr(0, key_end));
    const std::optional<std::string> value = Unescape(t.substr(value_start));
    if (!key || !value) {
      errors->push_back({path, where, "malformed \\uXXXX escape (four hexadecimal digits expected)"});
      continue;
    }
    if (!key->empty() && (*key)[0] == '[' && value->empty()) {
      errors->push_back(
          {path, where, "expected \"key value\" or \"key=value\", found \"" + std::string(Trim(t)) + "\""});
      continue;
    }
    // Spark trims every value read from the file (Utils.getPropertiesFromFile).
    PropertyEntry e{*key, std::string(Trim(*value)), l.line};
    auto [it, fresh] = line_of_key.try_emplace(e.key, l.line);
    if (!fresh) {
      // Listed one by one up to kMaxUnknownKeyWarnings, like unknown keys: a file setting one
      // key 10^5 times printed 10^5 lines (hostile round, 2026-12-04).
      if (++repeats <= kMaxUnknownKeyWarnings)
        warnings->push_back({path, where,
                             "'" + e.key + "' is also set on line " + std::to_string(it->second) +
                                 "; the later value is used"});
      else if (repeats == kMaxUnknownKeyWarnings + 1)
        first_unlisted = l.line;
      it->second = l.line;
    }
    entries.push_back(std::move(e));
  }
  if (repeats > kMaxUnknownKeyWarnings)
    warnings->push_back(
        {path, "line " + std::to_string(first_unlisted),
         std::to_string(repeats - kMaxUnknownKeyWarnings) +
             " more keys set again, from this line on, not listed one by one; the later value "
             "of each is used"});
  return entries;
}

}  // namespace aqesim
