#include "models/scenario/json_reader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "models/conf/did_you_mean.h"
#include "models/conf/property_value.h"
#include "models/scenario/document_position.h"
#include "models/scenario/error_cap.h"

namespace aqesim {

std::string DescribeJson(const Json& value) {
  switch (value.type()) {
    case Json::value_t::array:
      return value.empty() ? "an empty array" : "an array";
    case Json::value_t::object:
      return value.empty() ? "an empty object" : "an object";
    case Json::value_t::string: {
      // Strings from csv or properties files may hold invalid UTF-8, and the cut may split a
      // character: such bytes print as U+FFFD instead of making dump() throw.
      constexpr auto kReplace = Json::error_handler_t::replace;
      const std::string& s = value.get_ref<const std::string&>();
      if (s.size() > 60) return Json(s.substr(0, 57) + "...").dump(-1, ' ', false, kReplace);
      return value.dump(-1, ' ', false, kReplace);
    }
    default:
      return value.dump();
  }
}

std::string PointerAppend(const std::string& pointer, std::string_view key) {
  std::string out = pointer + "/";
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string PointerAppend(const std::string& pointer, size_t index) {
  return pointer + "/" + std::to_string(index);
}

JsonShape ScanJsonShape(const std::string& text) {
  JsonShape shape;
  std::vector<std::pair<bool, size_t>> open;  // per open container: object?, members so far
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
      if (!open.empty() && open.back().first && open.back().second == 0) open.back().second = 1;
    } else if (c == '[' || c == '{') {
      open.push_back({c == '{', 0});
      if (open.size() > kMaxJsonDepth) {
        shape.too_deep = i;
        return shape;
      }
    } else if ((c == ']' || c == '}') && !open.empty()) {
      open.pop_back();
    } else if (c == ',' && !open.empty() && open.back().first) {
      if (++open.back().second > kMaxJsonObjectMembers && shape.too_wide == std::string::npos)
        shape.too_wide = i;
    }
  }
  return shape;
}

size_t JsonNestingTooDeep(const std::string& text) { return ScanJsonShape(text).too_deep; }

std::vector<DuplicateKey> FindDuplicateKeys(const std::string& text) {
  // One frame per open container; the pointer of a key is built only when it is a duplicate
  // (a 100000-deep document must not build 100000 pointers).
  struct Finder : nlohmann::json_sax<Json> {
    struct Frame {
      bool object = false;
      std::set<std::string> keys, reported;  // objects: keys seen, duplicates reported
      std::string key;                       // objects: the current key
      size_t next_index = 0;                 // arrays: index of the next element
    };
    std::vector<Frame> frames;
    std::vector<DuplicateKey> found;

    void Element() {  // a value starts: arrays count it
      if (!frames.empty() && !frames.back().object) ++frames.back().next_index;
    }
    std::string Pointer() const {
      std::string p;
      for (const Frame& f : frames)
        p = f.object ? PointerAppend(p, f.key) : PointerAppend(p, f.next_index - 1);
      return p;
    }
    bool null() override { return Element(), true; }
    bool boolean(bool) override { return Element(), true; }
    bool number_integer(number_integer_t) override { return Element(), true; }
    bool number_unsigned(number_unsigned_t) override { return Element(), true; }
    bool number_float(number_float_t, const string_t&) override { return Element(), true; }
    bool string(string_t&) override { return Element(), true; }
    bool binary(binary_t&) override { return Element(), true; }
    bool start_object(std::size_t) override {
      Element();
      frames.push_back({true, {}, {}, {}, 0});
      return true;
    }
    bool key(string_t& k) override {
      Frame& f = frames.back();
      f.key = k;
      if (!f.keys.insert(k).second && f.reported.insert(k).second) found.push_back({Pointer(), k});
      return true;
    }
    bool end_object() override { return frames.pop_back(), true; }
    bool start_array(std::size_t) override {
      Element();
      frames.push_back({false, {}, {}, {}, 0});
      return true;
    }
    bool end_array() override { return frames.pop_back(), true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
      return false;
    }
  } finder;
  Json::sax_parse(text, &finder);
  return finder.found;
}

void DiagnosticSink::Add(bool is_error, std::string file, std::string location, std::string sort_pointer,
                         std::string message, ProblemOrigin origin, size_t origin_position) {
  if (is_error) ++errors_;
  entries_.push_back({is_error, Diagnostic{std::move(file), std::move(location), std::move(message)},
                      std::move(sort_pointer), origin, origin_position, entries_.size()});
}

void DiagnosticSink::Append(const DiagnosticSink& other) {
  for (const Entry& e : other.entries_) {
    entries_.push_back(e);
    entries_.back().sequence = entries_.size() - 1;
  }
  errors_ += other.errors_;
  files_read_.insert(files_read_.end(), other.files_read_.begin(), other.files_read_.end());
}

void DiagnosticSink::Finish(const Json& doc, std::vector<Diagnostic>* errors,
                            std::vector<Diagnostic>* warnings) const {
  Finish(doc, {}, errors, warnings);
}

