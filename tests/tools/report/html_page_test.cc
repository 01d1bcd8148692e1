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

TEST_CASE("MdEsc: one line of literal text that opens no block, link, emphasis or table cell", "[report]") {
  CHECK(MdEsc("a [b](javascript:x) *c* |d| <e> &") == "a \\[b\\](javascript:x) \\*c\\* \\|d\\| \\<e> &");
  // '<', '>' and '&' stay as written where Markdown reads them as text (new-user finding: the
  // report printed "&lt;= skew threshold"); escaped where they would open a tag, a comment, an
  // autolink, an entity or a block quote.
  CHECK(MdEsc("largest 12 MiB <= skew threshold 256.0 MiB > 5 × median & more") ==
        "largest 12 MiB <= skew threshold 256.0 MiB > 5 × median & more");
  CHECK(MdEsc("a<b </b> <!-- c <?x <https://x> &amp; &#60; R&D") ==
        "a\\<b \\</b> \\<!-- c \\<?x \\<https://x> \\&amp; \\&#60; R\\&D");
  CHECK(MdEsc("> quoted") == "\\> quoted");
  CHECK(MdEsc("  > quoted") == "\\> quoted");
  CHECK(MdEsc("- item") == "\\- item");
  CHECK(MdEsc("12. item") == "12\\. item");
  CHECK(MdEsc("12 . item") == "12 . item");
  CHECK(MdEsc("3) item") == "3\\) item");
  CHECK(MdEsc("12.") == "12\\.");
  CHECK(MdEsc("- ") == "\\- ");
  CHECK(MdEsc("+\nx") == "\\+ x");
  CHECK(MdEsc("---") == "\\---");
  CHECK(MdEsc("==") == "\\==");
  // Numbers open nothing: a tune report's table printed "2\.58" and "\-3.5 %" (new-user finding).
  CHECK(MdEsc("2.58") == "2.58");
  CHECK(MdEsc("12.5 s") == "12.5 s");
  CHECK(MdEsc("1.0e6") == "1.0e6");
  CHECK(MdEsc("-3.5 %") == "-3.5 %");
  CHECK(MdEsc("+2 s") == "+2 s");
  CHECK(MdEsc("=x") == "\\=x");  // a line starting '=' is never written: no setext underline
  CHECK(MdEsc("2)x") == "2)x");
  // '#' at the start is escaped (no heading the renderer did not write), and at the end after a
  // blank (a heading's closing sequence); inside a line it opens nothing.
  CHECK(MdEsc("# title") == "\\# title");
  CHECK(MdEsc("## title") == "\\## title");
  CHECK(MdEsc("#6 is faster") == "\\#6 is faster");
  CHECK(MdEsc("evaluation #6, C# and F#") == "evaluation #6, C# and F#");
  CHECK(MdEsc("title ##") == "title \\##");
  CHECK(MdEsc("title #\n") == "title \\# ");
  CHECK(MdEsc("a\nb\rc\u2028d") == "a b c d");
  // Leading blanks are dropped: a name of three control characters and a space opened an
  // indented code block (fuzz regression report_renderer/crash-8e8c84d9...).
  CHECK(MdEsc(std::string("\x01\x08\x05 \xB9sq0", 8)) == "\xB9sq0");
  CHECK(MdEsc("   - item") == "\\- item");
  CHECK(MdEsc("\t \u2028 ") == "");
}

}  // namespace
}  // namespace aqesim::report
