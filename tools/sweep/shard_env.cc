#include "tools/sweep/shard_env.h"

#include <charconv>
#include <cstdint>
#include <limits>
#include <vector>

namespace aqesim::sweep {

namespace {

constexpr const char* kSlurmId = "SLURM_ARRAY_TASK_ID";
constexpr const char* kSlurmMin = "SLURM_ARRAY_TASK_MIN";
constexpr const char* kSlurmMax = "SLURM_ARRAY_TASK_MAX";
constexpr const char* kSlurmCount = "SLURM_ARRAY_TASK_COUNT";
constexpr const char* kSlurmStep = "SLURM_ARRAY_TASK_STEP";
constexpr const char* kK8sIndex = "JOB_COMPLETION_INDEX";
constexpr const char* kAwsIndex = "AWS_BATCH_JOB_ARRAY_INDEX";
constexpr const char* kAwsSize = "AWS_BATCH_JOB_ARRAY_SIZE";

// Shard holds ints: every index and count is below 2^31.
constexpr int64_t kMaxValue = std::numeric_limits<int>::max();

// Reads the scheduler's variables, remembering what was read for the message and the log.
class EnvReader {
 public:
  EnvReader(const EnvLookup& env, std::string prefix) : env_(env), prefix_(std::move(prefix)) {}

  bool IsSet(const char* name) const { return env_(name) != nullptr; }

  // The variable's value; nullopt when unset. A value that is not a non-negative integer
  // below 2^31 sets the error (the first one wins) and also gives nullopt.
  std::optional<int64_t> Get(const char* name) {
    const char* raw = env_(name);
    if (raw == nullptr) return std::nullopt;
    const std::string text = raw;
    int64_t v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || p != text.data() + text.size() || v < 0 || v > kMaxValue) {
      Fail(std::string(name) + "=\"" + text + "\": expected a non-negative integer (at most " +
           std::to_string(kMaxValue) + ")");
      return std::nullopt;
    }
    if (!source_.empty()) source_ += ", ";
    source_ += std::string(name) + "=" + text;
    return v;
  }

  void Fail(const std::string& message) {
    if (error_.empty()) error_ = prefix_ + message;
  }
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  const std::string& source() const { return source_; }

 private:
  const EnvLookup& env_;
  std::string prefix_;
  std::string error_;
  std::string source_;
};

std::string Var(const char* name, int64_t value) { return std::string(name) + "=" + std::to_string(value); }

// Slurm: see the header. `n_given` is N of auto/N.
std::optional<Shard> SlurmShard(EnvReader& env, std::optional<int64_t> n_given) {
  const std::optional<int64_t> id = env.Get(kSlurmId);
  const std::optional<int64_t> min = env.Get(kSlurmMin);
  const std::optional<int64_t> max = env.Get(kSlurmMax);
  const std::optional<int64_t> count = env.Get(kSlurmCount);
  const std::optional<int64_t> step = env.Get(kSlurmStep);
  if (env.failed() || !id) return std::nullopt;
  if (n_given) {
    // The array's indices are the shards': sbatch --array=0-(N-1), or any subset of it.
    const std::string range = "0-" + std::to_string(*n_given - 1);
    if (max && *max >= *n_given) {
      env.Fail(Var(kSlurmMax, *max) + ": with --shard auto/" + std::to_string(*n_given) +
               " the array's indices are the shards' (submit --array=" + range + " or a subset of it)");
      return std::nullopt;
    }
    if (*id >= *n_given) {
      env.Fail(Var(kSlurmId, *id) + ": with --shard auto/" + std::to_string(*n_given) +
               " the array's indices are the shards' (submit --array=" + range + " or a subset of it)");
      return std::nullopt;
    }
    return Shard{static_cast<int>(*id) + 1, static_cast<int>(*n_given)};
  }
  if (!min) {
    env.Fail(Var(kSlurmId, *id) + " without " + kSlurmMin + " (Slurm sets both in an array job)");
    return std::nullopt;
  }
  if (!count && !max) {
    env.Fail(Var(kSlurmId, *id) + " without " + kSlurmCount + " or " + kSlurmMax +
             " (Slurm sets them in an array job)");
    return std::nullopt;
  }
  const int64_t s = step.value_or(1);
  if (s < 1) {
    env.Fail(Var(kSlurmStep, s) + ": expected a step of at least 1");
    return std::nullopt;
  }
  if (*id < *min || (*id - *min) % s != 0) {
    env.Fail(Var(kSlurmId, *id) + " is not an index of the array " + Var(kSlurmMin, *min) +
             (step ? ", " + Var(kSlurmStep, s) : ""));
    return std::nullopt;
  }
  if (max && *max < *min) {
    env.Fail(Var(kSlurmMax, *max) + " is below " + Var(kSlurmMin, *min));
    return std::nullopt;
  }
  // MIN..MAX with the step spans this many indices; COUNT is smaller for a list (--array=1,3,6).
  const int64_t span = max ? (*max - *min) / s + 1 : 0;
  if (count && max && *count != span) {
    env.Fail(Var(kSlurmCount, *count) + " but " + kSlurmMin + ".." + kSlurmMax + " (" + std::to_string(*min) +
             ".." + std::to_string(*max) + ", step " + std::to_string(s) + ") spans " + std::to_string(span) +
             " indices: --shard auto needs consecutive array indices (--array=A-B[:S]); "
             "use --shard auto/N with --array indices 0..N-1");
    return std::nullopt;
  }
  const int64_t n = count ? *count : span;
  if (n < 1) {
    env.Fail(Var(kSlurmCount, n) + ": expected an array of at least 1 task");
    return std::nullopt;
  }
  const int64_t k0 = (*id - *min) / s;
  if (k0 >= n) {
    env.Fail(Var(kSlurmId, *id) + " is beyond the array's " + std::to_string(n) + " indices from " +
             Var(kSlurmMin, *min));
    return std::nullopt;
  }
  return Shard{static_cast<int>(k0) + 1, static_cast<int>(n)};
}

std::optional<Shard> KubernetesShard(EnvReader& env, std::optional<int64_t> n_given) {
  const std::optional<int64_t> index = env.Get(kK8sIndex);
  if (env.failed() || !index) return std::nullopt;
  if (!n_given) {
    env.Fail(Var(kK8sIndex, *index) +
             " (a Kubernetes Indexed Job) does not tell the number of shards: give --shard auto/N with N = "
             "the Job's spec.completions");
    return std::nullopt;
  }
  if (*index >= *n_given) {
    env.Fail(Var(kK8sIndex, *index) + ": expected an index below " + std::to_string(*n_given) +
             " (the N of --shard auto/N must be the Job's spec.completions)");
    return std::nullopt;
  }
  return Shard{static_cast<int>(*index) + 1, static_cast<int>(*n_given)};
}

std::optional<Shard> AwsBatchShard(EnvReader& env, std::optional<int64_t> n_given) {
  const std::optional<int64_t> index = env.Get(kAwsIndex);
  const std::optional<int64_t> size = env.Get(kAwsSize);
  if (env.failed() || !index) return std::nullopt;
  if (!size && !n_given) {
    env.Fail(Var(kAwsIndex, *index) + " without " + kAwsSize +
             ": give --shard auto/N with N = the array size");
    return std::nullopt;
  }
  if (size && n_given && *size != *n_given) {
    env.Fail(Var(kAwsSize, *size) + " but --shard auto/" + std::to_string(*n_given) + " says " +
             std::to_string(*n_given) + " shards");
    return std::nullopt;
  }
  const int64_t n = n_given ? *n_given : *size;
  if (n < 1) {
    env.Fail(Var(kAwsSize, n) + ": expected an array of at least 1 child job");
    return std::nullopt;
  }
  if (*index >= n) {
    env.Fail(
        Var(kAwsIndex, *index) + ": expected an index below " +
        (size ? Var(kAwsSize, n) : "the " + std::to_string(n) + " of --shard auto/" + std::to_string(n)));
    return std::nullopt;
  }
  return Shard{static_cast<int>(*index) + 1, static_cast<int>(n)};
}

}  // namespace

