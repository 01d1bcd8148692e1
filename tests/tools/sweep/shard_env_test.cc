#include "tools/sweep/shard_env.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>

namespace aqesim::sweep {
namespace {

// An environment holding exactly `vars`.
struct FakeEnv {
  std::map<std::string, std::string> vars;
  EnvLookup Lookup() const {
    return [this](const char* name) -> const char* {
      const auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  }
};

// "K/N" of the resolved shard, or "error: MESSAGE".
std::string Resolve(const std::string& arg, const std::map<std::string, std::string>& vars) {
  const FakeEnv env{vars};
  std::string error;
  const std::optional<ResolvedShard> r = ResolveAutoShard(arg, env.Lookup(), &error);
  return r ? r->shard.ToString() : "error: " + error;
}

TEST_CASE("shard auto: a Slurm array job's element runs shard ID - MIN + 1 of COUNT", "[sweep][shard]") {
  // sbatch --array=0-3: Slurm sets ID, MIN, MAX, COUNT and STEP (values as slurmd 22.05 sets them).
  const std::map<std::string, std::string> base = {{"SLURM_ARRAY_TASK_MIN", "0"},
                                                   {"SLURM_ARRAY_TASK_MAX", "3"},
                                                   {"SLURM_ARRAY_TASK_COUNT", "4"},
                                                   {"SLURM_ARRAY_TASK_STEP", "1"}};
  for (int id = 0; id < 4; ++id) {
    auto vars = base;
    vars["SLURM_ARRAY_TASK_ID"] = std::to_string(id);
    CHECK(Resolve("auto", vars) == std::to_string(id + 1) + "/4");
  }
  // --array=1-4: the first element is shard 1.
  CHECK(Resolve("auto", {{"SLURM_ARRAY_TASK_ID", "1"},
                         {"SLURM_ARRAY_TASK_MIN", "1"},
                         {"SLURM_ARRAY_TASK_MAX", "4"},
                         {"SLURM_ARRAY_TASK_COUNT", "4"}}) == "1/4");
  // --array=1-7:3 (1, 4, 7): element 7 is shard 3 of 3; MAX alone gives the count.
  CHECK(Resolve("auto", {{"SLURM_ARRAY_TASK_ID", "7"},
                         {"SLURM_ARRAY_TASK_MIN", "1"},
                         {"SLURM_ARRAY_TASK_MAX", "7"},
                         {"SLURM_ARRAY_TASK_STEP", "3"}}) == "3/3");
  const FakeEnv env{
      {{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_MIN", "0"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}};
  std::string error;
  const auto r = ResolveAutoShard("auto", env.Lookup(), &error);
  REQUIRE(r);
  CHECK(r->source == "SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_COUNT=4");
}

TEST_CASE("shard auto/N: Slurm's array indices are the shards', so a re-submitted element keeps its shard",
          "[sweep][shard]") {
  // sbatch --array=2 (element 2 re-submitted alone): MIN = MAX = 2, COUNT = 1.
  const std::map<std::string, std::string> resubmitted = {{"SLURM_ARRAY_TASK_ID", "2"},
                                                          {"SLURM_ARRAY_TASK_MIN", "2"},
                                                          {"SLURM_ARRAY_TASK_MAX", "2"},
                                                          {"SLURM_ARRAY_TASK_COUNT", "1"}};
  CHECK(Resolve("auto/4", resubmitted) == "3/4");
  CHECK(Resolve("auto", resubmitted) == "1/1");  // what auto alone would run
  CHECK(Resolve("auto/4", {{"SLURM_ARRAY_TASK_ID", "4"}}) ==
        "error: --shard auto/4: SLURM_ARRAY_TASK_ID=4: with --shard auto/4 the array's indices are the "
        "shards' (submit --array=0-3 or a subset of it)");
  // --array=1-4 with auto/4: every element fails, not only the last.
  CHECK(Resolve("auto/4", {{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_MAX", "4"}}) ==
        "error: --shard auto/4: SLURM_ARRAY_TASK_MAX=4: with --shard auto/4 the array's indices are the "
        "shards' (submit --array=0-3 or a subset of it)");
}

TEST_CASE("shard auto: inconsistent Slurm variables are errors naming the variable", "[sweep][shard]") {
  CHECK(Resolve("auto", {{"SLURM_ARRAY_TASK_ID", "x2"}, {"SLURM_ARRAY_TASK_MIN", "0"}}) ==
        "error: --shard auto: SLURM_ARRAY_TASK_ID=\"x2\": expected a non-negative integer (at most "
        "2147483647)");
  CHECK(Resolve("auto", {{"SLURM_ARRAY_TASK_ID", "1"},
                         {"SLURM_ARRAY_TASK_MIN", "0"},
                         {"SLURM_ARRAY_TASK_COUNT", "-4"}}) ==
        "error: --shard auto: SLURM_ARRAY_TASK_COUNT=\"-4\": expected a non-negative integer (at most "
        "2147483647)");
  CHECK(
      Resolve("auto", {{"SLURM_ARRAY_TASK_ID", ""}}) ==
      "error: --shard auto: SLURM_ARRAY_TASK_ID=\"\": expected a non-negative integer (at most 2147483647)");
  CHECK(Resolve("auto", {{"SLURM_ARRAY_TASK_ID", "9999999999"}}) ==
        "error: --shard auto: SLURM_ARRAY_TASK_ID=\"9999999999\": expected a non-negative integer (at most "
        "2147483647)");
  CHECK(Resolve(
            "auto",
            {{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_MIN", "0"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}) ==
        "error: --shard auto: SLURM_ARRAY_TASK_ID=4 is beyond the array's 4 indices from "
        "SLURM_ARRAY_TASK_MIN=0");
  CHECK(Resolve(
            "auto",
            {{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_MIN", "2"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}) ==
        "error: --shard auto: SLURM_ARRAY_TASK_ID=1 is not an index of the array SLURM_ARRAY_TASK_MIN=2");
  CHECK(
      Resolve("auto", {{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}) ==
      "error: --shard auto: SLURM_ARRAY_TASK_ID=1 without SLURM_ARRAY_TASK_MIN (Slurm sets both in an array "
      "job)");
  CHECK(Resolve("auto", {{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_MIN", "0"}}) ==
        "error: --shard auto: SLURM_ARRAY_TASK_ID=1 without SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX "
        "(Slurm sets them in an array job)");
  CHECK(Resolve(
            "auto",
            {{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_MIN", "0"}, {"SLURM_ARRAY_TASK_COUNT", "0"}}) ==
        "error: --shard auto: SLURM_ARRAY_TASK_COUNT=0: expected an array of at least 1 task");
  // --array=1,3,6 (as slurmd 22.05 sets it: COUNT 3, MIN 1, MAX 6, STEP 1): not consecutive.
  CHECK(Resolve("auto", {{"SLURM_ARRAY_TASK_ID", "3"},
                         {"SLURM_ARRAY_TASK_MIN", "1"},
                         {"SLURM_ARRAY_TASK_MAX", "6"},
                         {"SLURM_ARRAY_TASK_COUNT", "3"},
                         {"SLURM_ARRAY_TASK_STEP", "1"}}) ==
        "error: --shard auto: SLURM_ARRAY_TASK_COUNT=3 but SLURM_ARRAY_TASK_MIN..SLURM_ARRAY_TASK_MAX (1..6, "
        "step 1) spans 6 indices: --shard auto needs consecutive array indices (--array=A-B[:S]); use "
        "--shard auto/N with --array indices 0..N-1");
}

TEST_CASE("shard auto/N: a Kubernetes Indexed Job's pod runs shard JOB_COMPLETION_INDEX + 1",
          "[sweep][shard]") {
  CHECK(Resolve("auto/4", {{"JOB_COMPLETION_INDEX", "0"}}) == "1/4");
  CHECK(Resolve("auto/4", {{"JOB_COMPLETION_INDEX", "3"}}) == "4/4");
  CHECK(Resolve("auto", {{"JOB_COMPLETION_INDEX", "3"}}) ==
        "error: --shard auto: JOB_COMPLETION_INDEX=3 (a Kubernetes Indexed Job) does not tell the number of "
        "shards: give --shard auto/N with N = the Job's spec.completions");
  CHECK(Resolve("auto/4", {{"JOB_COMPLETION_INDEX", "4"}}) ==
        "error: --shard auto/4: JOB_COMPLETION_INDEX=4: expected an index below 4 (the N of --shard auto/N "
        "must be the Job's spec.completions)");
  CHECK(Resolve("auto/4", {{"JOB_COMPLETION_INDEX", "two"}}) ==
        "error: --shard auto/4: JOB_COMPLETION_INDEX=\"two\": expected a non-negative integer (at most "
        "2147483647)");
}

TEST_CASE("shard auto: an AWS Batch child job runs shard AWS_BATCH_JOB_ARRAY_INDEX + 1 of the array's size",
          "[sweep][shard]") {
  CHECK(Resolve("auto", {{"AWS_BATCH_JOB_ARRAY_INDEX", "0"}, {"AWS_BATCH_JOB_ARRAY_SIZE", "10"}}) == "1/10");
  CHECK(Resolve("auto", {{"AWS_BATCH_JOB_ARRAY_INDEX", "9"}, {"AWS_BATCH_JOB_ARRAY_SIZE", "10"}}) == "10/10");
  CHECK(Resolve("auto/10", {{"AWS_BATCH_JOB_ARRAY_INDEX", "9"}, {"AWS_BATCH_JOB_ARRAY_SIZE", "10"}}) ==
        "10/10");
  CHECK(Resolve("auto/10", {{"AWS_BATCH_JOB_ARRAY_INDEX", "9"}}) == "10/10");
  CHECK(Resolve("auto", {{"AWS_BATCH_JOB_ARRAY_INDEX", "10"}, {"AWS_BATCH_JOB_ARRAY_SIZE", "10"}}) ==
        "error: --shard auto: AWS_BATCH_JOB_ARRAY_INDEX=10: expected an index below "
        "AWS_BATCH_JOB_ARRAY_SIZE=10");
  CHECK(Resolve("auto/4", {{"AWS_BATCH_JOB_ARRAY_INDEX", "1"}, {"AWS_BATCH_JOB_ARRAY_SIZE", "10"}}) ==
        "error: --shard auto/4: AWS_BATCH_JOB_ARRAY_SIZE=10 but --shard auto/4 says 4 shards");
  CHECK(Resolve("auto", {{"AWS_BATCH_JOB_ARRAY_INDEX", "1"}}) ==
        "error: --shard auto: AWS_BATCH_JOB_ARRAY_INDEX=1 without AWS_BATCH_JOB_ARRAY_SIZE: give --shard "
        "auto/N "
        "with N = the array size");
  CHECK(Resolve("auto", {{"AWS_BATCH_JOB_ARRAY_INDEX", "1"}, {"AWS_BATCH_JOB_ARRAY_SIZE", "1e3"}}) ==
        "error: --shard auto: AWS_BATCH_JOB_ARRAY_SIZE=\"1e3\": expected a non-negative integer (at most "
        "2147483647)");
}

TEST_CASE("shard auto: no scheduler's index, or several, is an error naming the variables",
          "[sweep][shard]") {
  CHECK(Resolve("auto", {{"SLURM_JOB_ID", "12"}}) ==
        "error: --shard auto: no array-job index in the environment (looked for SLURM_ARRAY_TASK_ID, "
        "JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX): run it as a Slurm array job, a Kubernetes Indexed "
        "Job or an AWS Batch array job, or give --shard K/N");
  CHECK(Resolve("auto", {{"SLURM_ARRAY_TASK_ID", "1"}, {"JOB_COMPLETION_INDEX", "1"}}) ==
        "error: --shard auto: SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are both set: which scheduler's "
        "index is meant? Give --shard K/N");
  for (const std::string bad : {"auto/0", "auto/", "auto/x", "auto/-2"}) {
    CHECK(Resolve(bad, {{"JOB_COMPLETION_INDEX", "1"}}) ==
          "error: --shard " + bad +
              ": expected auto or auto/N with N >= 1 the number of shards (e.g. auto/4)");
  }
  // The --shard option: K/N as before (no source), auto from the environment.
  const FakeEnv env{{{"JOB_COMPLETION_INDEX", "1"}}};
  std::string error;
  const auto fixed = ParseShardOption("2/4", env.Lookup(), &error);
  REQUIRE(fixed);
  CHECK(fixed->shard.ToString() == "2/4");
  CHECK(fixed->source.empty());
  const auto automatic = ParseShardOption("auto/3", env.Lookup(), &error);
  REQUIRE(automatic);
  CHECK(automatic->shard.ToString() == "2/3");
  CHECK(automatic->source == "JOB_COMPLETION_INDEX=1");
  CHECK_FALSE(ParseShardOption("5/4", env.Lookup(), &error));
  CHECK(error == "--shard 5/4: expected K/N with 1 <= K <= N (e.g. 1/4)");
  CHECK(IsAutoShard("auto"));
  CHECK(IsAutoShard("auto/4"));
  CHECK_FALSE(IsAutoShard("1/4"));
  CHECK_FALSE(IsAutoShard("automatic"));
}

}  // namespace
}  // namespace aqesim::sweep
