// Helpers for reading a scenario document with precise diagnostics: every problem is
// recorded against the JSON pointer of the offending value as "expected ..., found ...",
// and reading continues so that one pass reports everything.
#ifndef AQESIM_MODELS_SCENARIO_JSON_READER_H_
#define AQESIM_MODELS_SCENARIO_JSON_READER_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/scenario/document_position.h"
#include "models/scenario/scenario.h"

namespace aqesim {

/// Scenario documents keep their key order so that problems are reported in document order.
using Json = nlohmann::ordered_json;

/// The value as a message shows it after "found": scalars as compact JSON (`-5`, `"abc"`,
/// `true`, `null`; long strings cut to 60 characters with "..."), containers as
/// `an array` / `an object` (`an empty array` / `an empty object`).
std::string DescribeJson(const Json& value);

/// `pointer` + "/" + the escaped token (RFC 6901: "~" → "~0", "/" → "~1").
std::string PointerAppend(const std::string& pointer, std::string_view key);
std::string PointerAppend(const std::string& pointer, size_t index);

/// Keys given more than once in one object of `text` (a syntactically valid JSON document):
/// the JSON pointer of each such key (once per object and key, in document order) and the
/// key. JSON parsers silently keep one of the values; a scenario treats it as an error.
struct DuplicateKey {
  std::string pointer;
  std::string key;
};
std::vector<DuplicateKey> FindDuplicateKeys(const std::string& text);

/// Byte offset of the first '[' or '{' of `text` nested deeper than kMaxJsonDepth (outside
/// strings), or npos. Deeper documents are refused before parsing: copying or converting
/// such a value recurses once per level (nlohmann's ordered_json copies an object's members
/// when it grows), which overflows the stack.
inline constexpr size_t kMaxJsonDepth = 10000;

size_t JsonNestingTooDeep(const std::string& text);

/// An object with more than kMaxJsonObjectMembers members is refused before parsing too (the
/// order-keeping JSON object inserts each key with a linear search: 10^5 keys took 9 s of
/// CPU). Arrays are not limited here.
inline constexpr size_t kMaxJsonObjectMembers = 10000;

/// Both limits from one pass over `text` (outside strings): `too_deep` is the offset of the
/// first '[' or '{' nested deeper than kMaxJsonDepth (the scan stops there), `too_wide` the
/// offset of the first comma that gives an object more than kMaxJsonObjectMembers members;
/// npos where the text is within the limit.
struct JsonShape {
  size_t too_deep = std::string::npos;
  size_t too_wide = std::string::npos;
};
JsonShape ScanJsonShape(const std::string& text);

/// Where a problem came from, for ordering: the scenario document (by the document position
/// of `sort_pointer`), then the --properties-file (by line), then --conf (by position).
enum class ProblemOrigin { kDocument = 0, kPropertiesFile = 1, kCommandLine = 2 };

/// Collects errors and warnings while a document is read.
class DiagnosticSink {
 public:
  explicit DiagnosticSink(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }

  /// A problem at `pointer` of the scenario document.
  void Error(const std::string& pointer, std::string message) {
    Add(true, file_, pointer, pointer, std::move(message));
  }
  void Warning(const std::string& pointer, std::string message) {
    Add(false, file_, pointer, pointer, std::move(message));
  }
  /// A problem printed as `file: location: message` but ordered as if at `sort_pointer`
  /// (e.g. a line of a csv file named by the document).
  void Add(bool is_error, std::string file, std::string location, std::string sort_pointer,
           std::string message, ProblemOrigin origin = ProblemOrigin::kDocument, size_t origin_position = 0);

  size_t error_count() const { return errors_; }

  /// Records a file the document names and the loader reads (a csv matrix, a cost file), so
  /// that commands can refuse to write their output onto it.
  void FileRead(std::string path) { files_read_.push_back(std::move(path)); }
  const std::vector<std::string>& files_read() const { return files_read_; }
  /// Reads a file the document names, through the command's InputFiles (set_files) when set.
  int ReadFile(const std::string& path, std::string* text, size_t max_bytes) const {
    return ReadInputFileOnce(files_, path, text, max_bytes);
  }
  void set_files(InputFiles* files) { files_ = files; }
  InputFiles* files() const { return files_; }

