// Reading a --properties-file (Spark's spark-defaults.conf format) into key/value pairs.
//
// Spark reads the file as java.util.Properties (UTF-8; Utils.getPropertiesFromFile trims each
// value), and so does this reader: a logical line is `key value`, `key=value` or `key:value`
// (the key ends at the first unescaped whitespace, '=' or ':'); a line ending in an odd number
// of backslashes continues on the next; \t \n \r \f \uXXXX and \c escapes in keys and
// values; blank lines and lines starting with '#' or '!' are comments ('#' elsewhere is part of
// the value). Malformed UTF-8 bytes read as U+FFFD (as Java's decoder reads them). A key given
// twice is a warning (the later value wins, as in Java); a malformed \uXXXX and a bare
// "[section]" line (an INI header, not a property) are errors.
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
/// The file is read through `files` when it is not null (input_file.h).
std::vector<PropertyEntry> ReadPropertiesFile(const std::string& path, std::vector<Diagnostic>* errors,
                                              std::vector<Diagnostic>* warnings, InputFiles* files = nullptr);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_PROPERTIES_FILE_H_
