// The fetch model (models/shuffle/fetch_requests.h) against Spark's ShuffleBlockFetcherIterator
// rules, on small cases computed by hand.
#include "models/shuffle/fetch_requests.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace aqesim {
namespace {

constexpr int64_t kMiB = 1LL << 20;

/// "address:bytes/blocks" of each request.
std::string Describe(const std::vector<FetchRequest>& requests) {
  std::string s;
  for (const FetchRequest& r : requests) {
    if (!s.empty()) s += ' ';
    s += std::to_string(r.address) + ':' + std::to_string(r.bytes) + '/' + std::to_string(r.blocks);
  }
  return s;
}

std::vector<FetchRequest> Group(const std::vector<FetchBlock>& blocks, const FetchLimits& limits) {
  std::vector<FetchRequest> out;
  GroupAddressBlocks(0, blocks, limits, &out);
  return out;
}

TEST_CASE("FetchRequests: a request closes once its bytes reach maxSizeInFlight / 5", "[shuffle][fetch]") {
  const FetchLimits limits;  // 48m: target 50331648 / 5 = 10066329 B
  CHECK(limits.TargetRequestBytes() == 10066329);
  // 6 + 6 MiB = 12 MiB >= 9.6 MiB closes the first request; the 6 + 1 MiB left form the last.
  CHECK(Describe(Group({{0, 6 * kMiB}, {1, 6 * kMiB}, {2, 6 * kMiB}, {3, 1 * kMiB}}, limits)) ==
        "0:12582912/2 0:7340032/2");
  // One block above the target is a request of its own.
  CHECK(Describe(Group({{0, 20 * kMiB}, {1, 10}}, limits)) == "0:20971520/1 0:10/1");
  FetchLimits tiny;
  tiny.max_bytes_in_flight = 0;  // target max(0 / 5, 1) = 1 B: one block a request
  CHECK(Describe(Group({{0, 5}, {1, 5}}, tiny)) == "0:5/1 0:5/1");
}

TEST_CASE("FetchRequests: maxBlocksInFlightPerAddress caps a request's blocks", "[shuffle][fetch]") {
  FetchLimits limits;
  limits.max_blocks_per_address = 2;
  // Without batch fetch: closed at 2 blocks however small.
  CHECK(Describe(Group({{0, 10}, {1, 10}, {2, 10}, {3, 10}, {4, 10}}, limits)) == "0:20/2 0:20/2 0:10/1");
  SECTION("with batch fetch, merged blocks are cut into groups; the last group goes alone") {
    limits.batch = true;
    // Nothing reaches the target: at the end the 5 blocks merge per map into 3 (m0: 20 B, m1: 10 B,
    // m2: 20 B), cut into [m0, m1] and the last group [m2].
    CHECK(Describe(Group({{0, 10}, {0, 10}, {1, 10}, {2, 10}, {2, 10}}, limits)) == "0:30/2 0:20/1");
  }
  SECTION("with batch fetch, a short group goes back to the current request") {
    limits.batch = true;
    limits.max_bytes_in_flight = 50;  // target 10 B
    // m0 m1 m2 reach 12 B: [m0, m1] is sent, [m2] goes back; with m3 m4 again 12 B: [m2, m3] is
    // sent, [m4] goes back and is the last request.
    CHECK(Describe(Group({{0, 4}, {1, 4}, {2, 4}, {3, 4}, {4, 4}}, limits)) == "0:8/2 0:8/2 0:4/1");
  }
}

TEST_CASE("FetchRounds: bytes, requests and an address's blocks in flight", "[shuffle][fetch]") {
  FetchLimits limits;  // 48 MiB in flight
  // 12 + 12 + 7 + 12 = 43 MiB go out; the fifth (55 MiB) waits for the next round.
  const std::vector<FetchRequest> five = {
      {0, 12 * kMiB, 2}, {1, 12 * kMiB, 2}, {0, 7 * kMiB, 2}, {1, 12 * kMiB, 1}, {2, 12 * kMiB, 1}};
  CHECK(FetchRounds(five, limits) == 2);
  CHECK(FetchRounds({}, limits) == 0);
  // A request above maxSizeInFlight goes when nothing is in flight, alone.
  CHECK(FetchRounds({{0, 60 * kMiB, 1}, {1, 1 * kMiB, 1}}, limits) == 2);
  SECTION("maxReqsInFlight") {
    limits.max_reqs_in_flight = 2;
    CHECK(FetchRounds({{0, 1, 1}, {1, 1, 1}, {2, 1, 1}, {3, 1, 1}, {4, 1, 1}}, limits) == 3);
  }
  SECTION("an address at maxBlocksInFlightPerAddress defers its next request to the next round") {
    limits.max_blocks_per_address = 3;
    // Round 1: address 0's 2 blocks, its next 2 would make 4 > 3 (deferred), address 1's block;
    // round 2: the deferred one.
    CHECK(FetchRounds({{0, 1, 2}, {0, 1, 2}, {1, 1, 1}}, limits) == 2);
  }
}

TEST_CASE("PlanRemoteFetch: the issue's reduce task, 1 MB from 4000 mappers on 10 executors",
          "[shuffle][fetch]") {
  // 400 blocks of 250 B per executor: 100 kB, far below the 9.6 MiB target: one request per
  // executor, all 10 (1 MB) in flight at once.
  const std::vector<AddressFetch> ten(10, AddressFetch{400, 100000});
  const FetchPlan plan = PlanRemoteFetch(ten, FetchLimits{});
  CHECK(plan.requests == 10);
  CHECK(plan.rounds == 1);
  SECTION("large blocks: 10 MiB each is a request each, four in flight (40 <= 48 MiB < 50)") {
    const FetchPlan big = PlanRemoteFetch({{10, 100 * kMiB}}, FetchLimits{});
    CHECK(big.requests == 10);
    CHECK(big.rounds == 3);  // 4, 4, 2
  }
  SECTION("equal to the block-wise grouping when an address's blocks are alike") {
    // 7 blocks of 3 MiB: 4 reach the target (12 MiB), the last 3 form the second request.
    std::vector<FetchRequest> exact;
    GroupAddressBlocks(0, std::vector<FetchBlock>(7, FetchBlock{0, 3 * kMiB}), FetchLimits{}, &exact);
    CHECK(Describe(exact) == "0:12582912/4 0:9437184/3");
    CHECK(PlanRemoteFetch({{7, 21 * kMiB}}, FetchLimits{}).requests == 2);
  }
  SECTION("an address without blocks sends nothing") {
    CHECK(PlanRemoteFetch({{0, 0}, {3, 30}}, FetchLimits{}).requests == 1);
    CHECK(PlanRemoteFetch({}, FetchLimits{}).rounds == 0);
  }
}

}  // namespace
}  // namespace aqesim
