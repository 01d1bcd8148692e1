// Resuming a tune: with -o OUT, every configuration simulated is appended to OUT + ".journal" as it
// finishes (tools/sweep/journal.h's LineJournal: header `{"aqesimTuneJournal":1,"fingerprint":...}`,
// then one evaluation per line). Running the same command again answers those configurations from
// the journal instead of simulating them; since the search asks for the same points in the same
// order and gets the same values (doubles are written to round-trip exactly), the output is the
// same bytes as an uninterrupted run's. The fingerprint covers everything an evaluation depends on
// — the scenario, --conf, --properties-file and --cost contents, the objective, the guardrails and
// the space — but not the seed or budget: a rerun with a larger budget reuses what was simulated.
// The journal is removed once OUT is written.
#ifndef AQESIM_TOOLS_TUNE_TUNE_JOURNAL_H_
#define AQESIM_TOOLS_TUNE_TUNE_JOURNAL_H_

#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tools/sweep/journal.h"
#include "tools/tune/objective.h"
#include "tools/tune/search.h"

namespace aqesim::tune {

/// One evaluation as a journal line: {"values": [...], "objective": x|null, "makespanSeconds",
/// "coreHours", "ratios": [...], "error": "..."}.
std::string EvaluationToJsonLine(const Evaluation& e);
/// Reads back what EvaluationToJsonLine wrote for `num_axes` values; nullopt when malformed or
/// when its numbers are not what an evaluation gives (an objective other than what `judgement`
/// makes of its positive ratios, negative seconds): such a line is dropped and the point simulated
/// again.
std::optional<Evaluation> EvaluationFromJson(const nlohmann::json& j, size_t num_axes,
                                             GuardrailJudgement judgement);

class TuneJournal {
 public:
  /// Opens (or starts) `path`; null with `*error` when it cannot be read or written.
  static std::unique_ptr<TuneJournal> Open(const std::string& path, const std::string& fingerprint,
                                           size_t num_axes, GuardrailJudgement judgement, std::string* error);
  /// The journaled evaluation of `values`, if any. Thread-safe.
  std::optional<Evaluation> Find(const std::vector<std::string>& values) const;
  /// Appends `e` (thread-safe); a failed write is kept in error() and later records are skipped.
  void Record(const Evaluation& e);
  size_t resumed() const { return resumed_; }
  int dropped_lines() const { return dropped_lines_; }
  const std::string& error() const { return error_; }
  const std::string& path() const { return lines_->path(); }

 private:
  explicit TuneJournal(std::unique_ptr<sweep::LineJournal> lines) : lines_(std::move(lines)) {}
  std::unique_ptr<sweep::LineJournal> lines_;
  std::map<std::vector<std::string>, Evaluation> cache_;
  size_t resumed_ = 0;
  int dropped_lines_ = 0;
  mutable std::mutex mu_;
  std::string error_;
};

}  // namespace aqesim::tune

#endif  // AQESIM_TOOLS_TUNE_TUNE_JOURNAL_H_
