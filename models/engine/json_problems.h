// JsonProblems: the "PATH: /pointer: expected ..., found ..." errors of one JSON document read
// back into the simulator's structs (run_result_reader.h), at most kMaxErrors of them, and the
// typed member reads that report them.
#ifndef AQESIM_MODELS_ENGINE_JSON_PROBLEMS_H_
#define AQESIM_MODELS_ENGINE_JSON_PROBLEMS_H_

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace aqesim::json_read {

using Json = nlohmann::json;

/// Problems reported per document: enough to fix a hand-edited file, not a flood.
constexpr int kMaxErrors = 20;

/// Collects "PATH: /pointer: ..." lines for one document, at most kMaxErrors.
class Problems {
 public:
  Problems(const std::string& path, std::vector<std::string>* errors)
      : path_(path), errors_(errors), before_(errors->size()) {}

  bool any() const { return errors_->size() != before_ || dropped_; }
  void Add(const std::string& pointer, const std::string& why) {
    if (static_cast<int>(errors_->size() - before_) >= kMaxErrors) {
      dropped_ = true;
      return;
    }
    errors_->push_back(path_ + ": " + pointer + ": " + why);
  }
  void Expected(const std::string& pointer, const std::string& what, const Json& found) {
    std::string text = found.dump();
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    Add(pointer, "expected " + what + ", found " + text);
  }

  /// obj[key] when present; nullptr otherwise.
  static const Json* Member(const Json& obj, const char* key) {
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }

  void Read(const Json& obj, const char* key, const std::string& at, std::string* out) {
    if (const Json* v = Member(obj, key)) {
      if (v->is_string())
        *out = v->get<std::string>();
      else
        Expected(at + "/" + key, "a string", *v);
    }
  }
  void Read(const Json& obj, const char* key, const std::string& at, bool* out) {
    if (const Json* v = Member(obj, key)) {
      if (v->is_boolean())
        *out = v->get<bool>();
      else
        Expected(at + "/" + key, "true or false", *v);
    }
  }
  void Read(const Json& obj, const char* key, const std::string& at, double* out) {
    if (const Json* v = Member(obj, key)) {
      if (v->is_number())
        *out = v->get<double>();
      else
        Expected(at + "/" + key, "a number", *v);
    }
  }
  void Read(const Json& obj, const char* key, const std::string& at, int64_t* out) {
    if (const Json* v = Member(obj, key)) Integer(*v, at + "/" + key, out);
  }
  void Read(const Json& obj, const char* key, const std::string& at, int* out) {
    int64_t x = *out;
    if (const Json* v = Member(obj, key); v && Integer(*v, at + "/" + key, &x)) {
      if (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max())
        Expected(at + "/" + key, "an integer of at most 2147483647", *v);
      else
        *out = static_cast<int>(x);
    }
  }
  void Read(const Json& obj, const char* key, const std::string& at, std::vector<std::string>* out) {
    const Json* a = Array(obj, key, at);
    if (a == nullptr) return;
    for (size_t i = 0; i < a->size(); ++i) {
      if ((*a)[i].is_string())
        out->push_back((*a)[i].get<std::string>());
      else
        Expected(at + "/" + key + "/" + std::to_string(i), "a string", (*a)[i]);
    }
  }
  void Read(const Json& obj, const char* key, const std::string& at, std::vector<int64_t>* out) {
    const Json* a = Array(obj, key, at);
    if (a == nullptr) return;
    out->reserve(a->size());
    for (size_t i = 0; i < a->size(); ++i) {
      int64_t x = 0;
      Integer((*a)[i], at + "/" + key + "/" + std::to_string(i), &x);
      out->push_back(x);
    }
  }
  /// obj[key] when it is an array; nullptr when absent (or, with an error, not an array).
  const Json* Array(const Json& obj, const char* key, const std::string& at) {
    const Json* v = Member(obj, key);
    if (v == nullptr) return nullptr;
    if (v->is_array()) return v;
    Expected(at + "/" + key, "an array", *v);
    return nullptr;
  }
  /// Whether `v` is an object; an error otherwise.
  bool Object(const Json& v, const std::string& at) {
    if (v.is_object()) return true;
    Expected(at, "an object", v);
    return false;
  }

 private:
  bool Integer(const Json& v, const std::string& at, int64_t* out) {
    if (v.is_number_integer() &&
        !(v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX))) {
      *out = v.get<int64_t>();
      return true;
    }
    Expected(at, "an integer", v);
    return false;
  }

  const std::string& path_;
  std::vector<std::string>* errors_;
  size_t before_;
  bool dropped_ = false;
};

}  // namespace aqesim::json_read

#endif  // AQESIM_MODELS_ENGINE_JSON_PROBLEMS_H_
