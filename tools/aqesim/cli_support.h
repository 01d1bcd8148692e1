// Shared CLI plumbing: error types mapped to exit codes, atomic output files.
//
// Exit codes (docs/user-contract.md §1): 0 ok; 2 invalid input or usage (one line per problem
// on stderr: "aqesim: error: FILE: /json/pointer: message"); 1 internal error.
#ifndef AQESIM_TOOLS_AQESIM_CLI_SUPPORT_H_
#define AQESIM_TOOLS_AQESIM_CLI_SUPPORT_H_

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace aqesim::cli {

/// Bad input or usage: every line is printed as "aqesim: error: LINE", exit code 2.
class InputError : public std::runtime_error {
 public:
  explicit InputError(std::vector<std::string> lines)
      : std::runtime_error(lines.empty() ? std::string("invalid input") : lines.front()),
        lines_(std::move(lines)) {}
  explicit InputError(const std::string& line) : InputError(std::vector<std::string>{line}) {}
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::vector<std::string> lines_;
};

/// Writes `content` to `path` atomically: a temporary file in the same directory, fsync,
/// then rename over the target. On any failure the temporary is removed, the previous
/// file (if any) is left intact, and InputError names the path and the reason.
/// `path` "-" writes to stdout. A path that is one of `inputs` (the same file, however named)
/// is refused; a device or FIFO (/dev/null, /dev/full) is written in place, not replaced; a
/// symbolic link stays and its target is replaced.
void WriteOutputAtomically(const std::string& path, const std::string& content,
                           const std::vector<std::string>& inputs = {});

/// Throws InputError when `path` is the same file as one of `inputs` (however named).
void CheckOutputIsNotInput(const std::string& path, const std::vector<std::string>& inputs);

/// Prints a warning line "aqesim: warning: MESSAGE" on stderr.
void Warn(const std::string& message);

/// A non-negative decimal number as an option's value: digits with an optional fraction and
/// exponent ("50", "12.5", ".5", "1e3", "1e-320"); no sign, spaces, hexadecimal ("0x10"), "inf"
/// or "nan". nullopt for anything else. A value beyond a double's range is infinity.
std::optional<double> ParseDecimal(const std::string& text);

/// A non-negative decimal integer: digits only ("60"; not "6e1", "0x3c" or "60.0"), nullopt
/// otherwise or above `max`.
std::optional<int64_t> ParseDecimalInteger(const std::string& text, int64_t max);

}  // namespace aqesim::cli

#endif  // AQESIM_TOOLS_AQESIM_CLI_SUPPORT_H_
