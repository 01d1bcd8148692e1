// Reading the fields of a SparkListener event (core/.../util/JsonProtocol.scala writes them)
// leniently: a missing field, or one of another type, gives the fallback, never an exception;
// a number beyond int64 is refused rather than wrapped.
#ifndef AQESIM_TOOLS_EVENTLOG_EVENT_FIELDS_H_
#define AQESIM_TOOLS_EVENTLOG_EVENT_FIELDS_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace aqesim::eventlog {

/// Integer value of a JSON number (a fraction truncated) or of a string of decimal digits
/// with an optional '-'; nullopt otherwise, and for values beyond int64.
std::optional<int64_t> AsInt(const nlohmann::json& v);
/// obj[key] as an integer (AsInt); `fallback` when absent or not one.
int64_t IntField(const nlohmann::json& obj, const char* key, int64_t fallback = 0);
/// obj[key] as an integer; nullopt when absent, null or not one.
std::optional<int64_t> OptIntField(const nlohmann::json& obj, const char* key);
/// obj[key] as a finite number (a JSON number, or a numeric string); nullopt otherwise.
std::optional<double> OptDoubleField(const nlohmann::json& obj, const char* key);
/// obj[key] when it is a string, else "".
std::string StringField(const nlohmann::json& obj, const char* key);
/// obj[key] when it is a boolean, else false.
bool BoolField(const nlohmann::json& obj, const char* key);
/// obj[key], or a null value when `obj` is no object or has no such key.
const nlohmann::json& Field(const nlohmann::json& obj, const char* key);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_EVENT_FIELDS_H_
