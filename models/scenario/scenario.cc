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

#include "models/conf/did_you_mean.h"
#include "models/scenario/byte_totals.h"
#include "models/scenario/input_file.h"
#include "models/scenario/json_reader.h"
#include "models/scenario/plan_reader.h"
#include "models/scenario/properties_file.h"

namespace aqesim {

namespace {

// `text` with control characters (and, when `escape_non_ascii`, every byte above 0x7e)
// written as \xNN, so that it prints as one line of the bytes given.
std::string EscapeBytes(const std::string& text, bool escape_non_ascii) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c != 0x7f && !(escape_non_ascii && c > 0x7f)) {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    }
  }
  return out;
}

}  // namespace

std::string Diagnostic::ToString() const {
  std::string out = file;
  if (!pointer.empty()) out += (out.empty() ? "" : ": ") + pointer;
  out += (out.empty() ? "" : ": ") + message;
  // One line whatever the input: control characters (a key "a\nb" in a pointer) print as \xNN.
  return EscapeBytes(out, /*escape_non_ascii=*/false);
}

namespace {

const std::vector<std::string> kTopLevelFields = {
    "name", "description", "seed", "cluster", "conf", "costFile", "cost", "simulation", "plan", "estimated"};
const std::vector<std::string> kClusterFields = {"executors",          "executorCores",
                                                 "executorMemory",     "networkBytesPerSecond",
                                                 "diskBytesPerSecond", "driverNetworkBytesPerSecond",
                                                 "driverMemory",       "executorTimeline",
                                                 "warmExecutors",      "warmCodeExecutors"};

// Where a configuration value came from (the last writer wins), for messages and ordering.
struct ConfOrigin {
  ProblemOrigin origin = ProblemOrigin::kDocument;
  std::string file;
  std::string location;  // JSON pointer, "line N" or ""
  size_t position = 0;
};

// Which cluster fields the scenario gave (the others may come from spark.executor.*).
struct ClusterGiven {
  bool executors = false, cores = false, memory = false;
};

// `executorTimeline`: [{"add": s, "remove": s}, ...], seconds from the start; "add" required
// (<= 0: present from the start), "remove" optional and later than "add". At least one
// executor must never be removed, so that every task finds a slot eventually.
void ReadExecutorTimeline(const Json& v, const std::string& p, ClusterSpec* cluster, DiagnosticSink* sink) {
  if (!v.is_array() || v.empty() || v.size() > 1'000'000) {
    sink->Error(p,
                "expected a non-empty array (at most 1000000) of executors {\"add\": seconds, \"remove\": "
                "seconds}, found " +
                    DescribeJson(v));
    return;
  }
  std::vector<ExecutorLifetime> out;
  bool ok = true, one_stays = false;
  auto finite = [](double d) { return std::isfinite(d); };
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string q = PointerAppend(p, i);
    const Json& e = v[i];
    if (!e.is_object()) {
      sink->Error(q,
                  "expected an executor {\"add\": seconds, \"remove\": seconds}, found " + DescribeJson(e));
      ok = false;
      continue;
    }
    CheckFields(e, q, {"add", "remove", "warm", "warmCode"}, "an executor of the timeline", sink);
    ExecutorLifetime life;
    if (!e.contains("add")) {
      sink->Error(q, "missing field \"add\" (seconds from the start at which the executor registers)");
      ok = false;
    } else if (auto a = ReadNumber(e["add"], PointerAppend(q, "add"), finite, "a number of seconds", sink)) {
      life.add_seconds = *a;
    } else {
      ok = false;
    }
    if (e.contains("remove")) {
      const double add = life.add_seconds;
      if (auto r = ReadNumber(
              e["remove"], PointerAppend(q, "remove"), [&](double d) { return finite(d) && d > add; },
              "a number of seconds later than \"add\" (" + Json(add).dump() + ")", sink)) {
        life.remove_seconds = *r;
      } else {
        ok = false;
      }
    } else {
      one_stays = true;
    }
    if (e.contains("warm")) {
      if (auto w = ReadBool(e["warm"], PointerAppend(q, "warm"), sink))
        life.warm = *w;
      else
        ok = false;
    }
    if (e.contains("warmCode")) {
      if (auto w = ReadBool(e["warmCode"], PointerAppend(q, "warmCode"), sink))
        life.warm_code = *w;
      else
        ok = false;
    }
    out.push_back(life);
  }
  if (ok && !one_stays) {
    sink->Error(
        p,
        "expected at least one executor without \"remove\" (tasks would wait forever once all are gone), "
        "found every executor removed");
    ok = false;
  }
  if (ok) cluster->executor_timeline = std::move(out);
}

