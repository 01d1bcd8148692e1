// `sweep --shard auto` and `--shard auto/N`: the shard an array-job element runs, read from
// the scheduler's environment, so that one job file serves every element without glue.
//
//   Slurm array job (sbatch --array=A-B[:S]):
//     auto    K-1 = (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP (step 1
//             when unset), N = SLURM_ARRAY_TASK_COUNT, or (MAX - MIN) / STEP + 1 without it.
//             The indices must be consecutive (a list like --array=1,3,6 is refused: COUNT
//             differs from the span MIN..MAX).
//     auto/N  K-1 = SLURM_ARRAY_TASK_ID: the array's indices are the shards' (0..N-1), so a
//             re-submission of some elements (sbatch --array=2) runs exactly their shards.
//   Kubernetes Indexed Job: K-1 = JOB_COMPLETION_INDEX; N from auto/N (the Job's
//     spec.completions: Kubernetes does not tell a pod the count).
//   AWS Batch array job: K-1 = AWS_BATCH_JOB_ARRAY_INDEX, N = AWS_BATCH_JOB_ARRAY_SIZE (or auto/N;
//     both given, they must agree).
//
// Every problem is one line naming the variable: none of the index variables set (the
// message lists them), several schedulers' set at once, a value that is not a non-negative
// integer, an index outside the array.
#ifndef AQESIM_TOOLS_SWEEP_SHARD_ENV_H_
#define AQESIM_TOOLS_SWEEP_SHARD_ENV_H_

#include <functional>
#include <optional>
#include <string>

#include "tools/sweep/grid.h"

namespace aqesim::sweep {

/// An environment lookup with std::getenv's contract: the value, or nullptr when unset.
using EnvLookup = std::function<const char*(const char*)>;

/// The shard and where it came from, e.g. "SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_MIN=0,
/// SLURM_ARRAY_TASK_COUNT=4" (for the job's log).
struct ResolvedShard {
  Shard shard;
  std::string source;
};

/// True for "auto" and "auto/...".
bool IsAutoShard(const std::string& arg);

/// Resolves `--shard auto` or `--shard auto/N` from `env`. nullopt with `*error` set to one
/// line ("--shard auto: ...") when no scheduler's index is present or a value is inconsistent.
std::optional<ResolvedShard> ResolveAutoShard(const std::string& arg, const EnvLookup& env,
                                              std::string* error);

/// The `--shard` option: K/N (ParseShard; `source` empty), auto or auto/N (ResolveAutoShard).
std::optional<ResolvedShard> ParseShardOption(const std::string& arg, const EnvLookup& env,
                                              std::string* error);

}  // namespace aqesim::sweep

#endif  // AQESIM_TOOLS_SWEEP_SHARD_ENV_H_
