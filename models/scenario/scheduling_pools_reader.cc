#include "models/scenario/scheduling_pools_reader.h"

#include <algorithm>
#include <cctype>

namespace aqesim {

void ReadSchedulingPools(const Json& v, const std::string& pointer, std::map<std::string, PoolSpec>* out,
                         DiagnosticSink* sink) {
  if (!v.is_object() || v.size() > 10'000) {
    sink->Error(pointer,
                "expected an object (at most 10000) of pools by name {\"default\": {\"schedulingMode\": "
                "\"FAIR\", \"weight\": 1, \"minShare\": 0}}, found " +
                    DescribeJson(v));
    return;
  }
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string q = PointerAppend(pointer, it.key());
    const Json& e = it.value();
    if (it.key().empty()) {
      sink->Error(q, "expected a pool name, found an empty one");
      continue;
    }
    if (!e.is_object()) {
      sink->Error(q,
                  "expected a pool {\"schedulingMode\", \"weight\", \"minShare\"}, found " + DescribeJson(e));
      continue;
    }
    CheckFields(e, q, {"schedulingMode", "weight", "minShare"}, "a scheduling pool", sink);
    PoolSpec pool;
    pool.name = it.key();
    bool ok = true;
    if (e.contains("schedulingMode")) {
      std::string mode = e["schedulingMode"].is_string() ? e["schedulingMode"].get<std::string>() : "";
      std::transform(mode.begin(), mode.end(), mode.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      if (mode == "FAIR" || mode == "FIFO") {
        pool.mode = mode == "FAIR" ? SchedulingMode::kFair : SchedulingMode::kFifo;
      } else {
        sink->Error(PointerAppend(q, "schedulingMode"),
                    "expected \"FIFO\" or \"FAIR\", found " + DescribeJson(e["schedulingMode"]));
        ok = false;
      }
    }
    for (auto [name, field] : {std::pair{"weight", &pool.weight}, {"minShare", &pool.min_share}}) {
      if (!e.contains(name)) continue;
      if (auto n = ReadInteger(e[name], PointerAppend(q, name), 0, 1'000'000, "an integer >= 0", sink))
        *field = static_cast<int>(*n);
      else
        ok = false;
    }
    if (ok) (*out)[pool.name] = pool;
  }
}

}  // namespace aqesim