// Most executors of the timeline present at once (removals before registrations at a tie).
int PeakExecutors(const std::vector<ExecutorLifetime>& timeline) {
  std::vector<std::pair<double, int>> events;
  for (const ExecutorLifetime& e : timeline) {
    events.emplace_back(std::max(0.0, e.add_seconds), +1);
    if (e.remove_seconds) events.emplace_back(std::max(0.0, *e.remove_seconds), -1);
  }
  std::sort(events.begin(), events.end());
  int live = 0, peak = 0;
  for (const auto& [t, d] : events) {
    live += d;
    peak = std::max(peak, live);
  }
  return std::max(peak, 1);
}

ClusterGiven ReadCluster(const Json& v, ClusterSpec* cluster, DiagnosticSink* sink) {
  ClusterGiven given;
  const std::string p = "/cluster";
  if (!v.is_object()) {
    sink->Error(p, "expected an object (executors, executorCores, ...), found " + DescribeJson(v));
    return given;
  }
  CheckFields(v, p, kClusterFields, "cluster", sink);
  auto field = [&](const char* name) { return PointerAppend(p, name); };
  if (v.contains("executors")) {
    given.executors = true;
    if (auto n = ReadInteger(v["executors"], field("executors"), 1, 1'000'000, "a positive integer", sink))
      cluster->executors = static_cast<int>(*n);
  }
  if (v.contains("executorCores")) {
    given.cores = true;
    if (auto n =
            ReadInteger(v["executorCores"], field("executorCores"), 1, 100'000, "a positive integer", sink))
      cluster->executor_cores = static_cast<int>(*n);
  }
  const ByteCountOptions positive{.allow_string = true, .positive = true};
  auto bytes = [&](const char* name, int64_t* out) {
    if (!v.contains(name)) return false;
    if (auto b = ReadByteCount(v[name], field(name), positive, sink)) *out = *b;
    return true;
  };
  given.memory = bytes("executorMemory", &cluster->executor_memory_bytes);
  bytes("networkBytesPerSecond", &cluster->network_bytes_per_second);
  bytes("diskBytesPerSecond", &cluster->disk_bytes_per_second);
  bytes("driverNetworkBytesPerSecond", &cluster->driver_network_bytes_per_second);
  bytes("driverMemory", &cluster->driver_memory_bytes);
  if (v.contains("warmExecutors")) {
    if (auto n = ReadInteger(v["warmExecutors"], field("warmExecutors"), 0, 1'000'000,
                             "a non-negative integer", sink))
      cluster->warm_executors = static_cast<int>(*n);
  }
  if (v.contains("warmCodeExecutors")) {
    if (auto n = ReadInteger(v["warmCodeExecutors"], field("warmCodeExecutors"), 0, 1'000'000,
                             "a non-negative integer", sink))
      cluster->warm_code_executors = static_cast<int>(*n);
  }
  if (v.contains("executorTimeline"))
    ReadExecutorTimeline(v["executorTimeline"], field("executorTimeline"), cluster, sink);
  return given;
}

void ReadCost(const Json& v, CostParams* cost, DiagnosticSink* sink, const std::string& p = "/cost") {
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
            v[name], PointerAppend(p, name), [](double d) { return d >= 0; },
            "a number >= 0 (" + std::string(info.unit) + ")", sink))
      cost->*(info.field) = *x;
  }
}

