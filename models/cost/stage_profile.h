// A recorded stage profile: how long the tasks of one stage took in a recorded run, summarised
// so that a replay — or a what-if that resizes the stage's tasks — reproduces them. The
// importer measures it (tools/eventlog); a scenario carries it under `profiles`, keyed by the
// simulator's stage name ("e3 map", "j2 broadcast", "result"); the engine times a stage with
// its profile when it has one, with the global cost model (cost_model.h) otherwise.
// README "Recorded profiles" has the same formula.
//
// A task of a profiled stage takes
//
//   T = O[w] + (A + B · U) · R
//
//   w  first wave when the task is among the first S_e tasks of the stage launched on its
//      executor (S_e = the executor's slots), later otherwise
//   O  overheadSeconds[w]: the recorded median of (Finish − Launch − Executor Run Time):
//      scheduler delay, task deserialization, result serialization and fetching
//   U  the task's row-operations: rowOps × (task input bytes ÷ inputBytes) — rows in proportion
//      to bytes, so a what-if that resizes a task resizes its rows; input bytes = bytes read
//      from storage and from shuffles (broadcast relations aside); rowOps / tasks when the
//      stage read nothing. rowOps = the recorded stage's records read (Σ Input Records +
//      Shuffle Records Read of its tasks)
//   A  fixedSeconds, B secondsPerRowOp (run time per task and per row-operation; "rates" says
//      how the importer identified them)
//   R  the residual: recorded ÷ (O + A + B · U) of the recorded tasks. The critical task's own
//      residual (the task whose end completed the recorded stage) when the replayed stage has
//      the recorded task count; any other task draws from the table of its wave and of its
//      third of the stage (by launch order within its wave: early, middle, late), at
//      u = the (j+1)-th term of the base-2 van der Corput sequence for the j-th task drawn from
//      that wave — deterministic and stratified: n draws cover a table evenly, no RNG.
//      Tables hold 21 quantiles (0, 5, …, 100%), linearly interpolated.
//
// Resized stages: a profile applied to a stage whose task count differs from the recorded one
// (a changed partition count, coalescing, a skew split, `validate --profile-from`) keeps the
// per-task overhead O[w] per task, prices each task's own rows and keeps the first-wave cost
// per executor. How depends on whether the recorded stage had warm tasks (later-wave ones):
//
// With later tasks recorded (residual tables of the later wave):
//   A + B · U           the run of a task of U row-operations; for a "fixed" profile of a stage
//                       that read input (its tasks were alike) A · U ÷ Ū, Ū = rowOps ÷ tasks:
//                       the warm tasks' run per row-operation
//   later wave          T = (O[later] + run(U)) · R
//   first wave          T = (O[first] + run(Ū)) · R + (run(U) − run(Ū)) · R̃, at least
//                       (O[first] + run(U)) · min(R, R̃); R̃ = the median residual of the later
//                       wave (warm tasks): the recorded first-wave task of the recorded mean size
//                       and the size difference at the warm rate (a first-wave task's extra —
//                       code not yet compiled, a JVM warming up — is per task, not per row).
// Without (every recorded task was its executor's first wave: its run is a cold task's — the
// join_agg EMR runs' 16 coalesced reducers, 1.5 s each on 30 slots): a warm task was never
// seen, so its run is the work of its rows at a rate B' and no more:
//   B'                  B when > 0 (rates "stage", "log"), else the log's rate (LogRates: the
//                       median B of the scenario's "stage"-rated profiles, as the importer's
//                       "log"), else the cost model's warm work of the task ÷ U
//   first wave          T = (O[first] + C + B'' · U) · R, C = min(C₀, K), C₀ = max(0, A + B · Ū
//                       − B' · Ū): the recorded cold task's run beyond the work of its rows, paid
//                       per task of the first wave (per executor slot), not per row — at most K,
//                       what a cold start can cost a task (LogRates: the largest first-wave extra
//                       of the log's profiles with later tasks, or the cost model's most for a
//                       first task on a fresh executor, executorStartupSeconds +
//                       executorStageWarmupSeconds + coldCodeSlowdown × coldCodeWindowSeconds,
//                       whichever is larger); B'' = B' + (C₀ − C) ÷ Ū: a recorded run longer than
//                       any cold start is work on its rows (when Ū = 0, per task in every wave)
//   later wave          T = (O' + B'' · U) · R, O' = the log's warm overhead (LogRates: the median
//                       O[later] of the scenario's profiles that recorded later tasks), else
//                       O[later]; R drawn from the first wave's tables
// Never the recorded per-task time × the new task count. The critical task keeps no residual
// of its own (nor its own spill). A stage resized by kResizedMarkFactor or more (ResizeFactor)
// is marked resized (`resizedBy` in run and validate) and its tasks scale with the cost's
// modelledTimeScale, so the uncertainty band (models/engine/simulated_band.h) covers it: it
// is an extrapolation.
//
// Spill (models/cost/profile_spill.h): every task above also pays S = W × secondsPerByte when
// its working set W = U × recordBytes exceeds its execution memory M (Spark's unified memory
// manager), 0 otherwise. The importer takes each recorded task's spill seconds out of its time
// before it fits A, B and the residuals (`spill`: what the recorded spilling tasks paid), so the
// first-wave extra above holds the cold start only and a what-if charges spill only to the
// tasks it makes spill; a profile whose run did not spill gets the fallback pricing there.
//
// Driver times of the stage (seconds): launchDelaySeconds from submission to the first
// possible launch (instead of stageOverheadSeconds), tailSeconds from its last task's end to
// its completion, submitGapSeconds from its trigger — the latest completion among the stages it
// waits for (its plan parents and the stages named in waitsFor), or the query's start + driver
// startSeconds — to its submission.
#ifndef AQESIM_MODELS_COST_STAGE_PROFILE_H_
#define AQESIM_MODELS_COST_STAGE_PROFILE_H_

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/cost/profile_spill.h"

