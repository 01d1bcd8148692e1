#include "tools/report/html_page.h"

#include <catch2/catch.hpp>
#include <string>

namespace aqesim::report {
namespace {

TEST_CASE("Esc: markup characters as references, control characters as U+FFFD, line breaks and tabs kept",
          "[report]") {
  CHECK(Esc("a<b>&\"c\"") == "a&lt;b&gt;&amp;&quot;c&quot;");
  // NUL, ESC and BEL from a forged tune result reached the page raw (hostile round 2026-12-03).
  CHECK(Esc(std::string("x\0y\x1b[31m\x07z", 10)) == "x\xEF\xBF\xBDy\xEF\xBF\xBD[31m\xEF\xBF\xBDz");
  CHECK(Esc("a\tb\nc\r") == "a\tb\nc\r");
  CHECK(Esc("中文 → ok") == "中文 → ok");
}

}  // namespace
}  // namespace aqesim::report
