#include "sim/simulator.h"

#include <catch2/catch.hpp>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace aqesim {
namespace {

TEST_CASE("SimTime: addition saturates instead of wrapping", "[sim][units]") {
  CHECK(SimTime::Max() + SimTime::Seconds(1) == SimTime::Max());
  CHECK(SimTime::Seconds(5) + SimTime::Max() == SimTime::Max());
  SimTime t = SimTime::Seconds(1e12);
  t += SimTime::Max();
  CHECK(t == SimTime::Max());
  CHECK(SimTime::Seconds(1) + SimTime::Seconds(2) == SimTime::Seconds(3));
  CHECK(SimTime::Seconds(1e300) == SimTime::Max());
}

TEST_CASE("Simulator: events run in time order, ties FIFO by insertion", "[sim][simulator]") {
  Simulator sim;
  std::vector<std::string> log;
  auto at = [&](int64_t us, std::string name) {
    sim.ScheduleAt(SimTime::Micros(us), [&log, name] { log.push_back(name); });
  };
  at(30, "c");
  at(10, "a1");
  at(20, "b");
  at(10, "a2");
  at(10, "a3");
  at(0, "z");
  sim.Run();
  CHECK(log == std::vector<std::string>{"z", "a1", "a2", "a3", "b", "c"});
  CHECK(sim.Now() == SimTime::Micros(30));
  CHECK(sim.events_processed() == 6);
  CHECK(sim.pending_events() == 0);
}

TEST_CASE("Simulator: lower tier first at equal time, FIFO within a tier", "[sim][simulator]") {
  Simulator sim;
  std::vector<std::string> log;
  auto at = [&](int64_t us, int tier, std::string name) {
    sim.ScheduleAt(SimTime::Micros(us), tier, [&log, name] { log.push_back(name); });
  };
  at(5, 2, "t2-first");
  at(5, 1, "t1-first");
  at(5, 2, "t2-second");
  at(5, -1, "tneg");
  at(4, 9, "earlier-time-high-tier");
  at(5, 1, "t1-second");
  sim.Run();
  CHECK(log == std::vector<std::string>{"earlier-time-high-tier", "tneg", "t1-first", "t1-second", "t2-first",
                                        "t2-second"});
}

TEST_CASE("Simulator: Now() inside callbacks and relative scheduling", "[sim][simulator]") {
  Simulator sim;
  std::vector<int64_t> seen;
  sim.ScheduleIn(SimTime::Millis(2), [&] {
    seen.push_back(sim.Now().micros());
    sim.ScheduleIn(SimTime::Millis(3), [&] { seen.push_back(sim.Now().micros()); });
    // Same instant, lower tier than the running event: runs before time advances.
    sim.ScheduleNow(-5, [&] { seen.push_back(-sim.Now().micros()); });
  });
  sim.Run();
  CHECK(seen == std::vector<int64_t>{2000, -2000, 5000});
  CHECK(sim.Now() == SimTime::Millis(5));
}

TEST_CASE("Simulator: time never runs backwards", "[sim][simulator]") {
  Simulator sim;
  sim.ScheduleAt(SimTime::Micros(100), [] {});
  sim.Run();
  REQUIRE(sim.Now() == SimTime::Micros(100));
  CHECK_THROWS_AS(sim.ScheduleAt(SimTime::Micros(99), [] {}), std::logic_error);
  CHECK_THROWS_AS(sim.ScheduleIn(SimTime::Micros(-1), [] {}), std::logic_error);
  CHECK_THROWS_AS(sim.RunUntil(SimTime::Micros(50)), std::logic_error);
  CHECK_NOTHROW(sim.ScheduleAt(SimTime::Micros(100), [] {}));
  CHECK(sim.pending_events() == 1);

  SECTION("from inside a callback too") {
    Simulator s2;
    bool threw = false;
    s2.ScheduleAt(SimTime::Micros(10), [&] {
      try {
        s2.ScheduleAt(SimTime::Micros(9), [] {});
      } catch (const std::logic_error&) {
        threw = true;
      }
    });
    s2.Run();
    CHECK(threw);
    CHECK(s2.events_processed() == 1);
  }
}

TEST_CASE("Simulator: lazy cancel", "[sim][simulator]") {
  Simulator sim;
  std::vector<int> ran;
  const EventId a = sim.ScheduleAt(SimTime::Micros(1), [&] { ran.push_back(1); });
  const EventId b = sim.ScheduleAt(SimTime::Micros(2), [&] { ran.push_back(2); });
  const EventId c = sim.ScheduleAt(SimTime::Micros(3), [&] { ran.push_back(3); });
  CHECK(sim.pending_events() == 3);
  CHECK(sim.IsPending(b));
  CHECK(sim.Cancel(b));
  CHECK_FALSE(sim.IsPending(b));
  CHECK_FALSE(sim.Cancel(b));          // twice
  CHECK_FALSE(sim.Cancel(EventId{}));  // invalid
  CHECK(sim.pending_events() == 2);

  SECTION("cancelled event does not run, others do") {
    sim.Run();
    CHECK(ran == std::vector<int>{1, 3});
    CHECK(sim.Now() == SimTime::Micros(3));
    CHECK_FALSE(sim.Cancel(a));  // already ran
    CHECK(sim.events_cancelled() == 1);
  }
  SECTION("an event can cancel a later one; a reused handler slot is not confused") {
    sim.ScheduleAt(SimTime::Micros(1), [&] { CHECK(sim.Cancel(c)); });
    sim.ProcessOneEvent();  // a (runs, frees its slot)
    // Reuses a's (or b's) handler slot; the stale id must not cancel the new event.
    const EventId d = sim.ScheduleAt(SimTime::Micros(2), [&] { ran.push_back(4); });
    CHECK_FALSE(sim.Cancel(a));
    CHECK(sim.IsPending(d));
    sim.Run();
    CHECK(ran == std::vector<int>{1, 4});
    CHECK(sim.Now() == SimTime::Micros(2));
  }
}

TEST_CASE("Simulator: cancelling the only event leaves an empty queue", "[sim][simulator]") {
  Simulator sim;
  const EventId a = sim.ScheduleAt(SimTime::Micros(7), [] { FAIL("cancelled event ran"); });
  CHECK(sim.Cancel(a));
  CHECK_FALSE(sim.PeekNext().has_value());
  CHECK_FALSE(sim.ProcessOneEvent());
  sim.Run();
  CHECK(sim.Now() == SimTime::Zero());  // the clock does not jump to cancelled events
}

TEST_CASE("Simulator: Stop, resume, RunUntil, PeekNext", "[sim][simulator]") {
  Simulator sim;
  std::vector<int64_t> ran;
  for (int64_t t : {10, 20, 30, 40}) {
    sim.ScheduleAt(SimTime::Micros(t), [&, t] {
      ran.push_back(t);
      if (t == 20) sim.Stop();
    });
  }
  sim.Run();
  CHECK(ran == std::vector<int64_t>{10, 20});
  CHECK(sim.Now() == SimTime::Micros(20));
  const auto next = sim.PeekNext();
  REQUIRE(next.has_value());
  CHECK(next->at == SimTime::Micros(30));
  CHECK(next->tier == 0);

  sim.RunUntil(SimTime::Micros(35));
  CHECK(ran == std::vector<int64_t>{10, 20, 30});
  CHECK(sim.Now() == SimTime::Micros(35));
  sim.RunUntil(SimTime::Micros(40));  // inclusive
  CHECK(ran == std::vector<int64_t>{10, 20, 30, 40});
  sim.Run();
  CHECK(sim.Now() == SimTime::Micros(40));
}

TEST_CASE("Simulator: many events with pseudo-random times come out sorted", "[sim][simulator]") {
  Simulator sim;
  std::vector<std::pair<int64_t, int>> out;
  uint64_t x = 12345;
  for (int i = 0; i < 5000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const int64_t t = static_cast<int64_t>((x >> 33) % 100);
    sim.ScheduleAt(SimTime::Micros(t), [&out, t, i] { out.emplace_back(t, i); });
  }
  sim.Run();
  REQUIRE(out.size() == 5000);
  for (size_t k = 1; k < out.size(); ++k) {
    INFO("k = " << k);
    REQUIRE(out[k - 1] < out[k]);  // time ascending; equal times by insertion order
  }
}

TEST_CASE("Simulator: interleaved schedule/cancel/run matches a reference ordered map", "[sim][simulator]") {
  // The reference keeps (time, tier, insertion number) -> id in a std::map; the
  // simulator must run exactly the reference's first live entry each step.
  Simulator sim;
  std::map<std::tuple<int64_t, int, int>, int> reference;
  std::map<int, std::pair<EventId, std::tuple<int64_t, int, int>>> live;
  int last_ran = -1;
  int next_id = 0;
  uint64_t x = 99;
  auto rand = [&x](uint64_t n) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return (x >> 33) % n;
  };
  for (int step = 0; step < 20000; ++step) {
    const uint64_t op = rand(10);
    if (op < 5) {
      const int64_t at = sim.Now().micros() + static_cast<int64_t>(rand(50));
      const int tier = static_cast<int>(rand(3)) - 1;
      const int id = next_id++;
      const EventId eid = sim.ScheduleAt(SimTime::Micros(at), tier, [&last_ran, id] { last_ran = id; });
      const auto key = std::make_tuple(at, tier, id);
      reference[key] = id;
      live[id] = {eid, key};
    } else if (op < 7 && !live.empty()) {
      auto it = live.begin();
      std::advance(it, static_cast<long>(rand(live.size())));
      REQUIRE(sim.Cancel(it->second.first));
      reference.erase(it->second.second);
      live.erase(it);
    } else {
      const bool ran = sim.ProcessOneEvent();
      REQUIRE(ran == !reference.empty());
      if (!ran) continue;
      const auto front = reference.begin();
      REQUIRE(last_ran == front->second);
      REQUIRE(sim.Now().micros() == std::get<0>(front->first));
      live.erase(front->second);
      reference.erase(front);
    }
    REQUIRE(sim.pending_events() == static_cast<int64_t>(reference.size()));
  }
}

TEST_CASE("Simulator: tiers outside the supported range are a logic error", "[sim][simulator]") {
  Simulator sim;
  CHECK_NOTHROW(sim.ScheduleAt(SimTime::Zero(), Simulator::kMinTier, [] {}));
  CHECK_NOTHROW(sim.ScheduleAt(SimTime::Zero(), Simulator::kMaxTier, [] {}));
  CHECK_THROWS_AS(sim.ScheduleAt(SimTime::Zero(), Simulator::kMaxTier + 1, [] {}), std::logic_error);
  CHECK_THROWS_AS(sim.ScheduleAt(SimTime::Zero(), Simulator::kMinTier - 1, [] {}), std::logic_error);
  CHECK(sim.pending_events() == 2);
}

}  // namespace
}  // namespace aqesim
