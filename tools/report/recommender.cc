#include "tools/report/recommender.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "models/conf/property_value.h"
#include "tools/report/probe_grid.h"
#include "tools/text/aqe_slowdown_text.h"
#include "tools/text/table_text.h"

namespace aqesim::report {

namespace {

bool SameValue(const std::string& a, const std::string& b) {
  if (a == b) return true;
  const std::optional<int64_t> x = ParseByteString(a), y = ParseByteString(b);
  if (x && y) return *x == *y;
  char* ea = nullptr;
  char* eb = nullptr;
  const double da = std::strtod(a.c_str(), &ea), db = std::strtod(b.c_str(), &eb);
  return !a.empty() && !b.empty() && *ea == '\0' && *eb == '\0' && da == db;
}

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The rules' recommendation checked by simulation (a RESULT.json, or a scenario with nothing to sweep).
Recommendation CheckedRules(const ReportInput& in, const TuningFacts& facts, Recommendation rules) {
  const bool adaptive = facts.conf.adaptive_enabled;
  if ((adaptive && facts.has_aqe_on) || (!adaptive && facts.has_aqe_off))
    CheckBySimulation(&rules, adaptive ? facts.makespan_seconds_aqe_on : facts.makespan_seconds_aqe_off,
                      in.makespan_with, in.guardrails_with);
  return rules;
}

}  // namespace

Recommendation RecommendFromPoints(const sweep::SweepDocument& sweep, const MakespanWith& makespan_with,
                                   SweepBest* best, const GuardrailsWith& guardrails_with) {
  Recommendation rec = RecommendFromSweep(sweep, best);
  if (!makespan_with || rec.lines.empty()) return rec;
  const SimulatedMakespan now = makespan_with({});
  if (!now.seconds) return rec;
  CheckBySimulation(&rec, *now.seconds, makespan_with, guardrails_with);
  // The simulation may drop spark.sql.adaptive.enabled (no gain alone): the diagnosis no longer says to set
  // it.
  const std::string turn_on = " AQE beats the scenario's static plan: turn it on.";
  if (const size_t at = rec.diagnosis.find(turn_on);
      at != std::string::npos && !rec.Sets("spark.sql.adaptive.enabled"))
    rec.diagnosis.erase(at, turn_on.size());
  if (rec.lines.empty()) {
    // Withdrawn: the pick's own note and diagnosis would contradict "nothing is recommended".
    rec.notes.erase(std::remove_if(rec.notes.begin(), rec.notes.end(),
                                   [](const std::string& n) {
                                     return StartsWith(n, "Point ") &&
                                            n.find("it is the one recommended") != std::string::npos;
                                   }),
                    rec.notes.end());
    rec.diagnosis =
        "No change recommended: simulated on the scenario, the sweep's pick gains less than " +
        Fixed(100 * kMinGain, 0) + "%" +
        (guardrails_with ? " as given or on average over tune's guardrails, or loses on one of them." : ".");
  }
  return rec;
}

Recommendation RecommendForSweep(const ReportInput& in, SweepBest* best) {
  return RecommendFromPoints(in.sweep, in.makespan_with, best, in.guardrails_with);
}

namespace {

const char* const kMinPartitionNumKey = "spark.sql.adaptive.coalescePartitions.minPartitionNum";

// AQE on slower than off because coalescing left fewer tasks than slots
// (tools/text/aqe_slowdown_text.h): the rules propose the minPartitionNum that keeps two waves,
// to be swept and checked by simulation like any other proposal.
void ProposeMinPartitionNum(const ReportInput& in, Recommendation* rules) {
  if (!in.run_off || !in.run_on) return;
  const int slots = in.run_on->resources.peak_cores;
  const std::optional<AqeSlowdown> slow = FindAqeSlowdown(*in.run_off, *in.run_on, slots);
  if (!slow) return;
  rules->lines.push_back(
      {kMinPartitionNumKey, std::to_string(slow->min_partition_num),
       "AQE on is slower than off: coalescing leaves stage " + std::to_string(slow->on->id) + " (" +
           slow->on->name + ") " + Counted(slow->on->tasks, "task") + " on " + Counted(slots, "slot") + " (" +
           std::to_string(slow->off->tasks) + " without AQE); " + std::to_string(slow->min_partition_num) +
           " keeps at least two waves (" + kMinPartitionNumDeprecation + ")"});
}

Recommendation RecommendForRunAlone(const ReportInput& in, const TuningFacts& facts) {
  Recommendation rules = Recommend(facts);
  ProposeMinPartitionNum(in, &rules);
  if (!in.sweep_with) return CheckedRules(in, facts, std::move(rules));
  const std::vector<sweep::GridAxis> grid = ProbeGrid(facts, in.conf, rules);
  if (grid.empty()) return CheckedRules(in, facts, std::move(rules));
  std::string error;
  const std::optional<sweep::SweepDocument> swept = in.sweep_with(grid, &error);
  if (!swept) {
    rules.notes.push_back("The keys could not be swept (" + error +
                          "): the rules' settings are checked alone.");
    return CheckedRules(in, facts, std::move(rules));
  }
  SweepBest best;
  Recommendation picked = RecommendFromPoints(*swept, in.makespan_with, &best, in.guardrails_with);
  // What limits the run, the warnings and the "why not" advice stay the rules'; what to set is
  // the sweep's pick. A picked line the rules proposed keeps the rules' reason.
  Recommendation r;
  r.diagnosis = rules.diagnosis;
  if (!picked.lines.empty() && (rules.lines.empty() || StartsWith(rules.diagnosis, "Nothing to change")))
    r.diagnosis = picked.diagnosis;
  // What limits the run stays said; that nothing is to be set must be too (one recommendation).
  if (picked.lines.empty() && !rules.lines.empty())
    r.diagnosis += " Simulated, no setting the report swept gains " + Fixed(100 * kMinGain, 0) +
                   "% here: nothing to set (aqesim tune searches these keys more finely).";
  r.warnings = rules.warnings;
  for (ConfLine line : picked.lines) {
    for (const ConfLine& proposed : rules.lines) {
      if (proposed.key == line.key && SameValue(proposed.value, line.value))
        line.reason = proposed.reason + "; " + line.reason;
    }
    r.lines.push_back(std::move(line));
  }
  r.notes = rules.notes;
  // A rules' proposal the pick leaves at the scenario's value: what it would add to the pick.
  if (!picked.lines.empty() && in.makespan_with) {
    const SimulatedMakespan pick = in.makespan_with(picked.lines);
    for (const ConfLine& proposed : rules.lines) {
      if (picked.Sets(proposed.key) || !pick.seconds) continue;
      if (std::none_of(grid.begin(), grid.end(),
                       [&](const sweep::GridAxis& a) { return a.key == proposed.key; }))
        continue;
      std::vector<ConfLine> both = picked.lines;
      both.push_back(proposed);
      const SimulatedMakespan with = in.makespan_with(both);
      if (!with.seconds || *with.seconds < (1 - kMinGain) * *pick.seconds) continue;
      r.notes.push_back("Not recommending " + proposed.key + " " + proposed.value + ": with it " +
                        TrustedSeconds(with) + " against " + TrustedSeconds(pick) +
                        " without it, less than a " + Fixed(100 * kMinGain, 0) + "% gain.");
    }
  }
  // Skew is the rules' to explain: they know an aggregate's hot key from a join's (no skew-join
  // key helps the former), the sweep's rows do not.
  for (std::string& n : picked.notes) {
    if (StartsWith(n, "Keep spark.sql.adaptive.skewJoin.enabled") || StartsWith(n, "The slowness is skew:"))
      continue;
    r.notes.push_back(std::move(n));
  }
  std::string keys;
  for (const sweep::GridAxis& a : grid) keys += (keys.empty() ? "" : ", ") + a.key;
  r.notes.push_back("What to set was decided as for a sweep of " + std::to_string(swept->rows.size()) +
                    " points over " + keys +
                    " (the scenario's own values, the rules' proposals and around them); " +
                    "aqesim report on its JSON recommends the same: " + SweepCommand(swept->info));
  return r;
}

}  // namespace

Recommendation RecommendForRun(const ReportInput& in, const TuningFacts& facts) {
  Recommendation r = RecommendForRunAlone(in, facts);
  if (!in.run_off || !in.run_on) return r;
  // AQE on slower than off: why, first (tools/text/aqe_slowdown_text.h).
  const int slots = in.run_on->resources.peak_cores;
  const std::optional<AqeSlowdown> slow = FindAqeSlowdown(*in.run_off, *in.run_on, slots);
  if (!slow) return r;
  r.notes.insert(r.notes.begin(), *AqeSlowdownText(*in.run_off, *in.run_on, slots) + ".");
  // The headline names it, and whether the key that fixes it held up in simulation.
  const std::string head = "AQE on is slower than off (" +
                           TrustedSeconds(in.run_off->makespan_seconds, in.band_off, in.bands_known) + " → " +
                           TrustedSeconds(in.run_on->makespan_seconds, in.band_on, in.bands_known) +
                           "): coalescing leaves stage " + std::to_string(slow->on->id) + " (" +
                           slow->on->name + ") " + Counted(slow->on->tasks, "task") + " on " +
                           Counted(slots, "slot");
  const auto line = std::find_if(r.lines.begin(), r.lines.end(),
                                 [](const ConfLine& l) { return l.key == kMinPartitionNumKey; });
  if (line != r.lines.end())
    r.diagnosis = head + ": set " + line->key + " " + line->value + ". " + r.diagnosis;
  else if (StartsWith(r.diagnosis, "Nothing to change"))
    r.diagnosis = head + ". Simulated, " + kMinPartitionNumKey + " " +
                  std::to_string(slow->min_partition_num) + " does not gain " + Fixed(100 * kMinGain, 0) +
                  "% on average over the copies of the scenario aqesim tune judges, or loses on one of them "
                  "(the notes say which): nothing to set.";
  return r;
}

}  // namespace aqesim::report
