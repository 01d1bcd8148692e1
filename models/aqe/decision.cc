#include "models/aqe/decision.h"

#include <cstdio>

namespace aqesim {

std::string FormatBytes(int64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while ((v >= 1024.0 || v <= -1024.0) && u < 5) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  if (u == 0) {
    std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(bytes));
  } else {
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  }
  return buf;
}

std::string Counted(int64_t n, std::string_view singular, std::string_view plural) {
  std::string out = std::to_string(n) + " ";
  if (n == 1)
    out += singular;
  else if (plural.empty())
    out.append(singular).append("s");
  else
    out += plural;
  return out;
}

}  // namespace aqesim
