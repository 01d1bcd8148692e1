#include "tools/report/html_page.h"

#include <cctype>
#include <string>

#include "tools/report/report_assets.h"

namespace aqesim::report {

namespace {

using ojson = nlohmann::ordered_json;
constexpr int kChartWidth = 820;

// A library inlined in <script>: no source-map fetch, no early end of the element.
std::string ScriptSafe(std::string_view js) {
  std::string s(js);
  for (size_t p; (p = s.find("//# sourceMappingURL=")) != std::string::npos;) {
    const size_t e = s.find('\n', p);
    s.erase(p, e == std::string::npos ? std::string::npos : e - p);
  }
  for (size_t p = 0; (p = s.find("</script", p)) != std::string::npos; p += 2) s.replace(p, 2, "<\\/");
  return s;
}

// JSON inside <script type="application/json">: every '<', '>' and '&' (they occur only in
// strings) as a \u escape, so no name can end the element ("</script"), open a comment
// ("<!--", after which "<script" would keep the element open past its "</script>") or
// start anything else the HTML parser reacts to. The data is the same JSON. A name that is not
// UTF-8 (the structs can hold any bytes) has its invalid bytes replaced by U+FFFD instead of
// making the dump throw (found by the report_renderer fuzz target).
std::string JsonForScript(const ojson& j) {
  const std::string s = j.dump(-1, ' ', /*ensure_ascii=*/false, ojson::error_handler_t::replace);
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else
      out += c;
  }
  return out;
}

const char* kStyle = R"css(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1000px;color:#1b1f24;padding:0 16px}
h1{font-size:1.6em;margin-bottom:0}h2{border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}
.sub{color:#57606a;margin-top:4px}
.cards{display:flex;gap:12px;flex-wrap:wrap}.card{border:1px solid #d0d7de;border-radius:6px;padding:10px 14px;min-width:140px}
.card b{display:block;font-size:1.4em}.card span{color:#57606a;font-size:.9em}
table{border-collapse:collapse;font-size:.9em;margin:8px 0;display:block;max-width:100%;overflow-x:auto}th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:right}
th{background:#f6f8fa}td:nth-child(2){text-align:left}
.sev{padding:1px 6px;border-radius:4px}.sev-none{background:#dafbe1}.sev-low{background:#fff8c5}
.sev-moderate{background:#ffddb0}.sev-severe{background:#ffc1c0}.sev-critical{background:#d1242f;color:#fff}
td.warn{background:#fff1e5}pre.conf{background:#f6f8fa;border:1px solid #d0d7de;padding:10px;white-space:pre-wrap}
.diagnosis{font-weight:600}.warnings li{color:#9a6700}figure{margin:12px 0;max-width:100%;overflow-x:auto}figcaption{color:#57606a;font-size:.85em}
#errors{color:#d1242f;white-space:pre-wrap}footer{color:#57606a;font-size:.8em;margin-top:40px}
)css";

const char* kRunner = R"js(
(function () {
  var errors = [];
  function note(msg) {
    errors.push(String(msg));
    document.body.setAttribute('data-errors', String(errors.length));
    var el = document.getElementById('errors');
    el.textContent = errors.join('\n');
    el.hidden = false;
  }
  window.addEventListener('error', function (e) { note(e.message); });
  window.addEventListener('unhandledrejection', function (e) { note(e.reason); });
  var specs = JSON.parse(document.getElementById('chart-specs').textContent);
  var ids = Object.keys(specs);
  var pending = ids.length;
  function settled() { if (--pending === 0) document.body.setAttribute('data-charts-done', 'true'); }
  if (pending === 0) document.body.setAttribute('data-charts-done', 'true');
  ids.forEach(function (id) {
    var el = document.getElementById(id);
    vegaEmbed(el, specs[id], {actions: false, renderer: 'svg', mode: 'vega-lite'})
      .then(function () { el.setAttribute('data-rendered', 'true'); settled(); })
      .catch(function (err) {
        el.setAttribute('data-error', String(err));
        console.error('chart ' + id + ' did not render: ' + err);
        note(err);
        settled();
      });
  });
})();
)js";

}  // namespace

std::string Esc(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // A control character (NUL, ESC, BEL ... from a forged input) is not text: U+FFFD instead.
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
          out += "\xEF\xBF\xBD";
        else
          out += c;
    }
  }
  return out;
}

// Collects the Vega-Lite specs; each Add returns the chart's container.
nlohmann::ordered_json BaseSpec(const std::string& title, int height) {
  return {{"title", title},
          {"width", kChartWidth},
          {"height", height},
          {"config", {{"view", {{"stroke", nullptr}}}}}};
}

std::string Page(const std::string& title, const std::string& body, const Charts& charts) {
  std::string h =
      "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline' "
      "'unsafe-eval'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:\">\n"
      "<title>" +
      Esc(title) + "</title>\n<style>" + kStyle + "</style>\n";
  h += "<script>" + ScriptSafe(VegaJs()) + "\n</script>\n";
  h += "<script>" + ScriptSafe(VegaLiteJs()) + "\n</script>\n";
  h += "<script>" + ScriptSafe(VegaEmbedJs()) + "\n</script>\n";
  h += "</head><body>\n<div id=\"errors\" hidden></div>\n" + body;
  h += "<footer>Generated by aqesim report. Charts: " + Esc(ChartLibraryVersions()) +
       " (inlined; the page makes no network requests).</footer>\n";
  h +=
      "<script type=\"application/json\" id=\"chart-specs\">" + JsonForScript(charts.specs()) + "</script>\n";
  h += "<script>" + std::string(kRunner) + "</script>\n</body></html>\n";
  return h;
}

std::string Card(const std::string& value, const std::string& label) {
  return "<div class=\"card\"><b>" + Esc(value) + "</b><span>" + Esc(label) + "</span></div>";
}

// Text from the input (names, descriptions, keys, values, messages) as one Markdown line of
// literal text: line breaks (also U+2028/U+2029) and other control characters become spaces,
// so nothing starts a heading, list or block further down; Markdown's inline punctuation is
// backslash-escaped, so no emphasis, code, link ("[x](javascript:...)") or table cell forms,
// and what would open a block at the start is escaped there: a list marker followed by a blank
// or the end ("- ", "+ ", "1. ", "12)"), a run of '-' ("---", a thematic break or underline), and
// any '=', '#' or '>' (an underline, a heading, a block quote) — and only those: "-3.5 %", "+2 s",
// "2.58" and "12.5 s" open nothing and are written as they are. Inside the line '#' is written as
// it is ("evaluation #6"), but for a heading's closing sequence (after a blank, only '#' and
// blanks after it, where the text ends a heading line);
// '<' before a letter, '/', '!' or '?' (a tag, comment or autolink) and '&' before a letter,
// digit or '#' (an entity) are backslash-escaped, so no HTML or autolink passes through, and
// elsewhere they stay as written ("<= 256 MiB", "a > b", "R & D" read as they are). Leading blanks
// (spaces, tabs and what became spaces) are dropped: four of them would open a code block.
namespace {

// Whether s[i] reads as a blank once escaped (a space, a control character or U+2028/U+2029,
// which MdEsc turns into spaces) or is past the end: after a list marker, it opens the list.
bool BlankOrEnd(std::string_view s, size_t i) {
  if (i >= s.size()) return true;
  const unsigned char u = static_cast<unsigned char>(s[i]);
  if (u < 0x20 || u == 0x7F || u == ' ') return true;
  return u == 0xE2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
         (static_cast<unsigned char>(s[i + 2]) == 0xA8 || static_cast<unsigned char>(s[i + 2]) == 0xA9);
}

// Whether the '#' at s[i] would be read as a heading's closing sequence when the text ends a
// heading line ("## Title #"): after a blank, followed by nothing but '#' and blanks.
bool ClosesHeading(std::string_view s, size_t i, const std::string& out) {
  if (out.empty() || out.back() != ' ') return false;
  for (size_t j = i; j < s.size(); ++j)
    if (s[j] != '#' && !BlankOrEnd(s, j)) return false;
  return true;
}

}  // namespace

std::string MdEsc(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool leading_digits = true;  // only digits so far: "12." or "12)" would start a list
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const unsigned char u = static_cast<unsigned char>(c);
    const bool line_separator = u == 0xE2 && i + 2 < s.size() &&
                                static_cast<unsigned char>(s[i + 1]) == 0x80 &&
                                (static_cast<unsigned char>(s[i + 2]) == 0xA8 ||  // U+2028 LINE SEPARATOR
                                 static_cast<unsigned char>(s[i + 2]) == 0xA9);  // U+2029 PARAGRAPH SEPARATOR
    if (line_separator || u < 0x20 || u == 0x7F || c == ' ') {
      if (line_separator) i += 2;
      if (!out.empty()) out += ' ';
      leading_digits = false;
      continue;
    }
    const bool first = out.empty();
    const char next = i + 1 < s.size() ? s[i + 1] : '\0';
    const bool alnum_next = std::isalnum(static_cast<unsigned char>(next)) != 0;
    if ((c == '<' && (alnum_next || next == '/' || next == '!' || next == '?')) ||  // a tag or autolink
        (c == '&' && (alnum_next || next == '#')) ||                                // an entity
        (c == '>' && first)) {                                                      // a block quote
      out += '\\';
      out += c;
    } else if (std::string_view("\\`*_[]|~").find(c) != std::string_view::npos ||
               (c == '#' && (first || ClosesHeading(s, i, out))) || (first && c == '=') ||
               (first && (c == '-' || c == '+') && (BlankOrEnd(s, i + 1) || (c == '-' && next == c))) ||
               (leading_digits && !first && (c == '.' || c == ')') && BlankOrEnd(s, i + 1))) {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
    leading_digits = leading_digits && c >= '0' && c <= '9';
  }
  return out;
}

}  // namespace aqesim::report
