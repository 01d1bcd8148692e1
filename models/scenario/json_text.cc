#include "models/scenario/json_text.h"

#include <cstdio>
#include <string>
#include <utility>

namespace aqesim {

namespace {

// Line and column (1-based) of byte offset `offset` in `text`.
std::pair<size_t, size_t> LineColumn(const std::string& text, size_t offset) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// Byte offset of the first number that overflows a double (where nlohmann's parser stops
// with out_of_range 406); 0 if none is found.
size_t NumberOverflowOffset(const std::string& text) {
  struct Locator : nlohmann::json_sax<Json> {
    size_t offset = 0;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string& token,
                     const nlohmann::detail::exception&) override {
      offset = position >= token.size() ? position - token.size() : 0;
      return false;
    }
  } locator;
  Json::sax_parse(text, &locator);
  return locator.offset;
}

}  // namespace

std::string EscapeBytes(const std::string& text, bool escape_non_ascii) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c != 0x7f && !(escape_non_ascii && c > 0x7f)) {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    }
  }
  return out;
}

bool ParseJsonText(const std::string& path, const std::string& text, Json* doc,
                   std::vector<Diagnostic>* errors) {
  const size_t before = errors->size();
  const JsonShape shape = ScanJsonShape(text);
  if (const size_t deep = shape.too_deep; deep != std::string::npos) {
    const auto [line, col] = LineColumn(text, deep);
    errors->push_back({path, "line " + std::to_string(line) + ", column " + std::to_string(col),
                       "expected arrays and objects nested at most " + std::to_string(kMaxJsonDepth) +
                           " deep, found deeper nesting"});
    return false;
  }
  if (const size_t wide = shape.too_wide; wide != std::string::npos) {
    const auto [line, col] = LineColumn(text, wide);
    errors->push_back(
        {path, "line " + std::to_string(line) + ", column " + std::to_string(col),
         "expected objects of at most " + std::to_string(kMaxJsonObjectMembers) + " members, found more"});
    return false;
  }
  try {
    *doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    // nlohmann: "[json.exception.parse_error.101] parse error at line L, column C: MESSAGE".
    std::string message = e.what();
    const size_t column = message.find(", column ");
    const size_t colon = column == std::string::npos ? std::string::npos : message.find(": ", column);
    if (colon != std::string::npos) message = message.substr(colon + 2);
    // "last read: '...'" echoes raw input: show bytes outside printable ASCII as \xNN.
    message = EscapeBytes(message, /*escape_non_ascii=*/true);
    // e.byte is one past the character where parsing stopped.
    const auto [line, col] = LineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
    errors->push_back({path, "line " + std::to_string(line) + ", column " + std::to_string(col), message});
    return false;
  } catch (const Json::out_of_range& e) {
    // A number beyond double's range ("1e400"): nlohmann gives no position, a SAX pass does.
    const auto [line, col] = LineColumn(text, NumberOverflowOffset(text));
    std::string message = e.what();
    const size_t quote = message.find('\'');
    const std::string literal =
        quote == std::string::npos ? "" : message.substr(quote + 1, message.size() - quote - 2);
    errors->push_back({path, "line " + std::to_string(line) + ", column " + std::to_string(col),
                       "expected a number within the range of a double (about 1.8e308), found " + literal});
    return false;
  }
  // nlohmann's parser took a NUL byte for the end of the input: what follows was ignored.
  if (const size_t nul = text.find('\0'); nul != std::string::npos) {
    const auto [line, col] = LineColumn(text, nul);
    errors->push_back({path, "line " + std::to_string(line) + ", column " + std::to_string(col),
                       "unexpected NUL byte (\\x00): not a JSON text"});
    return false;
  }
  // The parser keeps the last of duplicate keys; which value is meant is the user's call.
  for (const DuplicateKey& d : FindDuplicateKeys(text)) {
    errors->push_back(
        {path, d.pointer,
         "duplicate key " + DescribeJson(Json(d.key)) + " in an object (which value is meant?)"});
  }
  return errors->size() == before;
}

}  // namespace aqesim
