// The chart libraries the HTML report inlines (so it opens offline): Vega, Vega-Lite and
// vega-embed, minified UMD builds from the npm registry at the versions package.json pins.
// Their bytes are compiled into the binary: tools/report/embed_assets.cmake generates the
// definitions at build time from node_modules/ (see tools/report/CMakeLists.txt).
#ifndef AQESIM_TOOLS_REPORT_REPORT_ASSETS_H_
#define AQESIM_TOOLS_REPORT_REPORT_ASSETS_H_

#include <string_view>

namespace aqesim::report {

std::string_view VegaJs();       // node_modules/vega/build/vega.min.js
std::string_view VegaLiteJs();   // node_modules/vega-lite/build/vega-lite.min.js
std::string_view VegaEmbedJs();  // node_modules/vega-embed/build/vega-embed.min.js
/// "vega 6.4.0, vega-lite 6.5.0, vega-embed 7.3.0"
std::string_view ChartLibraryVersions();

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_REPORT_ASSETS_H_
