#include "models/conf/conf_key_builders.h"

#include <string_view>

namespace aqesim {
namespace {

// `"value"` with JSON-style escapes, for "found ..." in messages.
std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          static const char kHex[] = "0123456789abcdef";
          out += "\\u00";
          out += kHex[(c >> 4) & 0xf];
          out += kHex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace

std::string FoundValue(const std::string& value) { return ", found " + Quote(value); }

namespace conf_keys {

ConfKeyInfo BoolKey(std::string key, bool SqlConf::*field) {
  return {std::move(key),
          [field](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
            auto v = ParseBool(value);
            if (!v) return "expected a boolean (true or false)" + FoundValue(value);
            conf->*field = *v;
            return std::string();
          },
          {}};
}

ConfKeyInfo DoubleKey(std::string key, double SqlConf::*field, DoubleCheck check, std::string what) {
  return {std::move(key),
          [field, check, what](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
            auto v = ParseDouble(value);
            if (!v || !check(*v)) return "expected " + what + FoundValue(value);
            conf->*field = *v;
            return std::string();
          },
          {}};
}

ConfKeyInfo StringKey(std::string key) {
  return {std::move(key),
          [](const std::string&, SqlConf*, std::vector<ConfProblem>*) { return std::string(); },
          {}};
}

ConfKeyInfo WithWarning(ConfKeyInfo inner, std::string warning) {
  ApplyFn apply = inner.apply;
  std::string key = inner.key;
  return {std::move(inner.key),
          [apply, key, warning](const std::string& value, SqlConf* conf, std::vector<ConfProblem>* warnings) {
            std::string error = apply(value, conf, warnings);
            if (error.empty()) warnings->push_back({key, warning, false});
            return error;
          },
          std::move(inner.doc)};
}

ConfKeyInfo Ignored(ConfKeyInfo inner) {
  ApplyFn apply = inner.apply;
  return {std::move(inner.key),
          [apply](const std::string& value, SqlConf* conf, std::vector<ConfProblem>* warnings) {
            SqlConf scratch = *conf;
            return apply(value, &scratch, warnings);
          },
          std::move(inner.doc)};
}

}  // namespace conf_keys
}  // namespace aqesim
