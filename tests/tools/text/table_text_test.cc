// Band ends as the tables print them (two significant digits, never an exponent) and tables cut
// to a terminal's width.
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

TEST_CASE("BandText: the low end rounded down, the high end up, so the band holds its value", "[text]") {
  // q72's 10 % scale row: 498.201 s with a band of 497.39–514.6 s printed "(500–520 s)", which
  // left the value outside its own band.
  CHECK(BandText(497.388867, 514.6) == " (490–520 s)");
  CHECK(TwoDigitsOutwards(0.0617, false) == "0.061");
  CHECK(TwoDigitsOutwards(0.0617, true) == "0.062");
  CHECK(TwoDigitsOutwards(6.14, true) == "6.2");
  CHECK(TwoDigitsOutwards(55.6, false) == "55");
  CHECK(TwoDigitsOutwards(99.2, true) == "100");
  CHECK(TwoDigitsOutwards(1092.6, false) == "1000");
  CHECK(TwoDigitsOutwards(1092.6, true) == "1100");
  CHECK(TwoDigitsOutwards(25, false) == "25");  // exact values stay
  CHECK(TwoDigitsOutwards(25, true) == "25");
  CHECK(TwoDigitsOutwards(0.3, true) == "0.30");
  CHECK(TwoDigitsOutwards(0, false) == "0");
}

TEST_CASE("Ellipsize: cut at code points, the last one an ellipsis", "[text]") {
  CHECK(Ellipsize("SortMergeJoin", 20) == "SortMergeJoin");
  CHECK(Ellipsize("SortMergeJoin", 13) == "SortMergeJoin");
  CHECK(Ellipsize("SortMergeJoin", 5) == "Sort…");
  CHECK(Ellipsize("a→b→c", 4) == "a→b…");  // → is 3 bytes, one code point
  CHECK(Ellipsize("abc", 1) == "…");
}

TEST_CASE("WrapText: lines of at most the width, broken at spaces, later lines indented", "[text]") {
  CHECK(WrapText("split 8 left partitions", 80, 4) == "split 8 left partitions");
  CHECK(WrapText("split 8 left partitions", 12, 4) == "split 8 left\n    partitions");
  CHECK(WrapText("a bb ccc dddd", 6, 2) == "a bb\n  ccc\n  dddd");
  // Wider than a whole line: cut across lines (an id list of 200 exchanges was one 894-column line).
  CHECK(WrapText("averyveryverylongword x", 5, 1) == "avery\n very\n very\n long\n word\n x");
  CHECK(WrapText("ab 中文中文", 5, 0) == "ab\n中文\n中文");  // wide characters cut whole
  CHECK(WrapText("6→7, 10→22", 5, 0) == "6→7,\n10→22");      // code points, not bytes
}

TEST_CASE("TextTableWithin: the free-text column gives way, down to its minimum", "[text]") {
  const std::vector<std::string> head = {"id", "operators", "s"};
  const auto right = [](size_t i) { return i != 1; };
  // id 2 + operators + s 4 + 2 x 2 spaces: 20 columns leave operators 10.
  CHECK(TextTableWithin(20, 1, 3, head, {{"1", "Scan orders then filter", "12.5"}}, right) ==
        "id  operators      s\n"
        " 1  Scan orde…  12.5\n");
  // 12 columns leave 2: the minimum, 9 (the header's own width), wins.
  CHECK(TextTableWithin(12, 1, 3, head, {{"1", "Scan orders then filter", "12.5"}}, right) ==
        "id  operators     s\n"
        " 1  Scan ord…  12.5\n");
  // Short enough: unchanged.
  CHECK(TextTableWithin(160, 1, 3, head, {{"1", "Scan", "1"}}, right) ==
        TextTable(head, {{"1", "Scan", "1"}}, right));
}

}  // namespace
}  // namespace aqesim