  /// Errors and warnings in report order: document problems by the position of their
  /// pointer in `doc` (a parent before its fields, fields in document order), stable for
  /// problems at the same place; then properties-file and command-line problems.
  void Finish(const Json& doc, std::vector<Diagnostic>* errors, std::vector<Diagnostic>* warnings) const;
  /// Same, ordered as in `doc` with the `replaced` top-level members swapped in (a member doc
  /// lacks goes where setting it would put it: in key order when doc's keys are sorted, else
  /// last) — without copying `doc`.
  void Finish(const Json& doc, const ReplacedMembers& replaced, std::vector<Diagnostic>* errors,
              std::vector<Diagnostic>* warnings) const;

  /// Appends `other`'s problems (after this sink's, in their order) and files read.
  void Append(const DiagnosticSink& other);

 private:
  struct Entry {
    bool is_error;
    Diagnostic diagnostic;
    std::string sort_pointer;
    ProblemOrigin origin;
    size_t origin_position;
    size_t sequence;
  };
  std::string file_;
  std::vector<Entry> entries_;
  size_t errors_ = 0;
  std::vector<std::string> files_read_;
  InputFiles* files_ = nullptr;
};

/// Checks that `object` only has fields from `allowed` (an unknown field is an error at its
/// pointer: `unknown field "bytez" of a scan node; did you mean "bytes"?`, or with the list
/// of known fields when nothing is close). `what` names the object ("a scan node").
void CheckFields(const Json& object, const std::string& pointer, const std::vector<std::string>& allowed,
                 std::string_view what, DiagnosticSink* sink);

/// Each reader returns nullopt after recording an error when the value is not acceptable.
std::optional<std::string> ReadString(const Json& v, const std::string& pointer, DiagnosticSink* sink);
std::optional<bool> ReadBool(const Json& v, const std::string& pointer, DiagnosticSink* sink);
/// An integer in [min, max]; integral floating values (4.0, 1e3) are accepted. `what` is the
/// expectation ("a positive integer").
std::optional<int64_t> ReadInteger(const Json& v, const std::string& pointer, int64_t min, int64_t max,
                                   std::string_view what, DiagnosticSink* sink);
/// A non-negative integer that may use the full unsigned 64-bit range (seeds).
std::optional<uint64_t> ReadUnsigned(const Json& v, const std::string& pointer, std::string_view what,
                                     DiagnosticSink* sink);
/// A finite number accepted by `check`.
std::optional<double> ReadNumber(const Json& v, const std::string& pointer,
                                 const std::function<bool(double)>& check, std::string_view what,
                                 DiagnosticSink* sink);

struct ByteCountOptions {
  bool allow_string = true;  // also "64m", "1g" (Spark byte strings)
  bool positive = false;     // > 0 instead of >= 0
};
/// A byte count: a non-negative (or positive) integer, or a Spark byte string. Fractions,
/// negative values and values that do not fit in 63 bits are errors.
std::optional<int64_t> ReadByteCount(const Json& v, const std::string& pointer, ByteCountOptions options,
                                     DiagnosticSink* sink);

/// An enumerated name: `parse` maps it, `names` lists the valid spellings (for the message
/// and "did you mean"), `what` names the kind ("a join type").
template <typename T, typename Parse>
std::optional<T> ReadEnum(const Json& v, const std::string& pointer, Parse parse,
                          const std::vector<std::string>& names, std::string_view what, DiagnosticSink* sink);

/// "a, b, c" of the names.
std::string JoinNames(const std::vector<std::string>& names);
/// The "expected WHAT (a, b, c), found X[; did you mean "Y"?]" message of a bad enum value.
std::string BadEnumMessage(const Json& v, const std::vector<std::string>& names, std::string_view what);

template <typename T, typename Parse>
std::optional<T> ReadEnum(const Json& v, const std::string& pointer, Parse parse,
                          const std::vector<std::string>& names, std::string_view what,
                          DiagnosticSink* sink) {
  if (v.is_string()) {
    if (std::optional<T> parsed = parse(v.template get_ref<const std::string&>())) return parsed;
  }
  sink->Error(pointer, BadEnumMessage(v, names, what));
  return std::nullopt;
}

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_JSON_READER_H_
