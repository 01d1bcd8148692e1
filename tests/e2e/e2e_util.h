// Helpers for the end-to-end tests: run the aqesim binary on a scenario, capture its output,
// and read the `aqesim explain` JSON (docs/user-contract.md §3).
#ifndef AQESIM_TESTS_E2E_E2E_UTIL_H_
#define AQESIM_TESTS_E2E_E2E_UTIL_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace aqesim::e2e {

/// What one run of the binary produced.
struct CommandResult {
  int exit_code = -1;  // the process's exit status; -1 if it could not be run or was killed
  std::string stdout_text;
  std::string stderr_text;
};

/// Path of the aqesim binary (compile definition AQESIM_BINARY).
std::string BinaryPath();
/// Absolute path of a file under the source tree (compile definition AQESIM_SOURCE_DIR),
/// e.g. SourcePath("scenarios/cases/c10_empty_between_skewed.json").
std::string SourcePath(const std::string& relative);

/// Runs `aqesim ARGS...` (no shell: arguments are passed verbatim) and waits for it. `env`
/// changes the child's environment: a name with a value is set, a name with nullopt unset.
CommandResult RunAqesim(const std::vector<std::string>& args,
                        const std::map<std::string, std::optional<std::string>>& env = {});

/// `part` occurs in `text` (an output checked line by line, word for word).
inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// `aqesim explain SCENARIO --conf K=V ...`; the parsed stdout. Throws std::runtime_error
/// (with the exit code and stderr in the message) if the command fails or prints no JSON.
nlohmann::json Explain(const std::string& scenario_relative_path, const std::vector<std::string>& confs = {});

// ---- queries over an explain document ----------------------------------------------

/// The exchange entry with this id; throws std::runtime_error if absent.
const nlohmann::json& ExchangeById(const nlohmann::json& explain, const std::string& id);
/// The join entry with this id; throws std::runtime_error if absent.
const nlohmann::json& JoinById(const nlohmann::json& explain, const std::string& id);
/// The specs of the read of this exchange (the last one listed); throws if the exchange has no read.
const nlohmann::json& ReadSpecsOf(const nlohmann::json& explain, const std::string& exchange_id);
/// Decisions of one rule, in order.
std::vector<nlohmann::json> DecisionsOf(const nlohmann::json& explain, const std::string& rule);

/// Number of specs of a given type ("PartialReducerPartitionSpec", ...) in a spec list.
int CountSpecs(const nlohmann::json& specs, const std::string& type);
/// Distinct reducer indexes of the PartialReducerPartitionSpec entries of a spec list.
std::vector<int> SplitReducers(const nlohmann::json& specs);
/// Distinct startMapIndex values of the PartialReducerPartitionSpec entries of `reducer`,
/// ascending (the split's start indices; copies made by the join's cross product count once).
std::vector<int> SplitStartsOf(const nlohmann::json& specs, int reducer);
/// [startReducerIndex, endReducerIndex] of every CoalescedPartitionSpec, in order.
std::vector<std::vector<int>> CoalescedRanges(const nlohmann::json& specs);
/// The `dataSize` of each spec (0 when a spec carries none).
std::vector<int64_t> SpecDataSizes(const nlohmann::json& specs);

}  // namespace aqesim::e2e

#endif  // AQESIM_TESTS_E2E_E2E_UTIL_H_
