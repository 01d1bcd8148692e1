// Reading a whole input file (scenario, csv matrix, properties file, sweep definition, shard)
// without hanging on what is not a regular file.
#ifndef AQESIM_MODELS_SCENARIO_INPUT_FILE_H_
#define AQESIM_MODELS_SCENARIO_INPUT_FILE_H_

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace aqesim {

/// Reads all of `path` into `*text`; returns 0, or the errno value of the failure (EISDIR for
/// a directory). A FIFO is opened without waiting for a writer: one that nobody writes to
/// reads as empty instead of blocking forever; one being written (`<(...)`) is read to its end.
/// At most `max_bytes` are read: a regular file larger than that is refused before reading
/// (EFBIG), what is not a regular file (a FIFO, /dev/zero) once it has given that many.
inline constexpr size_t kMaxStreamBytes = size_t{1} << 30;
/// Per kind of input (README "Input limits"): a scenario or a csv matrix 512 MiB (a dense
/// matrix of the largest size, 2 x 10^8 cells, of one-digit cells), a cost file 1 MiB, a
/// properties file 16 MiB.
inline constexpr size_t kMaxScenarioBytes = size_t{512} << 20;
inline constexpr size_t kMaxCsvBytes = size_t{512} << 20;
inline constexpr size_t kMaxCostFileBytes = size_t{1} << 20;
inline constexpr size_t kMaxPropertiesFileBytes = size_t{16} << 20;
int ReadInputFile(const std::string& path, std::string* text, size_t max_bytes = kMaxStreamBytes);

/// The input files of one command, each read once (ReadInputFile): a later read of the same
/// path gets the first read's bytes or error. A FIFO or a process substitution `<(...)` gives
/// its bytes only once, and every point of a sweep or a report must see the same inputs.
/// Thread-safe (a sweep's points load on several threads).
class InputFiles {
 public:
  int Read(const std::string& path, std::string* text, size_t max_bytes);

 private:
  std::mutex mu_;
  std::map<std::string, std::pair<int, std::string>> read_;  // path -> (errno, bytes)
};

/// ReadInputFile, through `files` when it is not null.
int ReadInputFileOnce(InputFiles* files, const std::string& path, std::string* text, size_t max_bytes);

/// The reason of a ReadInputFile failure: strerror, or for EFBIG "larger than N bytes, the
/// limit for this input".
std::string InputFileError(int err, size_t max_bytes);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_INPUT_FILE_H_
