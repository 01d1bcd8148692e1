#include "models/scenario/cluster_reader.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>

#include "models/scenario/allocation_state_reader.h"
#include "models/scenario/resource_profiles_reader.h"

namespace aqesim {

namespace {

const std::vector<std::string> kClusterFields = {"executors",
                                                 "executorCores",
                                                 "executorMemory",
                                                 "networkBytesPerSecond",
                                                 "diskBytesPerSecond",
                                                 "driverNetworkBytesPerSecond",
                                                 "driverMemory",
                                                 "executorTimeline",
                                                 "warmExecutors",
                                                 "warmCodeExecutors",
                                                 "executorGpus",
                                                 "resourceProfiles",
                                                 "executorLaunchSeconds",
                                                 "executorStartSeconds",
                                                 "executorStartSecondsByRequest",
                                                 "storageBytesPerSecond",
                                                 "driverSecondsPerTask",
                                                 "driverSecondsPerStage",
                                                 "executorGrantSeconds",
                                                 "executorRemoveSeconds",
                                                 "executorRemoveSecondsByKill",
                                                 "executorKillsBeforeStart",
                                                 "executorCapacity",
                                                 "allocationAtStart",
                                                 "startsApplication"};

constexpr double kMaxTimelineSeconds = 1e9;
constexpr const char* kTimelineSecondsWhat = "a number of seconds in [-1e+09, 1e+09]";

// `executorTimeline`: [{"add": s, "remove": s}, ...], seconds from the start; "add" required
// (<= 0: present from the start), "remove" optional and later than "add". At least one
// executor must never be removed, so that every task finds a slot eventually.
void ReadExecutorTimeline(const Json& v, const std::string& p, ClusterSpec* cluster, DiagnosticSink* sink) {
  if (!v.is_array() || v.empty() || v.size() > 1'000'000) {
    sink->Error(p,
                "expected a non-empty array (at most 1000000) of executors {\"add\": seconds, \"remove\": "
                "seconds}, found " +
                    DescribeJson(v));
    return;
  }
  std::vector<ExecutorLifetime> out;
  bool ok = true, one_stays = false;
  // Seconds from the start, within 10^9 (31 years): beyond, a simulated time is no time.
  auto within = [](double d) { return std::isfinite(d) && std::fabs(d) <= kMaxTimelineSeconds; };
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string q = PointerAppend(p, i);
    const Json& e = v[i];
    if (!e.is_object()) {
      sink->Error(q,
                  "expected an executor {\"add\": seconds, \"remove\": seconds}, found " + DescribeJson(e));
      ok = false;
      continue;
    }
    CheckFields(e, q, {"add", "remove", "warm", "warmCode", "resourceProfile", "idleSeconds"},
                "an executor of the timeline", sink);
    ExecutorLifetime life;
    if (!e.contains("add")) {
      sink->Error(q, "missing field \"add\" (seconds from the start at which the executor registers)");
      ok = false;
    } else if (auto a = ReadNumber(e["add"], PointerAppend(q, "add"), within, kTimelineSecondsWhat, sink)) {
      life.add_seconds = *a;
    } else {
      ok = false;
    }
    if (e.contains("remove")) {
      const double add = life.add_seconds;
      if (auto r = ReadNumber(
              e["remove"], PointerAppend(q, "remove"), [&](double d) { return within(d) && d > add; },
              "a number of seconds in [-1e+09, 1e+09] later than \"add\" (" + Json(add).dump() + ")", sink)) {
        life.remove_seconds = *r;
      } else {
        ok = false;
      }
    } else {
      one_stays = true;
    }
    if (e.contains("warm")) {
      if (auto w = ReadBool(e["warm"], PointerAppend(q, "warm"), sink))
        life.warm = *w;
      else
        ok = false;
    }
    if (e.contains("warmCode")) {
      if (auto w = ReadBool(e["warmCode"], PointerAppend(q, "warmCode"), sink))
        life.warm_code = *w;
      else
        ok = false;
    }
    if (e.contains("idleSeconds")) {
      if (auto idle = ReadNumber(
              e["idleSeconds"], PointerAppend(q, "idleSeconds"), [](double d) { return d >= 0 && d <= 1e9; },
              "a number of seconds in [0, 1e+09]", sink))
        life.idle_seconds = *idle;
      else
        ok = false;
    }
    if (e.contains("resourceProfile")) {
      const std::string r = PointerAppend(q, "resourceProfile");
      auto id =
          ReadInteger(e["resourceProfile"], r, 0, 100'000, "a resource profile id (0: the default)", sink);
      if (id && (*id == 0 || cluster->profile(static_cast<int>(*id)) != nullptr)) {
        life.resource_profile = static_cast<int>(*id);
      } else {
        if (id)
          sink->Error(r, "expected 0 or an id of /cluster/resourceProfiles, found " + std::to_string(*id));
        ok = false;
      }
    }
    out.push_back(life);
  }
  if (ok && !one_stays) {
    sink->Error(
        p,
        "expected at least one executor without \"remove\" (tasks would wait forever once all are gone), "
        "found every executor removed");
    ok = false;
  }
  if (ok) cluster->executor_timeline = std::move(out);
}

}  // namespace

int PeakExecutors(const std::vector<ExecutorLifetime>& timeline) {
  std::vector<std::pair<double, int>> events;
  for (const ExecutorLifetime& e : timeline) {
    events.emplace_back(std::max(0.0, e.add_seconds), +1);
    if (e.remove_seconds) events.emplace_back(std::max(0.0, *e.remove_seconds), -1);
  }
  std::sort(events.begin(), events.end());
  int live = 0, peak = 0;
  for (const auto& [t, d] : events) {
    live += d;
    peak = std::max(peak, live);
  }
  return std::max(peak, 1);
}

ClusterGiven ReadCluster(const Json& v, ClusterSpec* cluster, DiagnosticSink* sink) {
  ClusterGiven given;
  const std::string p = "/cluster";
  if (!v.is_object()) {
    sink->Error(p, "expected an object (executors, executorCores, ...), found " + DescribeJson(v));
    return given;
  }
  CheckFields(v, p, kClusterFields, "cluster", sink);
  auto field = [&](const char* name) { return PointerAppend(p, name); };
  if (v.contains("executors")) {
    given.executors = true;
    if (auto n = ReadInteger(v["executors"], field("executors"), 1, 1'000'000, "a positive integer", sink))
      cluster->executors = static_cast<int>(*n);
  }
  if (v.contains("executorCores")) {
    given.cores = true;
    if (auto n =
            ReadInteger(v["executorCores"], field("executorCores"), 1, 100'000, "a positive integer", sink))
      cluster->executor_cores = static_cast<int>(*n);
  }
  const ByteCountOptions positive{.allow_string = true, .positive = true};
  auto bytes = [&](const char* name, int64_t* out) {
    if (!v.contains(name)) return false;
    if (auto b = ReadByteCount(v[name], field(name), positive, sink)) *out = *b;
    return true;
  };
  given.memory = bytes("executorMemory", &cluster->executor_memory_bytes);
  bytes("networkBytesPerSecond", &cluster->network_bytes_per_second);
  bytes("diskBytesPerSecond", &cluster->disk_bytes_per_second);
  bytes("driverNetworkBytesPerSecond", &cluster->driver_network_bytes_per_second);
  bytes("driverMemory", &cluster->driver_memory_bytes);
  if (int64_t storage = 0; bytes("storageBytesPerSecond", &storage) && storage > 0)
    cluster->storage_bytes_per_second = storage;
  if (v.contains("warmExecutors")) {
    if (auto n = ReadInteger(v["warmExecutors"], field("warmExecutors"), 0, 1'000'000,
                             "a non-negative integer", sink))
      cluster->warm_executors = static_cast<int>(*n);
  }
  if (v.contains("warmCodeExecutors")) {
    if (auto n = ReadInteger(v["warmCodeExecutors"], field("warmCodeExecutors"), 0, 1'000'000,
                             "a non-negative integer", sink))
      cluster->warm_code_executors = static_cast<int>(*n);
  }
  if (v.contains("executorKillsBeforeStart")) {
    if (auto n = ReadInteger(v["executorKillsBeforeStart"], field("executorKillsBeforeStart"), 0,
                             1'000'000'000, "a non-negative integer", sink))
      cluster->executor_kills_before_start = *n;
  }
  if (v.contains("executorGpus")) {
    if (auto n =
            ReadInteger(v["executorGpus"], field("executorGpus"), 0, 100'000, "a non-negative integer", sink))
      cluster->executor_gpus = static_cast<int>(*n);
  }
  // Executor start-up latencies and the driver's costs: seconds in [0, 3600] ([0, 60] per task).
  for (auto [name, dest, most] :
       {std::tuple{"executorLaunchSeconds", &cluster->executor_launch_seconds, 3600.0},
        std::tuple{"executorStartSeconds", &cluster->executor_start_seconds, 3600.0},
        std::tuple{"executorRemoveSeconds", &cluster->executor_remove_seconds, 3600.0},
        std::tuple{"driverSecondsPerTask", &cluster->driver_seconds_per_task, 60.0},
        std::tuple{"driverSecondsPerStage", &cluster->driver_seconds_per_stage, 3600.0}}) {
    if (!v.contains(name)) continue;
    const double limit = most;  // (a structured binding cannot be captured: clang)
    if (auto d = ReadNumber(
            v[name], field(name), [limit](double x) { return std::isfinite(x) && x >= 0 && x <= limit; },
            most > 60 ? "a number of seconds in [0, 3600]" : "a number of seconds in [0, 60]", sink))
      *dest = *d;
  }
  // Per-request start-up and per-kill removal latencies: arrays of seconds in [0, 3600].
  for (auto [name, dest] :
       {std::pair{"executorStartSecondsByRequest", &cluster->executor_start_seconds_by_request},
        std::pair{"executorRemoveSecondsByKill", &cluster->executor_remove_seconds_by_kill}}) {
    if (!v.contains(name)) continue;
    const Json& by = v[name];
    if (!by.is_array() || by.size() > 1'000'000) {
      sink->Error(field(name),
                  "expected an array (at most 1000000) of seconds in [0, 3600], found " + DescribeJson(by));
      continue;
    }
    for (size_t i = 0; i < by.size(); ++i) {
      if (auto d = ReadNumber(
              by[i], PointerAppend(field(name), i),
              [](double x) { return std::isfinite(x) && x >= 0 && x <= 3600; },
              "a number of seconds in [0, 3600]", sink))
        dest->push_back(*d);
    }
  }
  if (v.contains("executorGrantSeconds")) {
    cluster->executor_grant_seconds = ReadNumber(
        v["executorGrantSeconds"], field("executorGrantSeconds"),
        [](double x) { return std::isfinite(x) && x >= 0 && x <= 3600; }, "a number of seconds in [0, 3600]",
        sink);
  }
  if (v.contains("executorCapacity")) {
    if (auto n = ReadInteger(v["executorCapacity"], field("executorCapacity"), 1, kMaxExecutors,
                             "a positive integer", sink))
      cluster->executor_capacity = static_cast<int>(*n);
  }
  if (v.contains("allocationAtStart"))
    cluster->allocation_at_start =
        ReadAllocationState(v["allocationAtStart"], field("allocationAtStart"), sink);
  if (v.contains("startsApplication"))
    cluster->starts_application = ReadBool(v["startsApplication"], field("startsApplication"), sink);
  // Profiles first: the timeline's entries refer to them.
  if (v.contains("resourceProfiles"))
    ReadResourceProfiles(v["resourceProfiles"], field("resourceProfiles"), &cluster->resource_profiles, sink);
  if (v.contains("executorTimeline"))
    ReadExecutorTimeline(v["executorTimeline"], field("executorTimeline"), cluster, sink);
  return given;
}

}  // namespace aqesim
