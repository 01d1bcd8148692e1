#include "tools/sweep/grid_value_key.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "models/conf/property_value.h"

namespace aqesim::sweep {

std::string GridValueKey(const std::string& v) {
  // Appended, not "lit" + std::string (GCC 12's -Wrestrict misfires on that).
  std::string out;
  if (const std::optional<int64_t> b = ParseByteString(v)) {
    out.push_back('#');
    out.append(std::to_string(*b));
    return out;
  }
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (!v.empty() && end && *end == '\0') {
    char buf[40];
    std::snprintf(buf, sizeof buf, "#%.17g", d);
    return buf;
  }
  // Spark reads a boolean case-insensitively and trimmed (ConfigHelpers.toBoolean): "TRUE" is true.
  const std::string lower = Lower(Trim(v));
  if (lower == "true" || lower == "false") {
    out.push_back('?');
    out.append(lower);
    return out;
  }
  out.push_back('\'');
  out.append(v);
  return out;
}

}  // namespace aqesim::sweep
