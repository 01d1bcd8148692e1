// Band ends as the tables print them: two significant digits, never an exponent.
#include "tools/text/table_text.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

TEST_CASE("TwoDigits: two significant digits without exponent", "[text]") {
  CHECK(TwoDigits(0.061) == "0.061");
  CHECK(TwoDigits(6.14) == "6.1");
  CHECK(TwoDigits(25) == "25");
  CHECK(TwoDigits(99.4) == "99");
  CHECK(TwoDigits(99.7) == "100");  // "%.2g" gives 1e+02
  CHECK(TwoDigits(234.5) == "230");
  CHECK(TwoDigits(1092.6) == "1100");
  CHECK(BandText(6.1, 25) == " (6.1–25 s)");
}

}  // namespace
}  // namespace aqesim
