// Exact proportional splits of byte counts without a 128-bit division per value.
#ifndef AQESIM_SIM_FLOOR_FRACTION_H_
#define AQESIM_SIM_FLOOR_FRACTION_H_

#include <cstddef>
#include <cstdint>

namespace aqesim {

/// floor(a × num ÷ den) for many `a` with one fraction num/den, 0 <= num <= den, den > 0,
/// a >= 0: the value `static_cast<int64_t>(Int128(a) * num / den)` gives, at the cost of one
/// 128-bit division per fraction instead of one per value. A 64-bit reciprocal
/// m = floor(num × 2^64 ÷ den) gives a quotient at most one short (a × m ÷ 2^64 undercuts
/// a × num ÷ den by less than a ÷ 2^64 < 1/2), and the remainder a × num − q × den, in [0, 2 den)
/// and so exact in wrapping 64-bit arithmetic, says whether to add the one.
class FloorFraction {
 public:
  FloorFraction(int64_t num, int64_t den)
      : num_(static_cast<uint64_t>(num)),
        den_(static_cast<uint64_t>(den)),
        whole_(num == den),
        reciprocal_(whole_ ? 0 : static_cast<uint64_t>((static_cast<Uint128>(num_) << 64) / den_)) {}

  int64_t operator()(int64_t a) const {
    if (whole_) return a;
    const uint64_t ua = static_cast<uint64_t>(a);
    uint64_t q = static_cast<uint64_t>((static_cast<Uint128>(ua) * reciprocal_) >> 64);
    if (ua * num_ - q * den_ >= den_) ++q;
    return static_cast<int64_t>(q);
  }

 private:
  __extension__ using Uint128 = unsigned __int128;
  uint64_t num_, den_;
  bool whole_;
  uint64_t reciprocal_;
};

/// One owner's step of a cumulative split: for r in [0, n), upto = floor(cells[r] × num ÷ den)
/// (FloorFraction's value), dst[r] += upto − prev[r], prev[r] = upto. Preconditions: cells in
/// [0, max_cell], 0 <= num <= den, den > 0. On a CPU with AVX-512DQ, when max_cell < 2^50 and
/// den < 2^62, eight cells at a time: the quotient estimated in double precision (relative error
/// below 2^-51, so within 1/2 of the true quotient: at most one off either way) and corrected by
/// the exact remainder in wrapping 64-bit arithmetic; the same values as the scalar path.
void AddFloorFractionSteps(const int64_t* cells, size_t n, int64_t num, int64_t den, int64_t max_cell,
                           int64_t* prev, int64_t* dst);

/// The scalar path of AddFloorFractionSteps (FloorFraction per cell), for tests.
void AddFloorFractionStepsScalar(const int64_t* cells, size_t n, int64_t num, int64_t den, int64_t* prev,
                                 int64_t* dst);

}  // namespace aqesim

#endif  // AQESIM_SIM_FLOOR_FRACTION_H_
