#include "models/scenario/cluster_from_conf.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "models/scenario/allocation_from_timeline.h"

namespace aqesim {
namespace {

bool FromCommandLine(const ConfOrigin& o) { return o.origin != ProblemOrigin::kDocument; }

/// Where a value came from, for messages: "--conf KEY=V", "FILE line N" or "FILE /conf/KEY".
std::string Place(const ConfOrigin& o) {
  return o.origin == ProblemOrigin::kCommandLine ? o.file : o.file + " " + o.location;
}

/// True when `a` was given after `b`: the command line (a later --conf after an earlier one)
/// after a properties file after the scenario's conf — the what-if that broke a rule.
bool GivenLater(const ConfOrigin& a, const ConfOrigin& b) {
  return a.origin != b.origin ? a.origin > b.origin
                              : a.origin != ProblemOrigin::kDocument && a.position > b.position;
}

class Reconciler {
 public:
  Reconciler(const ConfEntries& conf, Scenario* s, DiagnosticSink* sink) : conf_(conf), s_(*s), sink_(sink) {}

  /// One cluster field against its Spark key.
  template <typename T>
  void Field(bool given, const char* field, const char* key, std::optional<T> conf_value, T* cluster_value) {
    if (!conf_value) return;
    const ConfOrigin& origin = conf_.at(key).second;
    if (!given || FromCommandLine(origin)) {
      *cluster_value = static_cast<T>(*conf_value);
    } else if (*conf_value != *cluster_value) {
      AddProblem(sink_, true, origin,
                 std::string(key) + " (" + std::to_string(*conf_value) + ") contradicts /cluster/" + field +
                     " (" + std::to_string(*cluster_value) + "): give one of them");
    }
  }

  /// The first command-line spark.executor.instances or spark.dynamicAllocation.* key, if any.
  const ConfOrigin* AskedOnCommandLine() const {
    for (const auto& [key, entry] : conf_) {
      const bool relevant =
          key == "spark.executor.instances" || key.rfind("spark.dynamicAllocation.", 0) == 0;
      if (relevant && FromCommandLine(entry.second)) return &entry.second;
    }
    return nullptr;
  }

  /// A recorded selection without a timeline (its executors did not change while it ran) that
  /// does not start its application, under a command-line dynamic-allocation what-if: the
  /// policy starts from its `executors`, alive at its start, as allocation_from_timeline.h does
  /// from a timeline (warm code first, then warm JVMs; idle 0: not recorded here).
  void StartPolicyFromStaticCluster(bool dynamic) {
    ClusterSpec& c = s_.cluster;
    if (!dynamic || !c.executor_timeline.empty() || c.allocation_at_start || c.starts_application != false)
      return;
    const ConfOrigin* asked = AskedOnCommandLine();
    if (asked == nullptr) return;
    std::vector<ExecutorLifetime> present(static_cast<size_t>(c.executors));
    for (int e = 0; e < c.executors; ++e) {
      present[static_cast<size_t>(e)].warm_code = e < c.warm_code_executors;
      present[static_cast<size_t>(e)].warm = e < c.warm_executors;
    }
    int warm = 0, warm_code = 0;
    c.allocation_at_start =
        AllocationAtSelectionStart(present, false, s_.conf.dynamic_allocation, &warm_code, &warm);
    c.warm_executors = warm;
    c.warm_code_executors = warm_code;
    sink_->Warning("/cluster/executors",
                   Place(*asked) + ": Spark's dynamic allocation policy starts from the " +
                       std::to_string(c.allocation_at_start->executors.size()) +
                       " executors alive at the selection's start (the application's allocation manager does "
                       "not restart per query), not from initialExecutors; " +
                       std::to_string(warm) + " of them keep their warm JVMs");
  }

