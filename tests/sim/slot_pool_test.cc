#include "sim/slot_pool.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

namespace aqesim {
namespace {

TEST_CASE("SlotPool: acquires by (slot index, executor), spreading over executors", "[sim][slot_pool]") {
  SlotPool pool(3, 2);
  REQUIRE(pool.total_slots() == 6);
  std::vector<SlotRef> got;
  while (auto s = pool.Acquire()) got.push_back(*s);
  CHECK(got == std::vector<SlotRef>{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}});
  CHECK(pool.free_slots() == 0);
  CHECK_FALSE(pool.Acquire().has_value());
  for (int e = 0; e < 3; ++e) CHECK(pool.acquisitions_on(e) == 2);

  SECTION("a released slot is the next one; the smallest free wins") {
    pool.Release({2, 1});
    pool.Release({1, 0});
    CHECK(pool.free_slots() == 2);
    CHECK(pool.IsFree({1, 0}));
    CHECK(*pool.Acquire() == SlotRef{1, 0});
    CHECK(*pool.Acquire() == SlotRef{2, 1});
    CHECK(pool.acquisitions_on(1) == 3);
    CHECK(pool.total_acquisitions() == 8);
  }
  SECTION("releasing a free slot or a slot that does not exist is a logic error") {
    pool.Release({0, 0});
    CHECK_THROWS_AS(pool.Release({0, 0}), std::logic_error);
    CHECK_THROWS_AS(pool.Release({3, 0}), std::logic_error);
    CHECK_THROWS_AS(pool.Release({0, 2}), std::logic_error);
  }
}

TEST_CASE("SlotPool: more than 64 slots (several bitmap words)", "[sim][slot_pool]") {
  SlotPool pool(50, 3);  // 150 slots
  for (int i = 0; i < 150; ++i) {
    const auto s = pool.Acquire();
    REQUIRE(s.has_value());
    REQUIRE(pool.FlatId(*s) == i);
    REQUIRE(*s == SlotRef{i % 50, i / 50});
  }
  CHECK_FALSE(pool.Acquire().has_value());
  pool.Release({49, 2});  // flat 149, last word
  pool.Release({7, 1});   // flat 57, first word
  pool.Release({20, 1});  // flat 70, second word
  CHECK(*pool.Acquire() == SlotRef{7, 1});
  CHECK(*pool.Acquire() == SlotRef{20, 1});
  CHECK(*pool.Acquire() == SlotRef{49, 2});
  CHECK_FALSE(pool.Acquire().has_value());
}

TEST_CASE("SlotPool: empty pools never grant a slot", "[sim][slot_pool]") {
  SlotPool none(4, 0);
  CHECK(none.total_slots() == 0);
  CHECK_FALSE(none.Acquire().has_value());
  SlotPool no_executors(0, 4);
  CHECK_FALSE(no_executors.Acquire().has_value());
  CHECK_THROWS_AS(SlotPool(-1, 2), std::logic_error);
}

TEST_CASE("SlotPool: executors with different slot counts (resource profiles)", "[sim][slot_pool]") {
  SlotPool pool(std::vector<int>{2, 0, 3});
  CHECK(pool.executors() == 3);
  CHECK(pool.slots_per_executor() == 3);
  CHECK(pool.total_slots() == 5);
  CHECK(pool.flat_slots() == 9);
  CHECK(pool.slots_on(1) == 0);
  std::vector<SlotRef> got;
  while (auto s = pool.Acquire()) got.push_back(*s);
  // (slot, executor) order over the slots that exist: executor 1 has none, executor 0 two.
  CHECK(got == std::vector<SlotRef>{{0, 0}, {2, 0}, {0, 1}, {2, 1}, {2, 2}});
  CHECK_FALSE(pool.HasFreeSlotOn(1));
  CHECK_THROWS_AS(pool.Release({0, 2}), std::logic_error);  // executor 0 has no slot 2
  pool.Release({2, 2});
  CHECK(*pool.AcquireOn(2) == SlotRef{2, 2});
  CHECK_THROWS_AS(SlotPool(std::vector<int>{1, -1}), std::logic_error);
}

TEST_CASE("SlotPool: executors registered late and removed (dynamic allocation)", "[sim][slot_pool]") {
  SlotPool pool(3, 2, /*all_present=*/false);
  CHECK(pool.total_slots() == 6);
  CHECK(pool.free_slots() == 0);
  CHECK(pool.present_executors() == 0);
  CHECK_FALSE(pool.Acquire().has_value());
  pool.SetPresent(2, true);
  CHECK(pool.free_slots() == 2);
  CHECK(*pool.Acquire() == SlotRef{2, 0});
  pool.SetPresent(0, true);
  pool.SetPresent(0, true);  // idempotent
  CHECK(pool.present_executors() == 2);
  CHECK(pool.free_slots() == 3);
  // Smallest (slot, executor) among present executors: (0, 0), then (0, 1), then (2, 1).
  CHECK(*pool.Acquire() == SlotRef{0, 0});
  CHECK(*pool.Acquire() == SlotRef{0, 1});
  CHECK(pool.busy_slots() == 3);

  SECTION("a removed executor's running task keeps its slot; released, it is not granted again") {
    pool.SetPresent(2, false);
    CHECK(pool.free_slots() == 0);  // (2, 1) was idle: gone; (2, 0) still busy
    CHECK(pool.IsBusy({2, 0}));
    CHECK_FALSE(pool.Acquire().has_value());
    pool.Release({2, 0});
    CHECK(pool.busy_slots() == 2);
    CHECK(pool.free_slots() == 0);
    CHECK_FALSE(pool.IsFree({2, 0}));
    CHECK_THROWS_AS(pool.Release({2, 0}), std::logic_error);
    pool.Release({0, 1});
    CHECK(*pool.Acquire() == SlotRef{0, 1});
    pool.SetPresent(2, true);  // registered again: both of its slots are free
    CHECK(pool.free_slots() == 2);
    CHECK(*pool.Acquire() == SlotRef{2, 0});
  }
  SECTION("an executor out of range is a logic error") {
    CHECK_THROWS_AS(pool.SetPresent(3, true), std::logic_error);
    CHECK_THROWS_AS(pool.SetPresent(-1, false), std::logic_error);
  }
}

}  // namespace
}  // namespace aqesim
