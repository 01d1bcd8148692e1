// Task slots per executor and the executors of a resource profile, against values computed by
// hand from Spark's rules (ResourceProfile.calculateTasksAndLimitingResource) and two recorded
// clusters of the corpus.
#include "models/cluster/cluster.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

TEST_CASE("TaskSlotsPerExecutor: cores over task cpus, limited by GPUs", "[cluster]") {
  // tasks_executors_fail: 4 cores, spark.task.cpus 4 -> 1 slot (not 4).
  CHECK(TaskSlotsPerExecutor(4, 4, 0, std::nullopt) == 1);
  CHECK(TaskSlotsPerExecutor(4, 1, 0, std::nullopt) == 4);
  CHECK(TaskSlotsPerExecutor(7, 2, 0, std::nullopt) == 3);
  // rp_sql's resource profile 1: 2 cores, 2 GPUs, a task takes 2 cpus and 2 GPUs -> 1 slot.
  CHECK(TaskSlotsPerExecutor(2, 2, 2, 2.0) == 1);
  // dynamic_alloc: 4 cores, 1 GPU, spark.task.resource.gpu.amount 0.25 -> 4 tasks share the GPU.
  CHECK(TaskSlotsPerExecutor(4, 1, 1, 0.25) == 4);
  // 8 cores, 1 GPU at 0.5 per task: 2 slots (the GPU limits).
  CHECK(TaskSlotsPerExecutor(8, 1, 1, 0.5) == 2);
  // Whole GPUs: 3 GPUs, 2 per task -> 1 slot.
  CHECK(TaskSlotsPerExecutor(8, 1, 3, 2.0) == 1);
  // Tasks that take GPUs on an executor without any: no slot.
  CHECK(TaskSlotsPerExecutor(8, 1, 0, 1.0) == 0);
  // More cpus per task than cores: no slot.
  CHECK(TaskSlotsPerExecutor(2, 4, 0, std::nullopt) == 0);
}

TEST_CASE("SlotsPerExecutor and ExecutorsOfProfile follow the timeline's profiles", "[cluster]") {
  ClusterSpec c;
  c.executors = 3;
  c.executor_cores = 4;
  CHECK(SlotsPerExecutor(c, 2, std::nullopt) == std::vector<int>{2, 2, 2});
  CHECK_FALSE(ExecutorsOfProfile(c, 0).has_value());  // static: all of the default profile
  CHECK(ExecutorsOfProfile(c, 1) == std::vector<int>{});

  ResourceProfileSpec rp;
  rp.id = 1;
  rp.executor_cores = 2;
  rp.task_cpus = 2;
  rp.executor_gpus = 2;
  rp.task_gpus = 2.0;
  c.resource_profiles = {rp};
  c.executor_timeline.resize(3);
  c.executor_timeline[1].resource_profile = 1;
  CHECK(SlotsPerExecutor(c, 1, std::nullopt) == std::vector<int>{4, 1, 4});
  CHECK(ExecutorsOfProfile(c, 0) == std::vector<int>{0, 2});
  CHECK(ExecutorsOfProfile(c, 1) == std::vector<int>{1});
  CHECK(c.profile(1) != nullptr);
  CHECK(c.profile(2) == nullptr);
}

}  // namespace
}  // namespace aqesim