bool IsAutoShard(const std::string& arg) { return arg == "auto" || arg.rfind("auto/", 0) == 0; }

std::optional<ResolvedShard> ResolveAutoShard(const std::string& arg, const EnvLookup& env,
                                              std::string* error) {
  const std::string prefix = "--shard " + arg + ": ";
  std::optional<int64_t> n_given;
  if (arg != "auto") {
    const std::string n_text = arg.substr(5);  // after "auto/"
    int64_t n = 0;
    const auto [p, ec] = std::from_chars(n_text.data(), n_text.data() + n_text.size(), n);
    if (n_text.empty() || ec != std::errc() || p != n_text.data() + n_text.size() || n < 1 || n > kMaxValue) {
      *error = prefix + "expected auto or auto/N with N >= 1 the number of shards (e.g. auto/4)";
      return std::nullopt;
    }
    n_given = n;
  }
  EnvReader reader(env, prefix);
  std::vector<const char*> present;
  for (const char* name : {kSlurmId, kK8sIndex, kAwsIndex}) {
    if (reader.IsSet(name)) present.push_back(name);
  }
  if (present.empty()) {
    *error = prefix + "no array-job index in the environment (looked for " + kSlurmId + ", " + kK8sIndex +
             ", " + kAwsIndex +
             "): run it as a Slurm array job, a Kubernetes Indexed Job or an AWS Batch array job, or give "
             "--shard K/N";
    return std::nullopt;
  }
  if (present.size() > 1) {
    std::string names;
    for (size_t i = 0; i < present.size(); ++i)
      names += (i == 0 ? "" : i + 1 == present.size() ? " and " : ", ") + std::string(present[i]);
    *error = prefix + names + (present.size() == 2 ? " are both set" : " are all set") +
             ": which scheduler's index is meant? Give --shard K/N";
    return std::nullopt;
  }
  std::optional<Shard> shard;
  if (present[0] == kSlurmId)
    shard = SlurmShard(reader, n_given);
  else if (present[0] == kK8sIndex)
    shard = KubernetesShard(reader, n_given);
  else
    shard = AwsBatchShard(reader, n_given);
  if (!shard) {
    *error = reader.error();
    return std::nullopt;
  }
  return ResolvedShard{*shard, reader.source()};
}

std::optional<ResolvedShard> ParseShardOption(const std::string& arg, const EnvLookup& env,
                                              std::string* error) {
  if (IsAutoShard(arg)) return ResolveAutoShard(arg, env, error);
  if (std::optional<Shard> shard = ParseShard(arg, error)) return ResolvedShard{*shard, ""};
  return std::nullopt;
}

}  // namespace aqesim::sweep
