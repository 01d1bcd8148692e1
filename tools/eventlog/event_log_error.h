// The error type of the event-log library: unreadable files, corrupt compressed data, logs
// with nothing to import. The CLI turns it into exit code 2 (aqesim::cli::InputError).
#ifndef AQESIM_TOOLS_EVENTLOG_EVENT_LOG_ERROR_H_
#define AQESIM_TOOLS_EVENTLOG_EVENT_LOG_ERROR_H_

#include <stdexcept>
#include <string>

namespace aqesim::eventlog {

/// what() is one line, "PATH: what went wrong" (PATH = the file, and the offset or line
/// where known).
class EventLogError : public std::runtime_error {
 public:
  explicit EventLogError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace aqesim::eventlog

#endif  // AQESIM_TOOLS_EVENTLOG_EVENT_LOG_ERROR_H_
