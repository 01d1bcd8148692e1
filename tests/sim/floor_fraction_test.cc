#include "sim/floor_fraction.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "sim/units.h"

namespace aqesim {
namespace {

int64_t Reference(int64_t a, int64_t num, int64_t den) {
  return static_cast<int64_t>(static_cast<Int128>(a) * num / den);
}

}  // namespace

TEST_CASE("FloorFraction: floor(a x num / den) as the 128-bit division gives it", "[sim][units]") {
  SECTION("hand-computed values") {
    CHECK(FloorFraction(1, 3)(10) == 3);
    CHECK(FloorFraction(2, 3)(10) == 6);
    CHECK(FloorFraction(3, 3)(10) == 10);
    CHECK(FloorFraction(0, 7)(123456789) == 0);
    CHECK(FloorFraction(1, 3)(0) == 0);
    // The quotient from the reciprocal falls one short on exact multiples: 3 x 1/3 is 1.
    CHECK(FloorFraction(1, 3)(3) == 1);
    CHECK(FloorFraction(5, 7)(7000000000000) == 5000000000000);
  }
  SECTION("large bytes and fractions near 1 and near 0") {
    const int64_t max = std::numeric_limits<int64_t>::max();
    CHECK(FloorFraction(max - 1, max)(max) == max - 1);
    CHECK(FloorFraction(1, max)(max - 1) == 0);
    CHECK(FloorFraction(1, max)(max) == 1);
    CHECK(FloorFraction(536870912, 549755813888)(1099511627776) == 1073741824);  // 2^40 x 2^29 / 2^39
  }
  SECTION("agrees with the 128-bit division on a sweep of values") {
    int mismatches = 0;
    for (const int64_t den : {int64_t{1}, int64_t{3}, int64_t{1000}, int64_t{268435456},
                              int64_t{999999999989}, std::numeric_limits<int64_t>::max() / 3}) {
      for (int64_t num = 0; num <= den; num += den / 7 + 1) {
        const FloorFraction f(num, den);
        for (int64_t a = 0; a < (int64_t{1} << 60); a = a * 3 + 1)
          if (f(a) != Reference(a, num, den)) ++mismatches;
        if (f(den) != num) ++mismatches;
      }
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("AddFloorFractionSteps: the vector path gives the scalar path's values", "[sim][units]") {
  // On a CPU with AVX-512DQ the cells go eight at a time through a double-precision estimate;
  // elsewhere the scalar path runs and both sides below are the same code. Cells up to just
  // under 2^50 and denominators up to just under 2^62 (the vector path's bounds), fractions
  // near 0, near 1 and exact, from a fixed seed.
  std::mt19937_64 rng(20261206);
  const int64_t max_cell = (int64_t{1} << 50) - 1;
  int mismatches = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const int64_t den = trial % 3 == 0
                            ? (int64_t{1} << 62) - 1 - static_cast<int64_t>(rng() % 1000)
                            : 1 + static_cast<int64_t>(rng() % (trial % 3 == 1 ? 1000 : (int64_t{1} << 40)));
    const int64_t num = trial % 5 == 0 ? den : trial % 5 == 1 ? 0 : static_cast<int64_t>(rng() % (den + 1));
    std::vector<int64_t> cells(37);
    for (size_t i = 0; i < cells.size(); ++i)
      cells[i] =
          i % 4 == 0 ? max_cell - static_cast<int64_t>(i) : static_cast<int64_t>(rng() % (max_cell + 1));
    std::vector<int64_t> prev_a(cells.size(), 0), prev_b(cells.size(), 0), dst_a(cells.size(), 0),
        dst_b(cells.size(), 0);
    AddFloorFractionSteps(cells.data(), cells.size(), num, den, max_cell, prev_a.data(), dst_a.data());
    AddFloorFractionStepsScalar(cells.data(), cells.size(), num, den, prev_b.data(), dst_b.data());
    for (size_t i = 0; i < cells.size(); ++i) {
      mismatches += dst_a[i] != dst_b[i] || prev_a[i] != prev_b[i];
      mismatches += dst_b[i] != Reference(cells[i], num, den);
    }
  }
  CHECK(mismatches == 0);
}

}  // namespace aqesim
