// The scenario's `cluster.allocationAtStart` (models/cluster/allocation_state.h):
//   {"target": 4, "gapSeconds": 15.2,
//    "executors": [{"idleSeconds": 1.5, "holdsShuffle": true, "warm": true}, ...],
//    "requests": [{"secondsSinceRequest": 3.0}, ...],  (with executorCapacity also "placed": false,
//                 "secondsSincePlaced": 1.0, "waitsFor": 0: an index into removing)
//    "removing": [{"secondsUntilRemoved": 4.5}, ...],
//    "killsMade": 5}  (the index of the next kill into cluster.executorRemoveSecondsByKill)
// Every field optional (default 0 / false / empty); at most kMaxExecutors executors plus
// requests; seconds in [0, 1e9].
#ifndef AQESIM_MODELS_SCENARIO_ALLOCATION_STATE_READER_H_
#define AQESIM_MODELS_SCENARIO_ALLOCATION_STATE_READER_H_

#include <optional>
#include <string>

#include "models/cluster/allocation_state.h"
#include "models/scenario/json_reader.h"

namespace aqesim {

/// Reads an AllocationState at `pointer`; nullopt (problems in `sink`) when it is not one.
std::optional<AllocationState> ReadAllocationState(const Json& v, const std::string& pointer,
                                                   DiagnosticSink* sink);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_ALLOCATION_STATE_READER_H_
