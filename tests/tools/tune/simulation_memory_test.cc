// ThreadsWithinMemory: how many simulations tune runs at once, by hand: 2 GiB = 2147483648 bytes.
#include "tools/tune/simulation_memory.h"

#include <catch2/catch.hpp>

namespace aqesim::tune {
namespace {

TEST_CASE("ThreadsWithinMemory: simulations at once within 2 GiB", "[tune]") {
  // A scan of 100 TB plans 819,200 + 200 tasks; at ×2 data 1,638,800 × 450 B = 737,460,000 B a
  // simulation: 2 fit (2,147,483,648 / 737,460,000 = 2.91), so --threads 8 runs 2.
  CHECK(ThreadsWithinMemory(8, 819400, 2.0) == 2);
  CHECK(ThreadsWithinMemory(2, 819400, 2.0) == 2);
  CHECK(ThreadsWithinMemory(1, 819400, 2.0) == 1);
  // Without guardrails (largest scale 1): 368,730,000 B each, 5 fit.
  CHECK(ThreadsWithinMemory(8, 819400, 1.0) == 5);
  // A small job keeps what was asked; 10^7 tasks (the run limit) at ×2 still runs one.
  CHECK(ThreadsWithinMemory(1024, 1000, 2.0) == 1024);
  CHECK(ThreadsWithinMemory(4, 10'000'000, 2.0) == 1);
  // No plan known (0 tasks): as asked.
  CHECK(ThreadsWithinMemory(3, 0, 2.0) == 3);
}

}  // namespace
}  // namespace aqesim::tune
