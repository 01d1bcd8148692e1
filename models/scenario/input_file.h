// Reading a whole input file (scenario, csv matrix, properties file, sweep definition, shard)
// without hanging on what is not a regular file.
#ifndef AQESIM_MODELS_SCENARIO_INPUT_FILE_H_
#define AQESIM_MODELS_SCENARIO_INPUT_FILE_H_

#include <cstddef>
#include <string>

namespace aqesim {

/// Reads all of `path` into `*text`; returns 0, or the errno value of the failure (EISDIR for
/// a directory). A FIFO is opened without waiting for a writer: one that nobody writes to
/// reads as empty instead of blocking forever; one being written (`<(...)`) is read to its end.
/// What is not a regular file (a FIFO, /dev/zero) is read up to kMaxStreamBytes, then EFBIG.
inline constexpr size_t kMaxStreamBytes = size_t{1} << 30;
int ReadInputFile(const std::string& path, std::string* text);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_INPUT_FILE_H_
