#include "tools/text/terminal_text.h"

#include <catch2/catch.hpp>

#include "tools/text/table_text.h"

namespace aqesim {
namespace {

TEST_CASE("DisplayWidth: ASCII and narrow symbols 1, CJK and emoji 2, combining marks 0") {
  CHECK(DisplayWidth("abc") == 3);
  CHECK(DisplayWidth("→÷µ—…") == 5);
  CHECK(DisplayWidth("中文") == 4);
  CHECK(DisplayWidth("\xF0\x9F\x98\x80") == 2);  // U+1F600
  CHECK(DisplayWidth("e\xCC\x81") == 1);         // e + combining acute
  CHECK(DisplayWidth("a\xFF") == 2);             // an invalid byte shows as U+FFFD
}

TEST_CASE("TerminalText: control, line-breaking and bidi characters as escapes; the rest as is") {
  CHECK(TerminalText("line1\nline2\r\n\tx") == "line1\\nline2\\r\\n\\tx");
  CHECK(TerminalText("\x1b[2J\x07") == "\\x1B[2J\\x07");
  CHECK(TerminalText(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(TerminalText("\xE2\x80\xAE"
                     "evil") == "\\u202Eevil");  // RIGHT-TO-LEFT OVERRIDE
  CHECK(TerminalText("\xC2\x85") == "\\u0085");  // NEL
  CHECK(TerminalText("ok \xFF end") == "ok \xEF\xBF\xBD end");
  CHECK(TerminalText("中文 → ok") == "中文 → ok");
}

TEST_CASE("Ellipsize and PadTo count columns: a wide character is cut whole") {
  CHECK(Ellipsize("中文中文", 5) == "中文…");  // 4 columns kept + the ellipsis
  CHECK(Ellipsize("abcdef", 4) == "abc…");
  CHECK(PadTo("中", 4, false) == "中  ");
}

}  // namespace
}  // namespace aqesim
