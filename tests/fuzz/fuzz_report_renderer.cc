// libFuzzer target "report_renderer" (body in tests/fuzz/fuzz_report.h). Build: cmake -DAQESIM_FUZZ=ON
// with clang; run: tools/ci/fuzz.sh.
#include "tests/fuzz/fuzz_report.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return aqesim::fuzz::FuzzReportRenderer(data, size);
}
