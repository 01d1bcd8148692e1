// The order in which FAIR scheduling offers a free slot to schedulables (pools, or the task sets
// of a FAIR pool): Spark's FairSchedulingAlgorithm
// (core/src/main/scala/org/apache/spark/scheduler/SchedulingAlgorithm.scala) — a schedulable
// running fewer tasks than its minShare first, then the lower running ÷ minShare (needy) or
// running ÷ weight, then the name — with the submission order as a last tie-break.
#ifndef AQESIM_SIM_FAIR_ORDER_H_
#define AQESIM_SIM_FAIR_ORDER_H_

#include <string>

namespace aqesim {

/// A schedulable as the comparison sees it: running tasks, minShare, weight, name, and its
/// submission order (the last tie-break).
struct FairKey {
  int running = 0;
  int min_share = 0;
  int weight = 1;
  std::string name;
  int order = 0;
};

/// Whether `a` comes before `b`.
bool FairFirst(const FairKey& a, const FairKey& b);

}  // namespace aqesim

#endif  // AQESIM_SIM_FAIR_ORDER_H_
