// Why AQE on is slower than AQE off, in one line, as `run` and the report print it: the stage whose
// time grew most after CoalesceShufflePartitions left it fewer, larger tasks — a partial second
// wave, or one wave whose slowest task sets the end where many small tasks balanced over several
// waves — and the key that keeps more partitions (CoalesceShufflePartitions takes at least
// spark.sql.adaptive.coalescePartitions.minPartitionNum partitions: full waves of slots, at least
// two, and more than the stage runs now, so that the advice never repeats the current value).
//   AQE on is slower (33.926 s → 37.581 s): stage 1 (result) runs 40 tasks on 40 slots after
//   coalescing (200 before), one wave of tasks 5.0× larger whose slowest (12.02 s, median 6.02 s)
//   sets its end, where AQE off balanced 200 smaller tasks over 5 waves (the stage: 8.44 s →
//   12.03 s); keep more partitions than slots: spark.sql.adaptive.coalescePartitions.minPartitionNum
//   80 (deprecated since Spark 3.2 but still read by Spark 4.0; a smaller
//   spark.sql.adaptive.advisoryPartitionSizeInBytes gets the same effect)
#ifndef AQESIM_TOOLS_TEXT_AQE_SLOWDOWN_TEXT_H_
#define AQESIM_TOOLS_TEXT_AQE_SLOWDOWN_TEXT_H_

#include <algorithm>
#include <optional>
#include <string>

#include "models/aqe/decision.h"
#include "models/engine/run_result.h"
#include "tools/text/table_text.h"

namespace aqesim {

/// Said wherever minPartitionNum is proposed: Spark 3.2 deprecated it in favour of minPartitionSize,
/// which cannot keep the count above the slots; CoalesceShufflePartitions in 4.0 still reads it.
inline constexpr const char* kMinPartitionNumDeprecation =
    "deprecated since Spark 3.2 but still read by Spark 4.0; a smaller "
    "spark.sql.adaptive.advisoryPartitionSizeInBytes gets the same effect";

/// AQE on slower than this fraction over AQE off is explained.
inline constexpr double kAqeSlowerRatio = 1.02;

/// The stage that explains AQE on slower than AQE off: the one whose time grew most after
/// CoalesceShufflePartitions left it fewer tasks than AQE off ran, and the minPartitionNum that
/// keeps more partitions than slots (the next full wave above its tasks, at least two waves).
struct AqeSlowdown {
  const StageResult* on = nullptr;
  const StageResult* off = nullptr;
  int min_partition_num = 0;
};

/// nullopt when AQE on is not slower (kAqeSlowerRatio) or no coalesced stage explains it.
/// `slots`: the cluster's task slots (cores ÷ spark.task.cpus).
inline std::optional<AqeSlowdown> FindAqeSlowdown(const RunResult& off, const RunResult& on, int slots) {
  if (slots <= 0 || !(on.makespan_seconds > kAqeSlowerRatio * off.makespan_seconds)) return std::nullopt;
  AqeSlowdown found;
  double worst = 0;
  for (const StageResult& s : on.stages) {
    for (const StageResult& o : off.stages) {
      if (o.name != s.name || s.tasks <= 0 || s.tasks >= o.tasks) continue;
      const double grew = (s.complete_seconds - s.submit_seconds) - (o.complete_seconds - o.submit_seconds);
      if (grew > worst) {
        worst = grew;
        found.on = &s;
        found.off = &o;
      }
    }
  }
  if (found.on == nullptr) return std::nullopt;
  found.min_partition_num = std::max(2, found.on->tasks / slots + 1) * slots;
  return found;
}

/// The line, or nullopt when FindAqeSlowdown finds nothing.
inline std::optional<std::string> AqeSlowdownText(const RunResult& off, const RunResult& on, int slots) {
  const std::optional<AqeSlowdown> found = FindAqeSlowdown(off, on, slots);
  if (!found) return std::nullopt;
  const StageResult& s = *found->on;
  const StageResult& o = *found->off;
  const int waves_on = (s.tasks + slots - 1) / slots, waves_off = (o.tasks + slots - 1) / slots;
  const std::string stage = "stage " + std::to_string(s.id) + " (" + s.name + ")";
  std::string why = "AQE on is slower (" + Fixed(off.makespan_seconds, 3) + " s → " +
                    Fixed(on.makespan_seconds, 3) + " s): " + stage + " runs " + Counted(s.tasks, "task") +
                    " on " + Counted(slots, "slot") + " after coalescing (" + std::to_string(o.tasks) +
                    " before), ";
  const int last_wave = s.tasks - (waves_on - 1) * slots;
  if (waves_on > 1 && last_wave < slots)
    why += "so a wave of " + Counted(last_wave, "task") + " runs after the first " +
           (waves_on > 2 ? std::to_string(waves_on - 1) + " full waves" : std::string("full wave")) +
           " while the other slots idle";
  else
    why += std::string(waves_on == 1 ? "one wave" : Counted(waves_on, "wave")) + " of tasks " +
           Fixed(static_cast<double>(o.tasks) / static_cast<double>(s.tasks), 1) +
           "× larger whose slowest (" + Fixed(s.task_max_seconds, 2) + " s, median " +
           Fixed(s.task_median_seconds, 2) + " s) sets its end";
  why += ", where AQE off balanced " + std::to_string(o.tasks) + " smaller tasks over " +
         Counted(waves_off, "wave") + " (the stage: " + Fixed(o.complete_seconds - o.submit_seconds, 2) +
         " s → " + Fixed(s.complete_seconds - s.submit_seconds, 2) +
         " s); keep more partitions than slots: spark.sql.adaptive.coalescePartitions.minPartitionNum " +
         std::to_string(found->min_partition_num) + " (" + kMinPartitionNumDeprecation + ")";
  return why;
}

}  // namespace aqesim

#endif  // AQESIM_TOOLS_TEXT_AQE_SLOWDOWN_TEXT_H_
