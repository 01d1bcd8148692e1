// The search loop of `aqesim tune`: dlib's global_function_search (the LIPO + trust-region
// optimiser behind dlib::find_min_global, dlib/global_optimization/global_function_search.h)
// proposes points of the space (search_space.h), and the objective simulates them.
//
// Determinism: the optimiser is seeded with the seed given and asked for a fixed batch of
// kBatch points at a time; the new ones among them are evaluated on up to `threads` threads and
// reported back in the order they were requested, so the sequence of points — and every output —
// is the same for a seed at any thread count. Points the optimiser proposes again (integer and
// rounded variables make that common) are answered from the evaluations already made, without
// simulating, and do not count against the budget.
//
// Two phases: the optimiser gets kGlobalShare of the budget; the rest goes to the neighbourhood
// of its best point (a compass search: every variable one step down and up, as one batch; move to
// the best neighbour when it improves, else halve the steps — choices always step by one value —
// until a step no longer changes any value). The global optimiser finds the basin, the
// neighbourhood its floor: on a 216-point AQE grid whose best lies one value away from where the
// optimiser stopped (dynamic-allocation.json: advisory size 128m, not 64m), the optimiser alone
// came within 2 % of the grid's best for 2 seeds of 10.
//
// Stops after `budget` distinct evaluations, once every point of a finite space has been
// evaluated, or after kMaxRequestsPerEvaluation × budget proposals (a space the optimiser keeps
// revisiting).
#ifndef AQESIM_TOOLS_TUNE_SEARCH_H_
#define AQESIM_TOOLS_TUNE_SEARCH_H_

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tools/tune/search_space.h"

namespace aqesim::tune {

/// The most configurations one search simulates: dlib's upper-bound model costs grow faster than
/// the evaluations (skew-join.json without guardrails: 500 in 2.6 s, 1000 in 14 s, 2000 in 70 s).
inline constexpr int kMaxBudget = 2000;

/// Points requested from the optimiser at once (independent of the thread count).
inline constexpr int kBatch = 4;
inline constexpr int kMaxRequestsPerEvaluation = 50;
/// The global optimiser's share of the budget.
inline constexpr double kGlobalShare = 0.6;
/// A variable's first neighbourhood step: its range ÷ this (at least 1 for an integer).
inline constexpr double kInitialStepDivisions = 8;

/// What the objective made of one point. Lower `objective` is better; a point that could not
/// be simulated has `error` and an infinite objective (the optimiser is told a value worse than
/// any seen).
struct Evaluation {
  std::vector<std::string> values;  // one per axis
  double objective = std::numeric_limits<double>::infinity();
  double makespan_seconds = 0;  // the unperturbed run's
  double core_hours = 0;        // the unperturbed run's available core-hours
  /// The objective's value under each guardrail perturbation ÷ the current configuration's
  /// under the same one (objective.h), in the perturbations' order.
  std::vector<double> ratios;
  std::string error;
};

/// Evaluates one point; called from several threads at once.
using Objective = std::function<Evaluation(const std::vector<std::string>& values)>;

struct SearchSpec {
  std::vector<SpaceAxis> axes;
  int budget = 100;  // distinct points evaluated, at most
  uint64_t seed = 0;
  int threads = 1;
  /// Called after each batch with the evaluations made so far (progress on stderr).
  std::function<void(int evaluated, int budget)> progress;
};

struct SearchResult {
  std::vector<Evaluation> evaluations;  // in evaluation order (the trace)
  /// Index in `evaluations` of the best (least objective; the earliest on a tie); -1 when every
  /// point failed.
  int best = -1;
  int64_t requests = 0;    // points the optimiser proposed
  bool exhausted = false;  // every point of a finite space was evaluated
};

SearchResult Search(const SearchSpec& spec, const Objective& objective);

}  // namespace aqesim::tune

#endif  // AQESIM_TOOLS_TUNE_SEARCH_H_
