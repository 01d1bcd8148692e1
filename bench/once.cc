// One measured operation per process, for callgrind instruction counts (run.sh uses
// --toggle-collect on the named function, so setup such as generating the matrix is not
// counted):
//   aqesim_bench_once b1-plain | b1-hcms | b1-compressed
#include <cstdio>
#include <cstring>

#include "bench/b1_matrix.h"

int main(int argc, char** argv) {
  using namespace aqesim::bench;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s b1-plain|b1-hcms|b1-compressed\n", argv[0]);
    return 2;
  }
  const aqesim::SizeMatrix m = B1Matrix();
  long long check = 0;
  if (!std::strcmp(argv[1], "b1-plain")) {
    check = static_cast<long long>(PlainColumnSum(m)[0]);
  } else if (!std::strcmp(argv[1], "b1-hcms")) {
    check = DriverViewHighlyCompressed(m).BytesByPartitionId()[0];
  } else if (!std::strcmp(argv[1], "b1-compressed")) {
    check = DriverViewCompressed(m).BytesByPartitionId()[0];
  } else {
    std::fprintf(stderr, "unknown operation %s\n", argv[1]);
    return 2;
  }
  std::printf("%s reducer 0: %lld bytes\n", argv[1], check);
  return 0;
}
