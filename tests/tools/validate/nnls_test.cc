#include "tools/validate/nnls.h"

#include <catch2/catch.hpp>

namespace aqesim::validate {
namespace {

TEST_CASE("NonNegativeLeastSquares: exact fit when the solution is positive", "[validate][nnls]") {
  // x = (1, 2) fits every row exactly.
  const auto x = NonNegativeLeastSquares({{1, 0}, {0, 1}, {1, 1}}, {1, 2, 3});
  REQUIRE(x.size() == 2);
  CHECK(x[0] == Approx(1.0).margin(1e-9));
  CHECK(x[1] == Approx(2.0).margin(1e-9));
}

TEST_CASE("NonNegativeLeastSquares: a negative slope is clamped to 0", "[validate][nnls]") {
  // Unconstrained: intercept 4, slope -1. With slope >= 0 the best is slope 0 and the
  // intercept the mean of b, 2.
  const auto x = NonNegativeLeastSquares({{1, 1}, {1, 2}, {1, 3}}, {3, 2, 1});
  REQUIRE(x.size() == 2);
  CHECK(x[0] == Approx(2.0).margin(1e-9));
  CHECK(x[1] == 0.0);
}

TEST_CASE("NonNegativeLeastSquares: columns of very different scale", "[validate][nnls]") {
  // Seconds = 0.05 per task + 1e-8 s/B: rows (1 task, bytes).
  const auto x = NonNegativeLeastSquares({{1, 1e8}, {1, 2e8}, {1, 5e7}}, {1.05, 2.05, 0.55});
  REQUIRE(x.size() == 2);
  CHECK(x[0] == Approx(0.05).margin(1e-9));
  CHECK(x[1] == Approx(1e-8).epsilon(1e-9));
}

TEST_CASE("NonNegativeLeastSquares: bad shapes give an empty result", "[validate][nnls]") {
  CHECK(NonNegativeLeastSquares({}, {}).empty());
  CHECK(NonNegativeLeastSquares({{1, 2}, {1}}, {1, 2}).empty());
  CHECK(NonNegativeLeastSquares({{1, 2}}, {1, 2}).empty());
}

}  // namespace
}  // namespace aqesim::validate
