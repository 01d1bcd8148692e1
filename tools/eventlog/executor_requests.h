// Dynamic allocation's executor requests, reconstructed from a log, and what they show of the
// cluster manager: each request's start-up latency (the scenario's
// cluster.executorStartSecondsByRequest) and how soon a request is granted
// (cluster.executorGrantSeconds).
//
// The log records registrations (SparkListenerExecutorAdded), not requests. The reconstruction
// runs ExecutorAllocationManager's policy (core/.../ExecutorAllocationManager.scala;
// docs/aqe-behaviour.md §14) over the recorded counts, event by event:
//   tasks      pending (submitted, not launched) and running tasks of the default resource
//              profile's stages, from StageSubmitted, TaskStart / TaskEnd and StageCompleted;
//   maxNeeded  ceil(tasks × executorAllocationRatio ÷ slots per executor)
//              (RecordedApplication::SlotsOf of the first default-profile executor);
//   executors  registered: ExecutorAdded until ExecutorRemoved (the manager counts a killed
//              executor until its removal); live: until it stopped being offered tasks
//              (RecordedApplication::OffersTasksUntilMs);
//   target     starts at max(minExecutors, initialExecutors, spark.executor.instances), those
//              requested at the application's start; drops to max(maxNeeded, minExecutors)
//              when below it (the number to add back to 1); rises, schedulerBacklogTimeout
//              after a stage submission found no timer running and then every
//              sustainedSchedulerBacklogTimeout while tasks still wait (the timer stops when a
//              launch leaves none pending), to min(max(target, registered) + toAdd, maxNeeded,
//              maxExecutors), toAdd doubling while a whole round was added;
//   requests   a rise asks for target − live − outstanding executors (YarnAllocator's missing
//              count), each made at the round's moment.
// Each registration answers the oldest outstanding request (FIFO). A request the target drops
// below is kept outstanding: whether the cluster manager had granted it is what the log
// answers (a later registration) — see ExecutorGrantMs.
#ifndef AQESIM_TOOLS_EVENTLOG_EXECUTOR_REQUESTS_H_
#define AQESIM_TOOLS_EVENTLOG_EXECUTOR_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/eventlog/recorded_application.h"

namespace aqesim::eventlog {

struct ReconstructedRequest {
  int64_t requested_ms = 0;
  bool at_application_start = false;     // one of the initial executors (no round made it)
  std::optional<int64_t> registered_ms;  // the registration answering it, if any
  std::string executor_id;               // its executor, if answered
  /// The earliest moment the target dropped below it while it was outstanding, if any.
  std::optional<int64_t> outlived_drop_ms;
};

/// The requests in order of request (ties: in order of the registrations answering them);
/// empty when spark.dynamicAllocation.enabled is not true, in local mode, or without a
/// default-profile executor.
std::vector<ReconstructedRequest> ReconstructExecutorRequests(const RecordedApplication& app);

/// Request → registration (ms) of the answered requests a round made within [from_ms, to_ms],
/// in order of request: the k-th entry is the k-th request of a selection over that window
/// (cluster.executorStartSecondsByRequest).
std::vector<int64_t> ExecutorStartByRequestMs(const RecordedApplication& app, int64_t from_ms, int64_t to_ms);

/// How soon the cluster manager grants a request, as far as the log shows it: the least time
/// from a request to a drop of the target below it, over the requests answered anyway (the
/// driver cancels only requests not yet granted: YarnAllocator.updateResourceRequests; so each
/// such request was granted within that time). An upper bound; nullopt when no answered request
/// outlived a drop.
std::optional<int64_t> ExecutorGrantMs(const RecordedApplication& app);

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_EXECUTOR_REQUESTS_H_
