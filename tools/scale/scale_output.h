// `aqesim scale`'s outputs: the JSON document (docs/user-contract.md, `scale --format json`) and
// the table, each seconds figure with how far it can be trusted (the cost model's band, or
// "profiled": the log's recorded stage profiles; Sparklens' estimate: recorded task times).
#ifndef AQESIM_TOOLS_SCALE_SCALE_OUTPUT_H_
#define AQESIM_TOOLS_SCALE_SCALE_OUTPUT_H_

#include <nlohmann/json.hpp>
#include <string>

#include "tools/scale/scale_runner.h"

namespace aqesim::scale {

/// `subject`: the scenario or event log as given; `log`: an event log (the rows carry
/// sparklensSeconds).
nlohmann::ordered_json ScaleToJson(const ScaleResult& r, const std::string& subject, bool log);
std::string ScaleToTable(const ScaleResult& r, const std::string& subject, bool log);

/// "12.300 s (8.1–54 s)": seconds with the cost model's band, or "12.300 s" when every stage
/// was profiled (no band).
std::string SecondsWithBand(double s, const std::optional<MakespanBand>& band);
/// What the rows' seconds are worth, one sentence without a final period ("every stage timed
/// by the log's recorded profiles ..." or "the cost model's, with its band ...").
std::string TrustText(const ScaleResult& r, bool log);

}  // namespace aqesim::scale

#endif  // AQESIM_TOOLS_SCALE_SCALE_OUTPUT_H_
