// Texts of decisions: byte counts and counts with their nouns in agreement.
#include "models/aqe/decision.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

TEST_CASE("Counted: a count and its noun agree", "[aqe][text]") {
  CHECK(Counted(1, "partition") == "1 partition");
  CHECK(Counted(0, "partition") == "0 partitions");
  CHECK(Counted(200, "skewed partition") == "200 skewed partitions");
  CHECK(Counted(1, "match", "matches") == "1 match");
  CHECK(Counted(2, "match", "matches") == "2 matches");
  CHECK(Counted(-1, "core") == "-1 cores");
}

TEST_CASE("FormatBytes: binary units, one decimal", "[aqe][text]") {
  CHECK(FormatBytes(17) == "17 B");
  CHECK(FormatBytes(600 * 1024) == "600.0 KiB");
  CHECK(FormatBytes(4404019) == "4.2 MiB");
}

}  // namespace
}  // namespace aqesim
