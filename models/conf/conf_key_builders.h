// Builders of the configuration key table's entries (conf_key_table.h): one per kind of value
// Spark's ConfigBuilder knows (booleanConf, intConf, longConf, bytesConf, doubleConf,
// stringConf), each checking a value as Spark does and writing it to one SqlConf field.
#ifndef AQESIM_MODELS_CONF_CONF_KEY_BUILDERS_H_
#define AQESIM_MODELS_CONF_CONF_KEY_BUILDERS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/conf/conf_key_table.h"
#include "models/conf/property_value.h"

namespace aqesim::conf_keys {

using IntCheck = bool (*)(int64_t);
using DoubleCheck = bool (*)(double);

inline bool Positive(int64_t v) { return v > 0; }
inline bool NonNegative(int64_t v) { return v >= 0; }
inline bool AnyLong(int64_t) { return true; }

/// Appends `info` with its documentation.
inline void Add(std::vector<ConfKeyInfo>* table, ConfKeyInfo info, ConfKeyDoc doc) {
  info.doc = std::move(doc);
  table->push_back(std::move(info));
}

ConfKeyInfo BoolKey(std::string key, bool SqlConf::*field);

/// int or optional<int> fields; `what` describes the valid range ("an integer > 0").
template <typename Field>
ConfKeyInfo IntKey(std::string key, Field SqlConf::*field, IntCheck check, std::string what) {
  return {std::move(key),
          [field, check, what](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
            auto v = ParseInt(value);
            if (!v || !check(*v)) return "expected " + what + FoundValue(value);
            conf->*field = *v;
            return std::string();
          },
          {}};
}

template <typename Field>
ConfKeyInfo LongKey(std::string key, Field SqlConf::*field, IntCheck check, std::string what) {
  return {std::move(key),
          [field, check, what](const std::string& value, SqlConf* conf, std::vector<ConfProblem>*) {
            auto v = ParseLong(value);
            if (!v || !check(*v)) return "expected " + what + FoundValue(value);
            conf->*field = *v;
            return std::string();
          },
          {}};
}

/// Byte sizes (int64_t or optional<int64_t> fields); `field` may be null for keys that are
/// validated but not used. A bare number is in `default_unit_bytes`.
template <typename Field>
ConfKeyInfo BytesKey(std::string key, Field SqlConf::*field, IntCheck check, std::string what,
                     int64_t default_unit_bytes = 1) {
  return {std::move(key),
          [field, check, what, default_unit_bytes](const std::string& value, SqlConf* conf,
                                                   std::vector<ConfProblem>*) {
            const SizeStringResult r = ParseSizeString(value, default_unit_bytes);
            if (!r.ok()) {
              std::string reason = SizeStringErrorReason(r.error);
              return "expected a byte size such as 64m or 1g" + FoundValue(value) +
                     (reason.empty() ? "" : " (" + reason + ")");
            }
            if (!check(r.value)) return "expected " + what + FoundValue(value);
            if (field != nullptr) conf->*field = r.value;
            return std::string();
          },
          {}};
}

ConfKeyInfo DoubleKey(std::string key, double SqlConf::*field, DoubleCheck check, std::string what);

/// A key whose value aqesim accepts as it is and does not use.
ConfKeyInfo StringKey(std::string key);

/// A key Spark deprecated or removed: validated as `inner` and reported with `warning`.
ConfKeyInfo WithWarning(ConfKeyInfo inner, std::string warning);

/// A key Spark 3 ignores: validated as `inner` (with its warnings), the conf left untouched.
ConfKeyInfo Ignored(ConfKeyInfo inner);

}  // namespace aqesim::conf_keys

#endif  // AQESIM_MODELS_CONF_CONF_KEY_BUILDERS_H_
