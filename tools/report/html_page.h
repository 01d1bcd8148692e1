// The page `aqesim report` writes: one self-contained HTML file (Vega, Vega-Lite and vega-embed
// inlined, report_assets.h; a Content-Security-Policy that allows no network request) whose
// charts are Vega-Lite specs collected by Charts and rendered by vega-embed when the page opens
// (a chart that fails sets data-error and lists itself in #errors; the body gets
// data-charts-done once all settled — what the browser test waits for). Also the escaping of
// input text for HTML and for Markdown. Shared by the run, sweep and tune reports.
#ifndef AQESIM_TOOLS_REPORT_HTML_PAGE_H_
#define AQESIM_TOOLS_REPORT_HTML_PAGE_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace aqesim::report {

/// Text as HTML character data or an attribute value: & < > " escaped.
std::string Esc(std::string_view s);
/// Text as one Markdown line of literal text (see the definition's comment).
std::string MdEsc(std::string_view s);

// Collects the Vega-Lite specs; each Add returns the chart's container.
class Charts {
 public:
  std::string Add(nlohmann::ordered_json spec, const std::string& caption = "") {
    const std::string id = "chart-" + std::to_string(specs_.size() + 1);
    specs_[id] = std::move(spec);
    return "<figure><div class=\"chart\" id=\"" + id + "\"></div>" +
           (caption.empty() ? "" : "<figcaption>" + Esc(caption) + "</figcaption>") + "</figure>\n";
  }
  const nlohmann::ordered_json& specs() const { return specs_; }
  size_t size() const { return specs_.size(); }

 private:
  nlohmann::ordered_json specs_ = nlohmann::ordered_json::object();
};

/// A Vega-Lite spec with the page's width, `height` pixels and `title`.
nlohmann::ordered_json BaseSpec(const std::string& title, int height);
/// The whole page: `body` (HTML) with the charts' specs and the script that renders them.
std::string Page(const std::string& title, const std::string& body, const Charts& charts);
/// A headline figure: `value` large, `label` under it.
std::string Card(const std::string& value, const std::string& label);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_HTML_PAGE_H_
