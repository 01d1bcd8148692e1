// TaskSpread on hand-built stages: the fresh executors' first tasks are start-up, not skew; a slow
// task among tasks of the same warmth is the data's.
#include "models/engine/task_spread.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

namespace aqesim {
namespace {

TaskResult Task(int executor, double start, double end) {
  TaskResult t;
  t.executor = executor;
  t.start_seconds = start;
  t.end_seconds = end;
  return t;
}

/// One executor per entry of `first`: a first task of that many seconds from 0, then three
/// tasks of 1 s (the last one on the last executor `later_slowest` seconds).
StageResult Executors(const std::vector<double>& first, double later_slowest = 1.0) {
  StageResult s;
  for (size_t e = 0; e < first.size(); ++e) {
    s.task_results.push_back(Task(static_cast<int>(e), 0, first[e]));
    for (int i = 0; i < 3; ++i) {
      const double secs = e + 1 == first.size() && i == 2 ? later_slowest : 1.0;
      s.task_results.push_back(Task(static_cast<int>(e), first[e] + i, first[e] + i + secs));
    }
  }
  std::vector<double> secs;
  for (const TaskResult& t : s.task_results) secs.push_back(t.end_seconds - t.start_seconds);
  std::sort(secs.begin(), secs.end());
  s.task_median_seconds = secs[secs.size() / 2];
  s.task_max_seconds = secs.back();
  s.tasks = static_cast<int>(secs.size());
  return s;
}

TEST_CASE("TaskSpread: the first tasks on fresh executors are start-up, not skew", "[engine][taskspread]") {
  // Tasks: 4, 4, 4 (first on each executor), nine of 1 s: median 1 s, slowest 4 s.
  const TaskSpread t = TaskSpreadOf(Executors({4, 4, 4}));
  CHECK(t.ratio == 4.0);
  CHECK(t.slowest_is_startup);
  CHECK(t.data_ratio == 1.0);  // 4 ÷ 4 among the first tasks, 1 ÷ 1 after
}

TEST_CASE("TaskSpread: a slow task among tasks of the same warmth is the data's", "[engine][taskspread]") {
  SECTION("a first task twice the other first tasks, reading twice the bytes") {
    StageResult s = Executors({8, 4, 4});
    for (TaskResult& t : s.task_results) t.input_bytes = 100;
    s.task_results[0].input_bytes = 200;  // 2 × the median: heavy
    const TaskSpread t = TaskSpreadOf(s);
    CHECK(t.ratio == 8.0);
    CHECK_FALSE(t.slowest_is_startup);
    CHECK(t.data_ratio == 2.0);  // 8 ÷ the first tasks' median 4
  }
  SECTION("a first task twice the others, reading what they read: start-up (the cold code)") {
    const TaskSpread t = TaskSpreadOf(Executors({8, 4, 4}));
    CHECK(t.slowest_is_startup);
    CHECK(t.data_ratio == 1.0);
  }
  SECTION("a later task 5× the median") {
    const TaskSpread t = TaskSpreadOf(Executors({4, 4, 4}, 5));
    CHECK(t.ratio == 5.0);
    CHECK_FALSE(t.slowest_is_startup);
    CHECK(t.data_ratio == 5.0);
  }
}

TEST_CASE("TaskSpread: without task records it is the time ratio", "[engine][taskspread]") {
  StageResult s;
  s.task_median_seconds = 2;
  s.task_max_seconds = 7;
  const TaskSpread t = TaskSpreadOf(s);
  CHECK(t.ratio == 3.5);
  CHECK(t.data_ratio == 3.5);
  CHECK_FALSE(t.slowest_is_startup);
}

TEST_CASE("TaskSpread: a later task still running the stage's code cold is start-up",
          "[engine][taskspread]") {
  // warmup-uniform.json's map stage in small: first tasks 4 s; the last executor's third task
  // 4 s, of which 3 s are start-up (its code still cold there): warm, it is 1 s like the others.
  StageResult s = Executors({4, 4, 4}, 4.0);
  s.task_results.back().startup_seconds = 3.0;
  const TaskSpread t = TaskSpreadOf(s);
  CHECK(t.ratio == 4.0);
  CHECK(t.slowest_is_startup);  // the first of the 4 s tasks met; all of them start-up
  CHECK(t.data_ratio == 1.0);   // the later task counts as 4 − 3 = 1 s
  SECTION("without its start-up seconds it is the data's: 4 ÷ the median 1") {
    s.task_results.back().startup_seconds = 0;
    CHECK(TaskSpreadOf(s).data_ratio == 4.0);
  }
  SECTION("slowest alone and mostly cold: start-up; mostly warm: the data's") {
    s.task_results.back().end_seconds += 1.0;  // 5 s, the slowest
    s.task_results.back().startup_seconds = 3.0;
    s.task_max_seconds = 5.0;
    CHECK(TaskSpreadOf(s).slowest_is_startup);  // 3 of 5 s
    CHECK(TaskSpreadOf(s).data_ratio == 2.0);   // (5 − 3) ÷ 1
    s.task_results.back().startup_seconds = 2.0;
    CHECK_FALSE(TaskSpreadOf(s).slowest_is_startup);  // 2 of 5 s
    CHECK(TaskSpreadOf(s).data_ratio == 3.0);
  }
}

}  // namespace
}  // namespace aqesim
