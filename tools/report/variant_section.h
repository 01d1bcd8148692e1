// The scenario report's "Named variants side by side" section: Apache Spark's AQE-on run and
// each enabled variant's (models/conf/variants.h), as `aqesim run` prints them
// (tools/aqesim/variant_comparison.h) — makespan, tasks, the stages' task counts, skew joins and
// the decisions a variant changed — so a platform team sees what a published enhancement buys
// on its own shuffles. Absent when no variant is on.
#ifndef AQESIM_TOOLS_REPORT_VARIANT_SECTION_H_
#define AQESIM_TOOLS_REPORT_VARIANT_SECTION_H_

#include <string>
#include <vector>

#include "tools/report/html_page.h"
#include "tools/report/report_input.h"

namespace aqesim::report {

/// "" when `rows` is empty.
std::string VariantSectionHtml(const std::vector<VariantRow>& rows, Charts* charts);
std::string VariantSectionMd(const std::vector<VariantRow>& rows);

}  // namespace aqesim::report

#endif  // AQESIM_TOOLS_REPORT_VARIANT_SECTION_H_