  /// A command-line spark.executor.instances or spark.dynamicAllocation.* on a recorded timeline.
  void ReplaceTimelineIfAsked(bool dynamic) {
    ClusterSpec& c = s_.cluster;
    if (c.executor_timeline.empty()) return;
    const ConfOrigin* asked = AskedOnCommandLine();
    if (asked == nullptr) return;
    const size_t recorded = c.executor_timeline.size();
    const std::string replaced = Place(*asked) + " replaces the recorded executor timeline (" +
                                 std::to_string(recorded) + " executors) with ";
    if (dynamic && c.allocation_at_start) {  // where the application stood: that state says which are warm
      c.executor_timeline.clear();
      c.warm_executors = 0;
      c.warm_code_executors = 0;
      sink_->Warning(
          "/cluster/executorTimeline",
          replaced + "Spark's dynamic allocation policy, which starts from /cluster/allocationAtStart");
      return;
    }
    if (dynamic) {
      // The application's allocation manager does not restart per query: the policy starts from
      // the executors registered at the selection's start, unless it starts the application.
      int warm = 0, warm_code = 0;
      c.allocation_at_start = AllocationAtSelectionStart(c.executor_timeline, c.starts_application,
                                                         s_.conf.dynamic_allocation, &warm_code, &warm);
      c.executor_timeline.clear();
      c.warm_executors = warm;
      c.warm_code_executors = warm_code;
      std::string how;
      if (c.allocation_at_start) {
        const size_t alive = c.allocation_at_start->executors.size();
        how = "Spark's dynamic allocation policy, started from the " + std::to_string(alive) +
              (alive == 1 ? " executor" : " executors") +
              " alive at the selection's start (the application's allocation manager does not restart per "
              "query" +
              (alive == 0 ? std::string(")") : "; their idle times kept)") + ", not from initialExecutors";
        if (alive > 0) how += "; " + std::to_string(warm) + " of them keep their warm JVMs";
        if (!c.allocation_at_start->requests.empty())
          how += "; " + std::to_string(c.allocation_at_start->requests.size()) +
                 " more requested at the start for minExecutors";
      } else {
        how = "Spark's dynamic allocation policy from the application's start (" +
              std::to_string(s_.conf.dynamic_allocation.InitialExecutors(s_.conf.executor_instances)) +
              " initial executors: the selection starts the application)";
      }
      sink_->Warning("/cluster/executorTimeline", replaced + how);
      return;
    }
    int warm = 0, warm_code = 0;
    for (const ExecutorLifetime& e : c.executor_timeline) {
      if (e.add_seconds > 0) continue;
      warm += e.warm || e.warm_code;
      warm_code += e.warm_code;
    }
    c.executor_timeline.clear();
    c.warm_executors = warm;
    c.warm_code_executors = warm_code;
    c.executors = s_.conf.executor_instances.value_or(c.executors);
    sink_->Warning("/cluster/executorTimeline", replaced + std::to_string(c.executors) +
                                                    " executors from the start; " + std::to_string(warm) +
                                                    " of them keep the warm JVMs of the executors present at "
                                                    "the start");
  }

  /// `low_key` (value `low`) above `high_key` (`high`), which Spark refuses: an error at the
  /// place of the one given later (the what-if that broke the rule; given together, `low_key`,
  /// the subject of Spark's message), naming the other's value and place.
  void OrderedPair(const std::string& low_key, int low, const std::string& high_key, int high,
                   const std::string& why) {
    const ConfOrigin& low_origin = conf_.at(low_key).second;
    const ConfOrigin& high_origin = conf_.at(high_key).second;
    if (GivenLater(high_origin, low_origin)) {
      AddProblem(sink_, true, high_origin,
                 "expected " + high_key + " >= " + low_key + " (" + std::to_string(low) + ", from " +
                     Place(low_origin) + "), found " + std::to_string(high) + why);
    } else {
      AddProblem(sink_, true, low_origin,
                 "expected " + low_key + " <= " + high_key + " (" + std::to_string(high) + ", from " +
                     Place(high_origin) + "), found " + std::to_string(low) + why);
    }
  }

  /// The first target, max(minExecutors, initialExecutors, spark.executor.instances), above
  /// maxExecutors: Spark's YARN and Kubernetes schedulers refuse to start
  /// (SchedulerBackendUtils.getInitialTargetExecutorNumber). An initialExecutors or
  /// spark.executor.instances below minExecutors is ignored with a warning, as
  /// Utils.getDynamicAllocationInitialExecutors logs it (not when the policy starts from the
  /// executors alive at the selection's start, or a recorded timeline replays: no initial target).
  void InitialWithinBounds(const DynamicAllocationConf& d) {
    const std::string min_key = "spark.dynamicAllocation.minExecutors";
    const std::optional<int>& instances = s_.conf.executor_instances;
    const bool starts_from_initial = !s_.cluster.allocation_at_start && s_.cluster.executor_timeline.empty();
    for (const auto& [key, value] :
         {std::pair{"spark.dynamicAllocation.initialExecutors", d.initial_executors},
          std::pair{"spark.executor.instances", instances}}) {
      if (!starts_from_initial || !value || *value >= d.min_executors) continue;
      const ConfOrigin& min_origin = conf_.at(min_key).second;
      AddProblem(sink_, false, conf_.at(key).second,
                 std::string(key) + " (" + std::to_string(*value) + ") is below " + min_key + " (" +
                     std::to_string(d.min_executors) + ", from " + Place(min_origin) +
                     "): Spark ignores it and starts with minExecutors");
    }
    if (!d.max_executors || d.min_executors > *d.max_executors) return;
    const int initial = d.InitialExecutors(instances);
    if (initial <= *d.max_executors) return;
    const bool by_initial = d.initial_executors == initial;
    OrderedPair(by_initial ? "spark.dynamicAllocation.initialExecutors" : "spark.executor.instances", initial,
                "spark.dynamicAllocation.maxExecutors", *d.max_executors,
                " (the initial executors are the most of minExecutors, initialExecutors and "
                "spark.executor.instances: Spark's YARN and Kubernetes schedulers refuse to start more than "
                "maxExecutors)");
  }