namespace aqesim {

/// Number of quantiles in a residual table (0%, 5%, …, 100%).
inline constexpr int kResidualQuantiles = 21;

struct StageProfile {
  std::optional<int> recorded_stage;  // the recorded stage id (informational)
  int tasks = 1;                      // the recorded stage's task count, >= 1
  int64_t input_bytes = 0;            // Σ recorded task input bytes (storage + shuffle reads)
  double row_ops = 0;                 // Σ recorded row-operations (see the header comment)
  double overhead_first_wave_seconds = 0;
  double overhead_later_seconds = 0;
  double fixed_seconds = 0;       // A
  double seconds_per_row_op = 0;  // B
  std::string rates;              // "stage" | "log" | "fixed": how A and B were identified
  /// residuals[0] first wave, residuals[1] later; each 1 to 3 tables (thirds of the wave in
  /// launch order) of kResidualQuantiles non-decreasing values >= 0.
  std::array<std::vector<std::vector<double>>, 2> residuals;
  struct Critical {
    int task = 0;  // its index (partition) in the stage
    double residual = 1;
    /// Its own recorded spill seconds (JSON `spillSeconds`; profile_spill.h), which it pays at
    /// the recorded task count instead of the spill term: spilling tasks differ more than
    /// their working sets (GC pauses of their own JVMs).
    std::optional<double> spill_seconds;
  };
  std::optional<Critical> critical;
  /// What the recorded stage's spilling tasks (Memory Bytes Spilled > 0) spilled and paid
  /// (JSON `spill`; README "Recorded profiles"); absent when none spilled.
  struct Spill {
    int tasks = 0;             // spilling tasks
    int64_t memory_bytes = 0;  // Σ Memory Bytes Spilled
    int64_t disk_bytes = 0;    // Σ Disk Bytes Spilled
    double gc_seconds = 0;     // Σ JVM GC Time of the spilling tasks
    double seconds = 0;        // Σ their spill seconds (tools/eventlog/stage_profile_import.h)
    double record_bytes = 0;   // memory_bytes ÷ the records they read: in-memory bytes per record
  };
  std::optional<Spill> spill;
  double launch_delay_seconds = 0;
  double tail_seconds = 0;
  std::optional<double> submit_gap_seconds;
  /// Stages (by name) whose completion the recorded submission waited for besides the stages
  /// the plan makes it wait for (JSON `waitsFor`): the trigger is the latest completion among
  /// both. A named stage that does not exist (yet) when this one is created, or that waits for
  /// this one, is not waited for.
  std::vector<std::string> waits_for;
  int resource_profile = 0;
  std::string operators;  // the recorded stage's operators (informational)
  /// A task attempt of the recorded stage that did not leave its partition's output (JSON
  /// `failedAttempts`, README "Recorded profiles"; replayed by models/engine/recorded_failures.h):
  /// it held a slot for `seconds`, then its partition ran again.
  struct FailedAttempt {
    int task = 0;        // the partition (Task Info.Index), in [0, tasks)
    double seconds = 0;  // Finish − Launch
    /// Spark's TaskEndReason: "ExceptionFailure", "ExecutorLostFailure", "FetchFailed",
    /// "TaskKilled", "TaskResultLost", "TaskCommitDenied", "UnknownReason", or "Resubmitted" (a
    /// successful map task whose output was lost with its executor).
    std::string reason;
    bool caused_by_app = true;       // ExecutorLostFailure: Exit Caused By App (JSON `causedByApp`)
    bool stage_resubmitted = false;  // FetchFailed: the stage ran again (JSON `stageResubmitted`)
    double retry_after_seconds = 0;  // from its end until the partition was pending again
    std::string executor;            // the recorded executor id (informational)
  };
  /// In the recorded order (per partition: attempt order); a partition's last successful attempt
  /// is the stage's task above, not listed here.
  std::vector<FailedAttempt> failed_attempts;
};

/// What a resized profile whose recorded tasks were all first-wave borrows from the rest of its
/// log (the header comment's "Resized stages"); each absent when no profile gives it.
struct LogRates {
  std::optional<double> seconds_per_row_op;     // median B of the "stage"-rated profiles
  std::optional<double> warm_overhead_seconds;  // median O[later] of profiles with later tasks
  /// K: the most a cold start costs one first-wave task, seconds (the header comment); absent:
  /// no bound (the whole C₀ is cold).
  std::optional<double> cold_start_cap_seconds;
};

/// LogRates of a scenario's profiles. `model_cold_start_seconds`: the cost model's most for a
/// first task on a fresh executor (executorStartupSeconds + executorStageWarmupSeconds +
/// coldCodeSlowdown × coldCodeWindowSeconds); K is the larger of it and the largest first-wave
/// extra of the profiles with later tasks, (O[first] + run(Ū)) · median R[first] − (O[later] +
/// run(Ū)) · median R[later].
LogRates LogResizeRates(const std::map<std::string, StageProfile>& profiles, double model_cold_start_seconds);

/// The first-wave extra of a profile with later tasks (LogResizeRates), seconds, >= 0; nullopt
/// without later tasks.
std::optional<double> FirstWaveExtraSeconds(const StageProfile& profile);

/// A stage resized by this factor or more is marked resized and carries the band.
inline constexpr double kResizedMarkFactor = 2.0;

/// How far a stage of `num_tasks` tasks is resized from `profile`: max(n ÷ tasks, tasks ÷ n).
double ResizeFactor(const StageProfile& profile, int num_tasks);

/// The time of one profiled stage's tasks, drawn as they launch (the header comment's formula).
/// One per stage run; deterministic for a given launch order.
class ProfiledStageTimes {
 public:
  /// `num_tasks`: the replayed stage's tasks; `total_slots`: the cluster's task slots (the
  /// first wave is expected to take min(num_tasks, total_slots) of them).
  /// `spill`: how its tasks pay for spilling (models/cost/profile_spill.h), none when absent.
  /// `log`: the rates a resized profile without later tasks borrows (LogResizeRates).
  ProfiledStageTimes(const StageProfile& profile, int num_tasks, int total_slots,
                     std::optional<SpillPricing> spill = std::nullopt, LogRates log = {});

