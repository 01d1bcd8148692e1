// Reading a --properties-file (Spark's spark-defaults.conf format) into key/value pairs.
//
// Spark reads the file as java.util.Properties: a line is `key value`, `key=value` or
// `key:value` (the key ends at the first unescaped whitespace, '=' or ':'); blank lines and
// lines starting with '#' or '!' are comments. Lines are normalised to `key=value` and then
// parsed with Boost.Program_options' config-file parser. Known difference from Java: as in
// Boost, '#' starts a comment anywhere on a line (a warning says so when a value contains it).
#ifndef AQESIM_MODELS_SCENARIO_PROPERTIES_FILE_H_
#define AQESIM_MODELS_SCENARIO_PROPERTIES_FILE_H_

#include <string>
#include <vector>

#include "models/scenario/scenario.h"

namespace aqesim {

struct PropertyEntry {
  std::string key;
  std::string value;
  int line = 0;  // 1-based line number in the file
};

/// Reads `path`. Problems go to `errors` / `warnings` as Diagnostic{path, "line N", message}
/// (or {path, "", reason} when the file cannot be read). Entries are in file order.
std::vector<PropertyEntry> ReadPropertiesFile(const std::string& path, std::vector<Diagnostic>* errors,
                                              std::vector<Diagnostic>* warnings);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_PROPERTIES_FILE_H_
