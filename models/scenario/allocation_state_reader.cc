#include "models/scenario/allocation_state_reader.h"

#include <cmath>
#include <cstddef>

#include "models/scenario/scenario.h"

namespace aqesim {
namespace {

constexpr const char* kSecondsWhat = "a number of seconds in [0, 1e+09]";

bool Seconds(double d) { return std::isfinite(d) && d >= 0 && d <= 1e9; }

/// `v[field]`, when present, into `out`; false after an error.
bool ReadSeconds(const Json& v, const std::string& p, const char* field, double* out, DiagnosticSink* sink) {
  if (!v.contains(field)) return true;
  const std::optional<double> d = ReadNumber(v[field], PointerAppend(p, field), Seconds, kSecondsWhat, sink);
  if (d) *out = *d;
  return d.has_value();
}

bool ReadFlag(const Json& v, const std::string& p, const char* field, bool* out, DiagnosticSink* sink) {
  if (!v.contains(field)) return true;
  const std::optional<bool> b = ReadBool(v[field], PointerAppend(p, field), sink);
  if (b) *out = *b;
  return b.has_value();
}

/// `v[field]`: an array of objects, each read by `read(entry, pointer)`; false after an error.
template <typename Read>
bool ReadEntries(const Json& v, const std::string& p, const char* field, const char* what, Read read,
                 DiagnosticSink* sink) {
  if (!v.contains(field)) return true;
  const Json& a = v[field];
  const std::string q = PointerAppend(p, field);
  if (!a.is_array() || a.size() > static_cast<size_t>(kMaxExecutors)) {
    sink->Error(q, std::string("expected an array (at most ") + std::to_string(kMaxExecutors) + ") of " +
                       what + ", found " + DescribeJson(a));
    return false;
  }
  bool ok = true;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string e = PointerAppend(q, i);
    if (!a[i].is_object()) {
      sink->Error(e, std::string("expected ") + what + ", found " + DescribeJson(a[i]));
      ok = false;
      continue;
    }
    ok = read(a[i], e) && ok;
  }
  return ok;
}

}  // namespace

std::optional<AllocationState> ReadAllocationState(const Json& v, const std::string& p,
                                                   DiagnosticSink* sink) {
  if (!v.is_object()) {
    sink->Error(p,
                "expected an object (target, executors, requests, removing, killsMade, gapSeconds), found " +
                    DescribeJson(v));
    return std::nullopt;
  }
  CheckFields(v, p, {"target", "executors", "requests", "removing", "killsMade", "gapSeconds"},
              "an allocation state", sink);
  AllocationState state;
  bool ok = ReadSeconds(v, p, "gapSeconds", &state.gap_seconds, sink);
  if (v.contains("target")) {
    const std::optional<int64_t> t = ReadInteger(v["target"], PointerAppend(p, "target"), 0, kMaxExecutors,
                                                 "a non-negative integer", sink);
    if (t) state.target = static_cast<int>(*t);
    ok = ok && t.has_value();
  }
  if (v.contains("killsMade")) {
    const std::optional<int64_t> k = ReadInteger(v["killsMade"], PointerAppend(p, "killsMade"), 0,
                                                 1'000'000'000, "a non-negative integer", sink);
    state.kills_made = k;
    ok = ok && k.has_value();
  }
  ok = ReadEntries(
           v, p, "executors", "executors {\"idleSeconds\": s, \"holdsShuffle\": b, \"warm\": b}",
           [&](const Json& e, const std::string& q) {
             CheckFields(e, q, {"idleSeconds", "holdsShuffle", "warm"}, "an executor of an allocation state",
                         sink);
             AllocationState::Executor x;
             const bool good = ReadSeconds(e, q, "idleSeconds", &x.idle_seconds, sink) &
                               ReadFlag(e, q, "holdsShuffle", &x.holds_shuffle, sink) &
                               ReadFlag(e, q, "warm", &x.warm, sink);
             state.executors.push_back(x);
             return good;
           },
           sink) &&
       ok;
  ok = ReadEntries(
           v, p, "requests",
           "requests {\"secondsSinceRequest\": s, \"placed\": b, \"secondsSincePlaced\": s, \"waitsFor\": i, "
           "\"startSeconds\": s}",
           [&](const Json& e, const std::string& q) {
             CheckFields(e, q,
                         {"secondsSinceRequest", "placed", "secondsSincePlaced", "waitsFor", "startSeconds"},
                         "a request of an allocation state", sink);
             AllocationState::Request r;
             bool good = ReadSeconds(e, q, "secondsSinceRequest", &r.seconds_since_request, sink) &
                         ReadFlag(e, q, "placed", &r.placed, sink);
             if (e.contains("secondsSincePlaced"))
               good =
                   ReadSeconds(e, q, "secondsSincePlaced", &r.seconds_since_placed.emplace(), sink) && good;
             if (e.contains("startSeconds"))
               good = ReadSeconds(e, q, "startSeconds", &r.start_seconds.emplace(), sink) && good;
             if (e.contains("waitsFor")) {
               const size_t removing =
                   v.contains("removing") && v["removing"].is_array() ? v["removing"].size() : 0;
               const std::optional<int64_t> w = ReadInteger(
                   e["waitsFor"], PointerAppend(q, "waitsFor"), 0, static_cast<int64_t>(removing) - 1,
                   "an index into removing (" + std::to_string(removing) + " entries)", sink);
               if (w) r.waits_for = static_cast<int>(*w);
               good = good && w.has_value();
             }
             state.requests.push_back(r);
             return good;
           },
           sink) &&
       ok;
  ok = ReadEntries(
           v, p, "removing", "killed executors {\"secondsUntilRemoved\": s}",
           [&](const Json& e, const std::string& q) {
             CheckFields(e, q, {"secondsUntilRemoved"}, "a killed executor of an allocation state", sink);
             AllocationState::Removing r;
             const bool good = ReadSeconds(e, q, "secondsUntilRemoved", &r.seconds_until_removed, sink);
             state.removing.push_back(r);
             return good;
           },
           sink) &&
       ok;
  if (ok && state.executors.size() + state.requests.size() > static_cast<size_t>(kMaxExecutors)) {
    sink->Error(p, "expected at most " + std::to_string(kMaxExecutors) + " executors and requests, found " +
                       std::to_string(state.executors.size() + state.requests.size()));
    ok = false;
  }
  if (!ok) return std::nullopt;
  return state;
}

}  // namespace aqesim