void DiagnosticSink::Finish(const Json& doc, const ReplacedMembers& replaced, std::vector<Diagnostic>* errors,
                            std::vector<Diagnostic>* warnings) const {
  struct Keyed {
    int origin;
    std::vector<size_t> position;
    size_t sequence;
    const Entry* entry;
  };
  std::vector<Keyed> keyed;
  keyed.reserve(entries_.size());
  DocumentPositions positions(doc, replaced);
  for (const Entry& e : entries_) {
    std::vector<size_t> position;
    if (e.origin == ProblemOrigin::kDocument)
      position = positions.Of(e.sort_pointer);
    else
      position = {e.origin_position};
    keyed.push_back({static_cast<int>(e.origin), std::move(position), e.sequence, &e});
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    return std::tie(a.origin, a.position, a.sequence) < std::tie(b.origin, b.position, b.sequence);
  });
  // The first kMaxErrorsListed errors, then one line counting the rest (error_cap.h).
  size_t listed = 0;
  for (const Keyed& k : keyed) {
    if (!k.entry->is_error)
      warnings->push_back(k.entry->diagnostic);
    else if (listed++ < kMaxErrorsListed)
      errors->push_back(k.entry->diagnostic);
  }
  if (listed > kMaxErrorsListed) errors->push_back({file_, "", MoreErrorsMessage(listed - kMaxErrorsListed)});
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

void CheckFields(const Json& object, const std::string& pointer, const std::vector<std::string>& allowed,
                 std::string_view what, DiagnosticSink* sink) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (std::find(allowed.begin(), allowed.end(), it.key()) != allowed.end()) continue;
    std::string message = "unknown field " + Json(it.key()).dump() + " of " + std::string(what);
    if (auto s = DidYouMean(it.key(), allowed))
      message += "; did you mean \"" + *s + "\"?";
    else
      message += " (known fields: " + JoinNames(allowed) + ")";
    sink->Error(PointerAppend(pointer, it.key()), message);
  }
}

std::string BadEnumMessage(const Json& v, const std::vector<std::string>& names, std::string_view what) {
  std::string message =
      "expected " + std::string(what) + " (" + JoinNames(names) + "), found " + DescribeJson(v);
  if (v.is_string()) {
    if (auto s = DidYouMean(v.get_ref<const std::string&>(), names))
      message += "; did you mean \"" + *s + "\"?";
  }
  return message;
}

std::optional<std::string> ReadString(const Json& v, const std::string& pointer, DiagnosticSink* sink) {
  if (v.is_string()) return v.get<std::string>();
  sink->Error(pointer, "expected a string, found " + DescribeJson(v));
  return std::nullopt;
}

std::optional<bool> ReadBool(const Json& v, const std::string& pointer, DiagnosticSink* sink) {
  if (v.is_boolean()) return v.get<bool>();
  sink->Error(pointer, "expected true or false, found " + DescribeJson(v));
  return std::nullopt;
}

std::optional<int64_t> ReadInteger(const Json& v, const std::string& pointer, int64_t min, int64_t max,
                                   std::string_view what, DiagnosticSink* sink) {
  std::optional<int64_t> value;
  if (v.is_number_integer() && !v.is_number_unsigned()) {
    value = v.get<int64_t>();
  } else if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) value = static_cast<int64_t>(u);
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e18) value = static_cast<int64_t>(d);
  }
  if (value && *value >= min && *value <= max) return value;
  sink->Error(pointer, "expected " + std::string(what) + ", found " + DescribeJson(v));
  return std::nullopt;
}

std::optional<uint64_t> ReadUnsigned(const Json& v, const std::string& pointer, std::string_view what,
                                     DiagnosticSink* sink) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d >= 0 && d == std::floor(d) && d < 1.8e19) return static_cast<uint64_t>(d);
  }
  sink->Error(pointer, "expected " + std::string(what) + ", found " + DescribeJson(v));
  return std::nullopt;
}

std::optional<double> ReadNumber(const Json& v, const std::string& pointer,
                                 const std::function<bool(double)>& check, std::string_view what,
                                 DiagnosticSink* sink) {
  if (v.is_number()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && check(d)) return d;
  }
  sink->Error(pointer, "expected " + std::string(what) + ", found " + DescribeJson(v));
  return std::nullopt;
}

std::optional<int64_t> ReadByteCount(const Json& v, const std::string& pointer, ByteCountOptions options,
                                     DiagnosticSink* sink) {
  const std::string sign_word = options.positive ? "a positive" : "a non-negative";
  auto range_error = [&] {
    sink->Error(pointer, "expected " + sign_word + " byte count, found " + DescribeJson(v));
    return std::nullopt;
  };
  auto check_sign = [&](int64_t value) -> std::optional<int64_t> {
    if (value < 0 || (options.positive && value == 0)) return range_error();
    return value;
  };
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      sink->Error(pointer, "expected a byte count below 2^63, found " + DescribeJson(v));
      return std::nullopt;
    }
    return check_sign(static_cast<int64_t>(u));
  }
  if (v.is_number_integer()) return check_sign(v.get<int64_t>());
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (d < 0) return range_error();
    if (d != std::floor(d)) {
      sink->Error(pointer, "expected a whole number of bytes, found " + DescribeJson(v));
      return std::nullopt;
    }
    if (!(d < 9223372036854775808.0)) {
      sink->Error(pointer, "expected a byte count below 2^63, found " + DescribeJson(v));
      return std::nullopt;
    }
    return check_sign(static_cast<int64_t>(d));
  }
  if (v.is_string() && options.allow_string) {
    const SizeStringResult r = ParseSizeString(v.get_ref<const std::string&>());
    if (!r.ok()) {
      const std::string reason = SizeStringErrorReason(r.error);
      sink->Error(pointer, "expected a byte string such as \"64m\" or \"1g\", found " + DescribeJson(v) +
                               (reason.empty() ? "" : " (" + reason + ")"));
      return std::nullopt;
    }
    return check_sign(r.value);
  }
  sink->Error(pointer, std::string(options.allow_string
                                       ? "expected a byte count (an integer or a byte string such as \"64m\")"
                                       : "expected a byte count (a non-negative integer)") +
                           ", found " + DescribeJson(v));
  return std::nullopt;
}

}  // namespace aqesim
