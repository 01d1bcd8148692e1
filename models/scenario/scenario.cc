#include "models/scenario/scenario.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "models/scenario/input_file.h"
#include "models/scenario/json_reader.h"
#include "models/scenario/json_text.h"
#include "models/scenario/scenario_base.h"
#include "models/scenario/scenario_overrides.h"
#include "models/scenario/shown_pointer.h"

namespace aqesim {

std::string Diagnostic::ToString() const {
  std::string out = file;
  if (!pointer.empty()) out += (out.empty() ? "" : ": ") + ShownPointer(pointer);
  out += (out.empty() ? "" : ": ") + message;
  // One line whatever the input: control characters (a key "a\nb" in a pointer) print as \xNN.
  return EscapeBytes(out, /*escape_non_ascii=*/false);
}

std::string JoinDiagnostics(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += (out.empty() ? "" : "; ") + d.ToString();
  return out;
}

// Both loaders read the document once (ReadScenarioBase) and build it once (BuildScenario).
LoadResult LoadScenarioFile(const std::string& path, const ConfOverrides& overrides) {
  LoadResult result;
  const std::shared_ptr<const ScenarioBase> base =
      ReadScenarioBaseFile(path, overrides.files.get(), &result.errors);
  if (!base) return result;
  return BuildScenario(*base, ReadOverrides(overrides));
}

LoadResult LoadScenarioJson(const nlohmann::json& doc, const std::string& path,
                            const ConfOverrides& overrides) {
  // nlohmann::json keeps object keys sorted; problems come out in that order.
  const std::shared_ptr<const ScenarioBase> base = ReadScenarioBase(Json(doc), path, overrides.files.get());
  return BuildScenario(*base, ReadOverrides(overrides));
}

}  // namespace aqesim
