// Text for people: fixed-point numbers and plain-text tables whose columns line up, widths
// counted in terminal columns (terminal_text.h: →, ÷ and µ take several bytes in UTF-8 and one
// column, a CJK character two). The one copy used by the
// tables of `run`, `validate` and the report; header-only, so every tool library can use it.
#ifndef AQESIM_TOOLS_TEXT_TABLE_TEXT_H_
#define AQESIM_TOOLS_TEXT_TABLE_TEXT_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "tools/text/terminal_text.h"

namespace aqesim {

/// The columns every table and footer a command prints keeps within (docs/user-contract.md): a
/// wider line is wrapped or abbreviated, and the JSON output holds the full text.
inline constexpr size_t kTextColumns = 160;

/// `v` with `digits` digits after the point ("%.*f": 1.5 -> "1.50").
inline std::string Fixed(double v, int digits = 2) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

/// `v` to 2 significant digits, never in exponent form (0.061 -> "0.061", 6.14 -> "6.1",
/// 234.5 -> "230"): a band's ends, whose third digit means nothing.
inline std::string TwoDigits(double v) {
  char buf[64];
  if (std::abs(v) >= 99.5) {  // "%.2g" would print 1e+02
    const double unit = std::pow(10.0, std::floor(std::log10(std::abs(v))) - 1);
    std::snprintf(buf, sizeof buf, "%.0f", std::round(v / unit) * unit);
  } else {
    std::snprintf(buf, sizeof buf, "%.2g", v);
    if (std::string_view(buf).find('e') != std::string_view::npos) std::snprintf(buf, sizeof buf, "%.2f", v);
  }
  return buf;
}

/// `v` >= 0 to 2 significant digits rounded down (`up` false) or up, never in exponent form
/// (0.0617 -> "0.061" / "0.062", 498.2 -> "490" / "500"): a band's ends, whose third digit means
/// nothing, rounded outwards so that the printed band still holds what it bounds.
inline std::string TwoDigitsOutwards(double v, bool up) {
  if (!(v > 0) || !std::isfinite(v)) return TwoDigits(v);
  const int exponent = static_cast<int>(std::floor(std::log10(v))) - 1;
  const double unit = std::pow(10.0, exponent);
  const double x = v / unit;  // in [10, 100)
  const double rounded = (up ? std::ceil(x - 1e-9) : std::floor(x + 1e-9)) * unit;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", std::max(0, -exponent), rounded);
  return buf;
}

/// " (6.1–25 s)": a modelled time's band (models/cost/defaults_band.h), printed after it; the
/// low end rounded down and the high end up (TwoDigitsOutwards).
inline std::string BandText(double low_seconds, double high_seconds) {
  return " (" + TwoDigitsOutwards(low_seconds, false) + "–" + TwoDigitsOutwards(high_seconds, true) + " s)";
}

/// Code points of a UTF-8 string (bytes that do not continue a sequence).
inline size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

/// `s` padded with spaces to `width` columns: on the left when `right` (right-aligned).
inline std::string PadTo(const std::string& s, size_t width, bool right) {
  const size_t n = DisplayWidth(s);
  if (n >= width) return s;
  return right ? std::string(width - n, ' ') + s : s + std::string(width - n, ' ');
}

/// `head` and `rows` as lines of columns two spaces apart, each as wide as its widest cell, with
/// no trailing blanks; column i is right-aligned when `right_aligned(i)`. Every row has head.size() cells.
inline std::string TextTable(const std::vector<std::string>& head,
                             const std::vector<std::vector<std::string>>& rows,
                             const std::function<bool(size_t)>& right_aligned) {
  std::vector<size_t> w(head.size(), 0);
  for (size_t i = 0; i < head.size(); ++i) {
    w[i] = DisplayWidth(head[i]);
    for (const auto& r : rows) w[i] = std::max(w[i], DisplayWidth(r[i]));
  }
  std::ostringstream out;
  auto line = [&](const std::vector<std::string>& r) {  // no trailing blanks (a padded last column)
    std::string text;
    for (size_t i = 0; i < r.size(); ++i) text += (i ? "  " : "") + PadTo(r[i], w[i], right_aligned(i));
    text.erase(text.find_last_not_of(' ') + 1);
    out << text << "\n";
  };
  line(head);
  for (const auto& r : rows) line(r);
  return out.str();
}

/// Columns the widest line of `text` takes.
inline size_t WidestLine(std::string_view text) {
  size_t widest = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    widest = std::max(widest, DisplayWidth(text.substr(start, end - start)));
    start = end + 1;
  }
  return widest;
}

