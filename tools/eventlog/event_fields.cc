#include "tools/eventlog/event_fields.h"

#include <cmath>
#include <limits>

#include "models/conf/property_value.h"

namespace aqesim::eventlog {

using nlohmann::json;

std::optional<int64_t> AsInt(const json& v) {
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (!(d > -9.2e18 && d < 9.2e18)) return std::nullopt;  // NaN, or beyond int64
    return static_cast<int64_t>(d);
  }
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    const size_t digits = !s.empty() && s[0] == '-' ? 1 : 0;
    if (s.size() == digits || s.find_first_not_of("0123456789", digits) != std::string::npos)
      return std::nullopt;
    return ParseLong(s);
  }
  return std::nullopt;
}

int64_t IntField(const json& obj, const char* key, int64_t fallback) {
  if (!obj.is_object()) return fallback;
  auto it = obj.find(key);
  if (it == obj.end()) return fallback;
  return AsInt(*it).value_or(fallback);
}

std::optional<int64_t> OptIntField(const json& obj, const char* key) {
  if (!obj.is_object()) return std::nullopt;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  return AsInt(*it);
}

std::optional<double> OptDoubleField(const json& obj, const char* key) {
  if (!obj.is_object()) return std::nullopt;
  auto it = obj.find(key);
  if (it == obj.end()) return std::nullopt;
  if (it->is_number()) {
    const double d = it->get<double>();
    return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
  }
  if (auto i = AsInt(*it)) return static_cast<double>(*i);
  return std::nullopt;
}

std::string StringField(const json& obj, const char* key) {
  if (!obj.is_object()) return "";
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

bool BoolField(const json& obj, const char* key) {
  if (!obj.is_object()) return false;
  auto it = obj.find(key);
  return it != obj.end() && it->is_boolean() && it->get<bool>();
}

const json& Field(const json& obj, const char* key) {
  static const json kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

}  // namespace aqesim::eventlog