// Line and column (1-based) of byte offset `offset` in `text`.
std::pair<size_t, size_t> LineColumn(const std::string& text, size_t offset) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// Byte offset of the first number that overflows a double (where nlohmann's parser stops
// with out_of_range 406); 0 if none is found.
size_t NumberOverflowOffset(const std::string& text) {
  struct Locator : nlohmann::json_sax<Json> {
    size_t offset = 0;
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return true; }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return true; }
    bool end_array() override { return true; }
    bool parse_error(std::size_t position, const std::string& token,
                     const nlohmann::detail::exception&) override {
      offset = position >= token.size() ? position - token.size() : 0;
      return false;
    }
  } locator;
  Json::sax_parse(text, &locator);
  return locator.offset;
}

// Parses a JSON text as the scenario loader does, into `doc`: nesting deeper than
// kMaxJsonDepth (nlohmann recurses), syntax errors and numbers beyond a double at their line
// and column, a NUL byte, duplicate keys at their pointer. False, with `errors`, on any.
bool ParseJsonText(const std::string& path, const std::string& text, Json* doc,
                   std::vector<Diagnostic>* errors) {
  const size_t before = errors->size();
  if (const size_t deep = JsonNestingTooDeep(text); deep != std::string::npos) {
    const auto [line, col] = LineColumn(text, deep);
    errors->push_back({path, "line " + std::to_string(line) + ", column " + std::to_string(col),
                       "expected arrays and objects nested at most " + std::to_string(kMaxJsonDepth) +
                           " deep, found deeper nesting"});
    return false;
  }
  try {
    *doc = Json::parse(text);
  } catch (const Json::parse_error& e) {
    // nlohmann: "[json.exception.parse_error.101] parse error at line L, column C: MESSAGE".
    std::string message = e.what();
    const size_t column = message.find(", column ");
    const size_t colon = column == std::string::npos ? std::string::npos : message.find(": ", column);
    if (colon != std::string::npos) message = message.substr(colon + 2);
    // "last read: '...'" echoes raw input: show bytes outside printable ASCII as \xNN.
    message = EscapeBytes(message, /*escape_non_ascii=*/true);
    // e.byte is one past the character where parsing stopped.
    const auto [line, col] = LineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
    errors->push_back({path, "line " + std::to_string(line) + ", column " + std::to_string(col), message});
    return false;
  } catch (const Json::out_of_range& e) {
    // A number beyond double's range ("1e400"): nlohmann gives no position, a SAX pass does.
    const auto [line, col] = LineColumn(text, NumberOverflowOffset(text));
    std::string message = e.what();
    const size_t quote = message.find('\'');
    const std::string literal =
        quote == std::string::npos ? "" : message.substr(quote + 1, message.size() - quote - 2);
    errors->push_back({path, "line " + std::to_string(line) + ", column " + std::to_string(col),
                       "expected a number within the range of a double (about 1.8e308), found " + literal});
    return false;
  }
  // nlohmann's parser took a NUL byte for the end of the input: what follows was ignored.
  if (const size_t nul = text.find('\0'); nul != std::string::npos) {
    const auto [line, col] = LineColumn(text, nul);
    errors->push_back({path, "line " + std::to_string(line) + ", column " + std::to_string(col),
                       "unexpected NUL byte (\\x00): not a JSON text"});
    return false;
  }
  // The parser keeps the last of duplicate keys; which value is meant is the user's call.
  for (const DuplicateKey& d : FindDuplicateKeys(text)) {
    errors->push_back(
        {path, d.pointer,
         "duplicate key " + DescribeJson(Json(d.key)) + " in an object (which value is meant?)"});
  }
  return errors->size() == before;
}

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