/// `s` cut to at most `width` columns (>= 1), its last one "…" when anything was cut.
inline std::string Ellipsize(const std::string& s, size_t width) {
  if (DisplayWidth(s) <= width) return s;
  size_t used = 0, end = 0;  // end: byte offset after the code points that fit in width - 1 columns
  for (size_t i = 0; i < s.size();) {
    const size_t w = static_cast<size_t>(CharWidth(NextCodePoint(s, &i)));
    if (used + w > width - 1) break;
    used += w;
    end = i;
  }
  return s.substr(0, end) + "…";
}

/// `text` as lines of at most `width` columns, broken at spaces; a word wider than `width` is cut
/// across lines (an id list with no space in it), a shorter one that does not fit after the indent
/// gets a line of its own; every line after the first starts with `indent` spaces. No final newline.
inline std::string WrapText(const std::string& text, size_t width, size_t indent) {
  std::string out, line;
  size_t points = 0;      // columns of `line`
  bool has_word = false;  // `line` holds a word (not only the indent)
  const auto new_line = [&] {
    out += line + "\n";
    line = std::string(indent, ' ');
    points = indent;
    has_word = false;
  };
  for (size_t start = 0; start <= text.size();) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    size_t word_points = DisplayWidth(word);
    if (has_word && points + 1 + word_points > width) new_line();
    if (has_word) {
      line += ' ';
      ++points;
    }
    // A word wider than a whole line (an id list with no space in it): as much as fits, then the
    // rest on new lines. A shorter word that overflows only the indent is left whole.
    while (word_points > width && points + word_points > width && width > points) {
      size_t used = 0, cut = 0;
      for (size_t i = 0; i < word.size();) {
        const size_t w = static_cast<size_t>(CharWidth(NextCodePoint(word, &i)));
        if (points + used + w > width) break;
        used += w;
        cut = i;
      }
      if (cut == 0) break;  // not even one character fits: leave it to overflow
      line += word.substr(0, cut);
      word = word.substr(cut);
      word_points -= used;
      points += used;
      new_line();
    }
    line += word;
    points += word_points;
    has_word = true;
    start = end + 1;
  }
  return out + line;
}

/// TextTable whose lines are at most `max_width` code points: column `flex` (free text, such as
/// a stage's operators) is cut with Ellipsize to what the other columns leave, but to no fewer
/// than `min_flex` code points (so a table with many wide columns may still be wider).
inline std::string TextTableWithin(size_t max_width, size_t flex, size_t min_flex,
                                   const std::vector<std::string>& head,
                                   std::vector<std::vector<std::string>> rows,
                                   const std::function<bool(size_t)>& right_aligned) {
  size_t others = 2 * (head.size() - 1);  // the two spaces between columns
  for (size_t i = 0; i < head.size(); ++i) {
    if (i == flex) continue;
    size_t w = DisplayWidth(head[i]);
    for (const auto& r : rows) w = std::max(w, DisplayWidth(r[i]));
    others += w;
  }
  const size_t width =
      std::max({min_flex, DisplayWidth(head[flex]), max_width > others ? max_width - others : 0});
  for (auto& r : rows) r[flex] = Ellipsize(r[flex], width);
  return TextTable(head, rows, right_aligned);
}

}  // namespace aqesim

#endif  // AQESIM_TOOLS_TEXT_TABLE_TEXT_H_