  /// Settings Spark refuses when it starts the ExecutorAllocationManager.
  void CheckDynamicAllocation() {
    const DynamicAllocationConf& d = s_.conf.dynamic_allocation;
    const ConfOrigin& enabled = conf_.at("spark.dynamicAllocation.enabled").second;
    if (s_.conf.master.local) {
      AddProblem(sink_, false, enabled, "dynamic allocation is off in local mode (Spark ignores it there)");
      return;
    }
    if (d.max_executors && d.min_executors > *d.max_executors) {
      OrderedPair("spark.dynamicAllocation.minExecutors", d.min_executors,
                  "spark.dynamicAllocation.maxExecutors", *d.max_executors, " (Spark refuses to start)");
    }
    InitialWithinBounds(d);
    if (!d.shuffle_service_enabled && !d.shuffle_tracking_enabled) {
      AddProblem(sink_, true, enabled,
                 "dynamic allocation needs spark.shuffle.service.enabled or "
                 "spark.dynamicAllocation.shuffleTracking.enabled (Spark refuses to start without either)");
    }
    const int initial = d.InitialExecutors(s_.conf.executor_instances);
    if (initial > kMaxExecutors) {
      AddProblem(sink_, true, enabled,
                 "expected at most " + std::to_string(kMaxExecutors) + " initial executors, found " +
                     std::to_string(initial) +
                     " (max of minExecutors, initialExecutors, spark.executor.instances)");
    }
  }

 private:
  const ConfEntries& conf_;
  Scenario& s_;
  DiagnosticSink* sink_;
};

}  // namespace

void ReconcileClusterWithConf(const ClusterGiven& given, const ConfEntries& conf, Scenario* scenario,
                              DiagnosticSink* sink) {
  ClusterSpec& cluster = scenario->cluster;
  const SqlConf& sc = scenario->conf;
  const bool dynamic = sc.dynamic_allocation.enabled && !sc.master.local;
  Reconciler r(conf, scenario, sink);
  r.StartPolicyFromStaticCluster(dynamic);
  r.ReplaceTimelineIfAsked(dynamic);
  if (sc.dynamic_allocation.enabled) r.CheckDynamicAllocation();  // local mode: a warning only
  // Under dynamic allocation spark.executor.instances is a floor of the initial executors.
  // 0 executors with dynamic allocation off run nothing (a 0-second job): refused whether the 0
  // is the scenario's or the command line's (which wins over /cluster/executors).
  if (!dynamic && sc.executor_instances && *sc.executor_instances == 0 &&
      (!given.executors || FromCommandLine(conf.at("spark.executor.instances").second))) {
    AddProblem(sink, true, conf.at("spark.executor.instances").second,
               "expected at least one executor (0 needs spark.dynamicAllocation.enabled), found \"0\"");
  } else if (!dynamic) {
    r.Field(given.executors, "executors", "spark.executor.instances", sc.executor_instances,
            &cluster.executors);
  }
  if (!cluster.executor_timeline.empty() && !given.executors && !sc.executor_instances)
    cluster.executors = PeakExecutors(cluster.executor_timeline);
  r.Field(given.cores, "executorCores", "spark.executor.cores", sc.executor_cores, &cluster.executor_cores);
  r.Field(given.memory, "executorMemory", "spark.executor.memory", sc.executor_memory_bytes,
          &cluster.executor_memory_bytes);
  // Spark refuses to start an executor with less than 1.5 × its 300 MiB reserved memory
  // (core/.../memory/UnifiedMemoryManager.scala getMaxMemory: "Executor memory ... must be at least").
  constexpr int64_t kMinExecutorMemory = 450LL << 20;
  if (!sc.master.local && cluster.executor_memory_bytes < kMinExecutorMemory) {
    const std::string what =
        "expected at least 450 MiB (471859200 bytes: Spark's executors reserve 300 MiB and "
        "need 1.5 × that), found " +
        std::to_string(cluster.executor_memory_bytes) + " bytes";
    if (auto it = conf.find("spark.executor.memory"); it != conf.end())
      AddProblem(sink, true, it->second.second, what);
    else
      sink->Error("/cluster/executorMemory", what);
  }
  if (cluster.executor_timeline.empty()) {
    for (auto [field, n] : {std::pair<const char*, int>{"warmExecutors", cluster.warm_executors},
                            std::pair<const char*, int>{"warmCodeExecutors", cluster.warm_code_executors}}) {
      if (n > cluster.executors && !dynamic) {
        sink->Warning(
            PointerAppend("/cluster", field),
            std::string(field) + " (" + std::to_string(n) + ") is more than the cluster's " +
                std::to_string(cluster.executors) +
                (cluster.executors == 1 ? " executor: it starts warm" : " executors: every one starts warm"));
      }
    }
  }
}

}  // namespace aqesim
