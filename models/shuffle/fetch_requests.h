// Fetch requests of one shuffle read, formed and sent as Spark's ShuffleBlockFetcherIterator
// does (core/src/main/scala/org/apache/spark/storage/ShuffleBlockFetcherIterator.scala:
// partitionBlocksByFetchMode, collectFetchRequests, createFetchRequests, fetchUpToMaxBytes).
//
// A reduce task reads its non-empty blocks; those of its own executor are local and read
// directly (no request), the others are grouped per address (the executor that wrote them):
//
//   target = max(maxSizeInFlight / 5, 1) bytes        (spark.reducer.maxSizeInFlight, 48m)
//   an address's blocks, in order, are added to the current request until its bytes reach
//   target, or (without batch fetch) it holds maxBlocksInFlightPerAddress blocks; the request
//   is closed there, and the blocks left at the end form the last one. With
//   spark.sql.adaptive.fetchShuffleBlocksInBatch (AQE on), a request's consecutive blocks of
//   one map merge into one block (mergeContinuousShuffleBlockIdsIfNeeded); a request of more
//   merged blocks than maxBlocksInFlightPerAddress is cut into groups of that many, a short
//   last group going back to the current request (unless it is the address's last).
//
// The requests are then sent (fetchUpToMaxBytes): the next one goes out while nothing is in
// flight, or while reqsInFlight + 1 <= maxReqsInFlight and bytesInFlight + its bytes <=
// maxSizeInFlight; a request that would take its address above maxBlocksInFlightPerAddress
// blocks in flight is deferred (sent first as soon as its address allows). Spark shuffles the
// requests (Utils.randomize); here they are taken round-robin over the addresses, in address
// order — deterministic, and as spread as a shuffle is on average.
//
// Rounds: the model sends requests in rounds — a round sends what fetchUpToMaxBytes lets go
// out with nothing in flight (the deferred first), and every request of a round completes
// before the next is sent. The task waits one request latency per round (cost_model.h's
// remoteFetchRequestSeconds); the bytes themselves are timed by the network share. Spark
// sends the next request as each result is taken, so rounds are an approximation of that
// pipeline (exact when the requests are alike).
#ifndef AQESIM_MODELS_SHUFFLE_FETCH_REQUESTS_H_
#define AQESIM_MODELS_SHUFFLE_FETCH_REQUESTS_H_

#include <cstdint>
#include <limits>
#include <vector>

namespace aqesim {

/// Spark's fetch limits (defaults as Spark's).
struct FetchLimits {
  int64_t max_bytes_in_flight = 48LL << 20;                              // spark.reducer.maxSizeInFlight
  int64_t max_reqs_in_flight = std::numeric_limits<int32_t>::max();      // spark.reducer.maxReqsInFlight
  int64_t max_blocks_per_address = std::numeric_limits<int32_t>::max();  // ...maxBlocksInFlightPerAddress
  bool batch = false;  // spark.sql.adaptive.fetchShuffleBlocksInBatch with AQE on
  /// max(maxSizeInFlight / 5, 1): the size at which a request is closed.
  int64_t TargetRequestBytes() const;
};

/// One non-empty shuffle block of an address, in the order Spark lists them (by map, then by
/// reducer: MapOutputTracker's convertMapStatuses).
struct FetchBlock {
  int map = 0;
  int64_t bytes = 0;
};

/// One fetch request: its address, bytes and blocks (merged blocks with batch fetch).
struct FetchRequest {
  int address = 0;
  int64_t bytes = 0;
  int64_t blocks = 0;
};

/// Appends the requests of one address's blocks (the header comment's grouping).
void GroupAddressBlocks(int address, const std::vector<FetchBlock>& blocks, const FetchLimits& limits,
                        std::vector<FetchRequest>* out);

/// Rounds it takes to send `requests` (in sending order; the header comment's rounds); 0 when
/// there are none.
int64_t FetchRounds(const std::vector<FetchRequest>& requests, const FetchLimits& limits);

/// What one address serves a task, summed: its non-empty blocks (merged per map and reducer
/// range with batch fetch, as the engine counts them) and their bytes.
struct AddressFetch {
  int64_t blocks = 0;
  int64_t bytes = 0;
};

/// A task's remote fetch: Spark's requests and the rounds that send them.
struct FetchPlan {
  int64_t requests = 0;
  int64_t rounds = 0;
};

/// The fetch plan of the remote blocks of one read from the summed addresses (one entry per
/// address, in address order; empty ones skipped): each address's blocks taken as alike (its
/// bytes ÷ blocks each, the remainder spread one byte at a time over the first), grouped and
/// sent as above. The engine has sums, not every block; equal to the block-wise grouping when
/// an address's blocks are alike. Requests are interleaved round-robin over the addresses.
FetchPlan PlanRemoteFetch(const std::vector<AddressFetch>& addresses, const FetchLimits& limits);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_FETCH_REQUESTS_H_
