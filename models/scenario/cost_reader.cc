#include "models/scenario/cost_reader.h"

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "models/scenario/input_file.h"
#include "models/scenario/json_text.h"
#include "models/scenario/scenario.h"

namespace aqesim {

namespace {

// A cost file's text: parsed as a scenario is (ParseJsonText), its parameters (the object,
// or its "cost" member) checked as a scenario's `cost` is, into `cost`. Problems are
// "FILE: /pointer: message" (or "FILE: line L, column C: message") diagnostics. Returns the
// parameters object (null when the text did not parse).
Json ParseCostFile(const std::string& name, const std::string& text, CostParams* cost,
                   std::vector<Diagnostic>* errors, std::vector<Diagnostic>* warnings) {
  Json doc;
  if (!ParseJsonText(name, text, &doc, errors)) return Json();
  std::string base;
  const Json* params = &doc;
  if (doc.is_object() && doc.contains("cost")) {
    params = &doc["cost"];
    base = "/cost";
  }
  DiagnosticSink file_sink(name);
  ReadCost(*params, cost, &file_sink, base);
  file_sink.Finish(doc, errors, warnings);
  return *params;
}

}  // namespace

void ReadCost(const Json& v, CostParams* cost, DiagnosticSink* sink, const std::string& p) {
  if (!v.is_object()) {
    sink->Error(p, "expected an object of cost parameters, found " + DescribeJson(v));
    return;
  }
  std::vector<std::string> names;
  for (const CostParamInfo& info : CostParamRegistry()) names.emplace_back(info.json_name);
  CheckFields(v, p, names, "cost", sink);
  for (const CostParamInfo& info : CostParamRegistry()) {
    const std::string name(info.json_name);
    if (!v.contains(name)) continue;
    if (auto x = ReadNumber(
            v[name], PointerAppend(p, name), [&info](double d) { return CostParamInRange(info, d); },
            "a number in " + CostParamRange(info) + " (" + std::string(info.unit) + ")", sink))
      cost->*(info.field) = *x;
  }
}

void ReadCostFile(const Json& v, const std::string& dir, CostParams* cost, DiagnosticSink* sink) {
  const std::string p = "/costFile";
  if (!v.is_string() || v.get<std::string>().empty()) {
    sink->Error(p,
                "expected the name of a cost file (written by aqesim calibrate), found " + DescribeJson(v));
    return;
  }
  const std::string given = v.get<std::string>();
  std::filesystem::path file = given;
  if (file.is_relative() && !dir.empty()) file = std::filesystem::path(dir) / file;
  const std::string name = file.string();
  sink->FileRead(name);
  std::string text;
  if (const int err = sink->ReadFile(name, &text, kMaxCostFileBytes); err != 0) {  // never blocks on a FIFO
    sink->Error(p, "cannot read cost file " + DescribeJson(v) + " (" + name +
                       "): " + InputFileError(err, kMaxCostFileBytes));
    return;
  }
  std::vector<Diagnostic> errors, warnings;
  ParseCostFile(name, text, cost, &errors, &warnings);
  for (const Diagnostic& d : errors) sink->Add(true, d.file, d.pointer, p, d.message);
  for (const Diagnostic& d : warnings) sink->Add(false, d.file, d.pointer, p, d.message);
}

std::optional<nlohmann::json> ReadCostFileParameters(const std::string& path, std::vector<Diagnostic>* errors,
                                                     InputFiles* files) {
  std::string text;
  if (const int err = ReadInputFileOnce(files, path, &text, kMaxCostFileBytes);
      err != 0) {  // never blocks on a FIFO
    errors->push_back(
        Diagnostic{path, "", "cannot read the cost file: " + InputFileError(err, kMaxCostFileBytes)});
    return std::nullopt;
  }
  CostParams scratch;
  std::vector<Diagnostic> warnings;
  const size_t before = errors->size();
  Json params = ParseCostFile(path, text, &scratch, errors, &warnings);
  if (errors->size() != before) return std::nullopt;
  return nlohmann::json::parse(params.dump());
}

}  // namespace aqesim
