#include "sim/floor_fraction.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>

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

}  // namespace aqesim
