#include "models/scenario/collect_limit_reader.h"

#include <limits>

namespace aqesim {

bool IsCollectLimit(const Json& v) {
  return v.is_object() && v.contains("op") && v["op"].is_string() &&
         v["op"].get<std::string>() == "collectLimit";
}

void ReadCollectLimit(const Json& v, const std::string& pointer, CollectLimit* out, DiagnosticSink* sink) {
  CheckFields(v, pointer, {"op", "id", "limit", "rows", "child"}, "a collectLimit", sink);
  constexpr int64_t kMaxRows = int64_t{1} << 53;
  if (!v.contains("limit")) {
    sink->Error(pointer, "missing field \"limit\" (the rows collected: show() takes 21, take(n) n)");
  } else if (auto n = ReadInteger(v["limit"], PointerAppend(pointer, "limit"), 0,
                                  std::numeric_limits<int>::max(), "an integer >= 0 (rows)", sink)) {
    out->limit = *n;
  }
  if (v.contains("rows")) {
    if (auto r = ReadInteger(v["rows"], PointerAppend(pointer, "rows"), 0, kMaxRows, "an integer >= 0 (rows)",
                             sink))
      out->rows = *r;
  }
  if (!v.contains("child"))
    sink->Error(pointer, "missing field \"child\" (the plan whose rows are collected)");
}

}  // namespace aqesim
