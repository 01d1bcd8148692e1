// ShownPointer: pointers as one-line messages print them (hostile round X3: a 10 KB pointer).
#include "models/scenario/shown_pointer.h"

#include <catch2/catch.hpp>
#include <string>

namespace aqesim {
namespace {

TEST_CASE("ShownPointer: short pointers whole, long ones with their middle left out", "[scenario]") {
  CHECK(ShownPointer("") == "");
  CHECK(ShownPointer("/plan/left/sizes/3") == "/plan/left/sizes/3");
  std::string deep = "/plan";
  for (int i = 0; i < 1000; ++i) deep += "/child";  // 6005 bytes, 1001 tokens
  // 5 + 12 × 6 = 77 bytes of head, 13 × 6 = 78 of tail, 1001 − 13 − 13 = 975 left out.
  CHECK(ShownPointer(deep) ==
        "/plan/child/child/child/child/child/child/child/child/child/child/child/child/…(975 tokens)…"
        "/child/child/child/child/child/child/child/child/child/child/child/child/child");
  // A 300-byte key is cut to 77 bytes and "…"; a cut never splits a UTF-8 sequence ("é" is 2 bytes).
  CHECK(ShownPointer("/conf/" + std::string(300, 'k')) == "/conf/" + std::string(76, 'k') + "…");
  CHECK(ShownPointer("/conf/" + std::string(75, 'k') + "é" + std::string(200, 'k')) ==
        "/conf/" + std::string(75, 'k') + "…");
}

}  // namespace
}  // namespace aqesim