// `costFile`: a cost file (`aqesim calibrate -o`: an object of cost parameters, or
// {"cost": {...}}), relative to the scenario's folder. Its parameters are applied before the
// scenario's own `cost`, which therefore wins. Problems inside the file are reported as
// "COSTFILE: /parameter: message", ordered at /costFile.
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
  if (const int err = ReadInputFile(name, &text); err != 0) {  // never blocks on a FIFO
    sink->Error(p, "cannot read cost file " + DescribeJson(v) + " (" + name + "): " + std::strerror(err));
    return;
  }
  std::vector<Diagnostic> errors, warnings;
  ParseCostFile(name, text, cost, &errors, &warnings);
  for (const Diagnostic& d : errors) sink->Add(true, d.file, d.pointer, p, d.message);
  for (const Diagnostic& d : warnings) sink->Add(false, d.file, d.pointer, p, d.message);
}

void ReadSimulation(const Json& v, Scenario* scenario, DiagnosticSink* sink) {
  const std::string p = "/simulation";
  if (!v.is_object()) {
    sink->Error(p, "expected an object (mapStatus), found " + DescribeJson(v));
    return;
  }
  CheckFields(v, p, {"mapStatus"}, "simulation", sink);
  if (v.contains("mapStatus")) {
    if (auto m = ReadEnum<MapStatusMode>(
            v["mapStatus"], PointerAppend(p, "mapStatus"),
            [](const std::string& s) -> std::optional<MapStatusMode> {
              if (s == "spark") return MapStatusMode::kSpark;
              if (s == "exact") return MapStatusMode::kExact;
              return std::nullopt;
            },
            {"spark", "exact"}, "a map status mode", sink))
      scenario->map_status_mode = *m;
  }
}

// A `conf` value as Spark would see it: strings verbatim, numbers and booleans as text.
std::optional<std::string> ConfValueString(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number_float()) return v.dump();
  return std::nullopt;
}

void AddProblem(DiagnosticSink* sink, bool is_error, const ConfOrigin& origin, std::string message) {
  sink->Add(is_error, origin.file, origin.location, origin.location, std::move(message), origin.origin,
            origin.position);
}

