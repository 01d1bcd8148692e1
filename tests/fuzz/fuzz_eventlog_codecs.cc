// libFuzzer target "eventlog_codecs" (body in tests/fuzz/fuzz_targets.h). Build: cmake -DAQESIM_FUZZ=ON
// with clang; run: tools/ci/fuzz.sh.
#include "tests/fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return aqesim::fuzz::FuzzEventLogCodecs(data, size);
}
