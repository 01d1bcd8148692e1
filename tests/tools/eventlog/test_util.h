// Helpers shared by the event-log tests: fixture paths, temp files, the fixture text.
#ifndef AQESIM_TESTS_TOOLS_EVENTLOG_TEST_UTIL_H_
#define AQESIM_TESTS_TOOLS_EVENTLOG_TEST_UTIL_H_

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/temp_dir.h"
#include "tools/eventlog/byte_source.h"

#ifndef AQESIM_SOURCE_DIR
#define AQESIM_SOURCE_DIR "."
#endif

namespace aqesim::eventlog::testing {

inline std::string Fixture(const std::string& name) {
  return std::string(AQESIM_SOURCE_DIR) + "/tests/data/eventlogs/" + name;
}

inline std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

inline void WriteBytes(const std::string& path, const std::string& data) {
  std::ofstream out(path, std::ios::binary);
  out << data;
}

/// Everything a ByteSource yields, read in small pieces to exercise partial reads.
inline std::string DrainSource(ByteSource& source, size_t piece = 4093) {
  std::string out, buf(piece, '\0');
  size_t n;
  while ((n = source.Read(buf.data(), buf.size())) > 0) out.append(buf.data(), n);
  return out;
}

/// The decompressed aqeshuffle fixture (decoded with the zstd source).
inline std::string AqeShuffleText() {
  auto src = OpenByteSource(Fixture("aqeshuffle_eventlog.zstd"));
  return DrainSource(*src, 1 << 16);
}

/// A fresh directory under the system temp dir, removed by the destructor.
using TempDir = ::aqesim::testing::TempDir;

}  // namespace aqesim::eventlog::testing

#endif  // AQESIM_TESTS_TOOLS_EVENTLOG_TEST_UTIL_H_