LoadResult LoadDocument(const Json& doc, const std::string& path, const ConfOverrides& overrides) {
  DiagnosticSink sink(path);
  auto scenario = std::make_unique<Scenario>();
  scenario->path = path;
  const std::filesystem::path fs_path(path);
  scenario->name = fs_path.stem().string();
  const std::string dir = fs_path.parent_path().string();

  std::map<std::string, std::pair<std::string, ConfOrigin>> conf;  // key → (value, origin)
  ClusterGiven cluster_given;
  if (!doc.is_object()) {
    sink.Error("", "expected a scenario (a JSON object with \"plan\"), found " + DescribeJson(doc));
  } else {
    CheckFields(doc, "", kTopLevelFields, "a scenario", &sink);
    if (doc.contains("name")) {
      if (auto s = ReadString(doc["name"], "/name", &sink)) scenario->name = *s;
    }
    if (doc.contains("description")) {
      if (auto s = ReadString(doc["description"], "/description", &sink)) scenario->description = *s;
    }
    if (doc.contains("seed")) {
      if (auto s = ReadUnsigned(doc["seed"], "/seed", "a non-negative integer", &sink)) scenario->seed = *s;
    }
    if (doc.contains("cluster")) cluster_given = ReadCluster(doc["cluster"], &scenario->cluster, &sink);
    if (doc.contains("conf")) {
      const Json& c = doc["conf"];
      if (!c.is_object()) {
        sink.Error("/conf", "expected an object of Spark configuration keys, found " + DescribeJson(c));
      } else {
        for (auto it = c.begin(); it != c.end(); ++it) {
          const std::string pointer = PointerAppend("/conf", it.key());
          auto value = ConfValueString(it.value());
          if (!value) {
            sink.Error(pointer, "expected a string, number or boolean, found " + DescribeJson(it.value()));
            continue;
          }
          conf[it.key()] = {*value, ConfOrigin{ProblemOrigin::kDocument, path, pointer, 0}};
        }
      }
    }
    if (doc.contains("costFile")) ReadCostFile(doc["costFile"], dir, &scenario->cost, &sink);
    if (doc.contains("cost")) ReadCost(doc["cost"], &scenario->cost, &sink);
    if (doc.contains("simulation")) ReadSimulation(doc["simulation"], scenario.get(), &sink);
    if (doc.contains("estimated")) {
      // JSON pointers of the quantities an importer derived rather than read (informational).
      const Json& e = doc["estimated"];
      if (!e.is_array()) {
        sink.Error("/estimated", "expected an array of JSON pointers, found " + DescribeJson(e));
      } else {
        for (size_t i = 0; i < e.size(); ++i) {
          if (auto s = ReadString(e[i], "/estimated/" + std::to_string(i), &sink))
            scenario->estimated.push_back(*s);
        }
      }
    }
    if (doc.contains("plan")) {
      scenario->plan = ReadPlan(doc["plan"], "/plan", dir, &sink);
      // Sums of user-given sizes must not wrap later (checked once the plan itself is valid).
      if (scenario->plan && sink.error_count() == 0) CheckPlanByteTotals(*scenario->plan, &sink);
    } else {
      sink.Error("", "missing field \"plan\" (the physical plan to simulate)");
    }
  }

  // --- configuration: scenario conf < --properties-file < --conf ---
  if (!overrides.properties_file.empty()) {
    std::vector<Diagnostic> errors, warnings;
    const auto entries = ReadPropertiesFile(overrides.properties_file, &errors, &warnings);
    auto line_of = [](const Diagnostic& d) -> size_t {
      return d.pointer.rfind("line ", 0) == 0 ? std::stoul(d.pointer.substr(5)) : 0;
    };
    for (const Diagnostic& d : errors)
      sink.Add(true, d.file, d.pointer, "", d.message, ProblemOrigin::kPropertiesFile, line_of(d));
    for (const Diagnostic& d : warnings)
      sink.Add(false, d.file, d.pointer, "", d.message, ProblemOrigin::kPropertiesFile, line_of(d));
    for (const PropertyEntry& e : entries)
      conf[e.key] = {e.value, ConfOrigin{ProblemOrigin::kPropertiesFile, overrides.properties_file,
                                         "line " + std::to_string(e.line), static_cast<size_t>(e.line)}};
  }
  for (size_t i = 0; i < overrides.conf.size(); ++i) {
    const auto& [key, value] = overrides.conf[i];
    const ConfOrigin origin{ProblemOrigin::kCommandLine, "--conf " + key + "=" + value, "", i};
    if (key.empty()) {
      AddProblem(&sink, true, origin, "expected KEY=VALUE with a configuration key, found an empty key");
      continue;
    }
    conf[key] = {value, origin};
  }
  for (const auto& [key, entry] : conf) scenario->raw_conf[key] = entry.first;
  std::vector<ConfProblem> problems;
  scenario->conf = ResolveSqlConf(scenario->raw_conf, &problems);
  for (const ConfProblem& problem : problems) {
    auto it = conf.find(problem.key);
    const ConfOrigin origin =
        it != conf.end() ? it->second.second : ConfOrigin{ProblemOrigin::kDocument, path, "/conf"};
    AddProblem(&sink, problem.is_error, origin, problem.message);
  }

  // --- the cluster may come from spark.executor.* when the scenario does not give it ---
  ClusterSpec& cluster = scenario->cluster;
  const SqlConf& sc = scenario->conf;
  auto origin_of = [&](const std::string& key) { return conf.at(key).second; };
  auto reconcile = [&](bool given, const char* field, const char* key, auto conf_value, auto* cluster_value,
                       auto render) {
    if (!conf_value) return;
    if (!given) {
      *cluster_value = *conf_value;
    } else if (*conf_value != *cluster_value) {
      sink.Warning(PointerAppend("/cluster", field),
                   std::string("cluster ") + field + " (" + render(*cluster_value) + ") differs from " + key +
                       " (" + render(*conf_value) + "); the cluster's value is used");
    }
  };
  auto render_int = [](int64_t x) { return std::to_string(x); };
  if (sc.executor_instances && *sc.executor_instances == 0 && !cluster_given.executors) {
    AddProblem(&sink, true, origin_of("spark.executor.instances"),
               "expected at least one executor (dynamic allocation is not simulated), found \"0\"");
  } else {
    reconcile(cluster_given.executors, "executors", "spark.executor.instances", sc.executor_instances,
              &cluster.executors, render_int);
  }
  if (!cluster.executor_timeline.empty() && !cluster_given.executors && !sc.executor_instances) {
    cluster.executors = PeakExecutors(cluster.executor_timeline);
  }
  reconcile(cluster_given.cores, "executorCores", "spark.executor.cores", sc.executor_cores,
            &cluster.executor_cores, render_int);
  reconcile(cluster_given.memory, "executorMemory", "spark.executor.memory", sc.executor_memory_bytes,
            &cluster.executor_memory_bytes, render_int);
  if (cluster.executor_timeline.empty()) {
    for (auto [field, n] : {std::pair<const char*, int>{"warmExecutors", cluster.warm_executors},
                            std::pair<const char*, int>{"warmCodeExecutors", cluster.warm_code_executors}}) {
      if (n > cluster.executors) {
        sink.Warning(PointerAppend("/cluster", field),
                     std::string(field) + " (" + std::to_string(n) + ") is more than the " +
                         std::to_string(cluster.executors) + " executors: all of them are");
      }
    }
  }
  if (sc.task_cpus > cluster.executor_cores) {
    const std::string message = "expected at least spark.task.cpus = " + std::to_string(sc.task_cpus) +
                                " cores per executor, found " + std::to_string(cluster.executor_cores);
    if (cluster_given.cores || !sc.executor_cores)
      sink.Error("/cluster/executorCores", message);
    else
      AddProblem(&sink, true, origin_of("spark.executor.cores"), message);
  }

  LoadResult result;
  std::vector<Diagnostic> warnings;
  sink.Finish(doc, &result.errors, &warnings);
  if (!result.errors.empty()) return result;
  if (!scenario->plan) {  // defensive: every path that loses the plan reports an error
    result.errors.push_back({path, "/plan", "expected a plan, found none"});
    return result;
  }
  for (const Diagnostic& w : warnings) scenario->warnings.push_back(w.ToString());
  scenario->input_files.push_back(path);
  if (!overrides.properties_file.empty()) scenario->input_files.push_back(overrides.properties_file);
  for (const std::string& f : sink.files_read()) scenario->input_files.push_back(f);
  result.scenario = std::move(scenario);
  return result;
}

}  // namespace

LoadResult LoadScenarioFile(const std::string& path, const ConfOverrides& overrides) {
  LoadResult result;
  std::string text;
  if (const int err = ReadInputFile(path, &text); err != 0) {  // a FIFO nobody writes to reads as empty
    result.errors.push_back({path, "", std::string("cannot read scenario: ") + std::strerror(err)});
    return result;
  }
  Json doc;
  if (!ParseJsonText(path, text, &doc, &result.errors)) return result;
  return LoadDocument(doc, path, overrides);
}

LoadResult LoadScenarioJson(const nlohmann::json& doc, const std::string& path,
                            const ConfOverrides& overrides) {
  // nlohmann::json keeps object keys sorted; problems come out in that order.
  return LoadDocument(Json(doc), path, overrides);
}

std::optional<nlohmann::json> ReadCostFileParameters(const std::string& path,
                                                     std::vector<Diagnostic>* errors) {
  std::string text;
  if (const int err = ReadInputFile(path, &text); err != 0) {  // never blocks on a FIFO
    errors->push_back(Diagnostic{path, "", std::string("cannot read the cost file: ") + std::strerror(err)});
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
