#include "sim/floor_fraction.h"

namespace aqesim {

namespace {

#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("avx512f,avx512dq")]] void AddFloorFractionStepsAvx512(const int64_t* cells, size_t n,
                                                                     int64_t num, int64_t den, int64_t* prev,
                                                                     int64_t* dst) {
  const double fraction = static_cast<double>(num) / static_cast<double>(den);
  const uint64_t unum = static_cast<uint64_t>(num), uden = static_cast<uint64_t>(den);
  for (size_t r = 0; r < n; ++r) {
    const int64_t a = cells[r];
    int64_t q = static_cast<int64_t>(static_cast<double>(a) * fraction);
    // a × num − q × den, in [−den, 2 den): exact as a wrapped difference read as signed.
    const int64_t rem =
        static_cast<int64_t>(static_cast<uint64_t>(a) * unum - static_cast<uint64_t>(q) * uden);
    q += static_cast<int64_t>(rem >= den) - static_cast<int64_t>(rem < 0);
    dst[r] += q - prev[r];
    prev[r] = q;
  }
}
#endif

}  // namespace

void AddFloorFractionStepsScalar(const int64_t* cells, size_t n, int64_t num, int64_t den, int64_t* prev,
                                 int64_t* dst) {
  const FloorFraction fraction(num, den);
  for (size_t r = 0; r < n; ++r) {
    const int64_t upto = fraction(cells[r]);
    dst[r] += upto - prev[r];
    prev[r] = upto;
  }
}

void AddFloorFractionSteps(const int64_t* cells, size_t n, int64_t num, int64_t den, int64_t max_cell,
                           int64_t* prev, int64_t* dst) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  if (avx512 && max_cell < (int64_t{1} << 50) && den < (int64_t{1} << 62))
    return AddFloorFractionStepsAvx512(cells, n, num, den, prev, dst);
#endif
  (void)max_cell;
  AddFloorFractionStepsScalar(cells, n, num, den, prev, dst);
}

}  // namespace aqesim