  /// Seconds of task `task` (its partition index), reading `input_bytes`, launched in the first
  /// wave on its executor or not. Call once per task, in launch order. `modelled_work`: the
  /// cost model's warm work seconds of the task, needed only when NeedsModelledWork().
  double TaskSeconds(int task, int64_t input_bytes, bool first_wave,
                     std::optional<double> modelled_work = std::nullopt);

  /// True when the stage is resized, its recorded tasks were all first-wave and neither the
  /// profile nor its log has a per-row rate: the cost model prices its tasks' rows.
  bool NeedsModelledWork() const;

  /// Row-operations of a task reading `input_bytes` (U).
  double RowOps(int64_t input_bytes) const;

 private:
  /// TaskSeconds without the spill term.
  double WorkSeconds(int task, int64_t input_bytes, bool first_wave, std::optional<double> modelled_work);

  const StageProfile& profile_;
  LogRates log_;
  int num_tasks_;
  std::optional<SpillPricing> spill_;
  std::array<int, 2> expected_{};  // expected tasks per wave
  std::array<int, 2> drawn_{};     // tasks drawn per wave so far
};

/// The base-2 van der Corput sequence: 1 → 0.5, 2 → 0.25, 3 → 0.75, 4 → 0.125, …
double VanDerCorput(uint64_t n);
/// A quantile table (kResidualQuantiles values at 0, 5, …, 100%) at u ∈ [0, 1], interpolated.
double QuantileAt(const std::vector<double>& table, double u);

}  // namespace aqesim

#endif  // AQESIM_MODELS_COST_STAGE_PROFILE_H_
