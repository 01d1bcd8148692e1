// The HTML report in a real browser: headless Chromium opens it from disk (file://, no
// network), and the test fails on any console message or script error, or on any chart
// that did not render (the page marks each chart container data-rendered="true" when
// vega-embed's promise resolves: tools/report/report_render.h). Screenshots are saved under
// results/reports/. Tagged [browser]: skipped (with a warning) when chromium is not
// installed (Debian: apt-get install -y chromium).
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace aqesim::e2e {
namespace {

namespace fs = std::filesystem;

struct Run {
  int exit_code = -1;
  std::string out, err;
};

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs a program (searched in PATH when `path` has no slash) without a shell.
Run Exec(const std::string& path, const std::vector<std::string>& args, const fs::path& scratch) {
  const fs::path out = scratch / "stdout.txt", err = scratch / "stderr.txt";
  const pid_t pid = fork();
  if (pid == 0) {
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(o, 1);
    ::dup2(e, 2);
    std::vector<std::string> copy = args;
    std::vector<char*> argv;
    std::string p = path;
    argv.push_back(p.data());
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execvp(p.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  Run r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = Slurp(out);
  r.err = Slurp(err);
  return r;
}

std::string FindChromium() {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    for (const char* name : {"chromium", "chromium-browser"}) {
      const fs::path p = fs::path(dir) / name;
      if (::access(p.c_str(), X_OK) == 0) return p.string();
    }
  }
  return "";
}

struct Scratch {
  fs::path path = fs::temp_directory_path() / ("aqesim_report_browser_" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(path); }
  ~Scratch() { fs::remove_all(path); }
};

std::vector<std::string> ChromiumArgs(const fs::path& profile, const std::string& action,
                                      const fs::path& page, int height = 2400) {
  return {"--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--user-data-dir=" + profile.string(),
          "--enable-logging=stderr",
          "--v=0",
          "--virtual-time-budget=30000",
          std::string("--window-size=1100,").append(std::to_string(height)),
          action,
          "file://" + page.string()};
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t p = 0; (p = text.find(needle, p)) != std::string::npos; p += needle.size()) ++n;
  return n;
}

// Opens the report; checks every chart rendered and nothing was logged; saves a screenshot
// (build/tests/output/reports/).
void CheckInBrowser(const std::string& chromium, const fs::path& page, const std::string& screenshot_name,
                    size_t min_charts, const Scratch& dir, int height = 2400) {
  Run dom = Exec(
      "timeout",
      [&] {
        std::vector<std::string> a = {"180", chromium};
        for (auto& x : ChromiumArgs(dir.path / "profile-dom", "--dump-dom", page)) a.push_back(x);
        return a;
      }(),
      dir.path);
  INFO("chromium stderr:\n" << dom.err);
  REQUIRE(dom.exit_code == 0);
  const std::string& html = dom.out;
  const size_t charts = Count(html, "<div class=\"chart");  // vega-embed adds its own classes after ours
  CHECK(charts >= min_charts);
  CHECK(Count(html, "data-rendered=\"true\"") == charts);
  CHECK(Count(html, "data-error=") == 0);
  CHECK(html.find("data-charts-done=\"true\"") != std::string::npos);
  CHECK(html.find("data-errors=") == std::string::npos);
  CHECK(Count(html, "<svg") >= charts);  // vega drew each chart as SVG
  // Any console message (console.error on a failed chart, vega warnings, CSP violations when
  // the page tries the network) fails the test.
  std::regex console(R"(:CONSOLE[:(]\d+|Uncaught|Refused to)");
  CHECK_FALSE(std::regex_search(dom.err, console));

  // Into the build tree: the samples under results/reports/ are refreshed by hand, not by tests.
  const fs::path shot = fs::path(AQESIM_TEST_OUTPUT_DIR) / "reports" / screenshot_name;
  fs::create_directories(shot.parent_path());
  Run png = Exec(
      "timeout",
      [&] {
        std::vector<std::string> a = {"180", chromium};
        for (auto& x : ChromiumArgs(dir.path / "profile-shot", "--screenshot=" + shot.string(), page, height))
          a.push_back(x);
        return a;
      }(),
      dir.path);
  CHECK(png.exit_code == 0);
  CHECK(fs::exists(shot));
  CHECK(fs::file_size(shot) > 10000);
}

TEST_CASE("report in headless Chromium: a scenario's report renders every chart, no console errors",
          "[e2e][report][browser]") {
  const std::string chromium = FindChromium();
  if (chromium.empty()) {
    WARN("chromium is not installed (apt-get install -y chromium): browser test skipped");
    return;
  }
  Scratch dir;
  const fs::path page = dir.path / "skew-join.html";
  Run r = Exec(AQESIM_BINARY,
               {"report", std::string(AQESIM_SOURCE_DIR) + "/scenarios/skew-join.json", "-o", page.string()},
               dir.path);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string html = Slurp(page);
  // Self-contained: no external script or stylesheet; the page's Content-Security-Policy
  // turns any network request into a console message (which fails the browser check).
  CHECK(html.find("<script src") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find("default-src 'none'") != std::string::npos);
  CHECK(html.find("Keep spark.sql.adaptive.skewJoin.enabled on") != std::string::npos);
  CHECK(html.find("How many executors?") != std::string::npos);
  // Summary + 2 timelines + makespan against core-hours + 2 exchanges before AQE + 2 reads after AQE.
  CheckInBrowser(chromium, page, "skew-join-report.png", 8, dir);
}

TEST_CASE("report in headless Chromium: a scenario with a named variant shows Spark's run and the variant's",
          "[e2e][report][browser]") {
  const std::string chromium = FindChromium();
  if (chromium.empty()) {
    WARN("chromium is not installed (apt-get install -y chromium): browser test skipped");
    return;
  }
  Scratch dir;
  const fs::path page = dir.path / "intel-skew.html";
  Run r = Exec(AQESIM_BINARY,
               {"report", std::string(AQESIM_SOURCE_DIR) + "/scenarios/variants/intel-skew-by-row-count.json",
                "-o", page.string()},
               dir.path);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string html = Slurp(page);
  CHECK(html.find("<h2>Named variants side by side</h2>") != std::string::npos);
  CHECK(html.find("<td>Apache Spark (no variant)</td>") != std::string::npos);
  CHECK(html.find("e1 map 10, e2 map 10, result 54") != std::string::npos);
  // The summary, the variants' makespans, 2 timelines, makespan against core-hours, 2 exchanges
  // before AQE, 2 reads after AQE.
  CheckInBrowser(chromium, page, "intel-skew-by-row-count-report.png", 9, dir);
}

TEST_CASE("report in headless Chromium: a sweep's report renders every chart, no console errors",
          "[e2e][report][browser]") {
  const std::string chromium = FindChromium();
  if (chromium.empty()) {
    WARN("chromium is not installed (apt-get install -y chromium): browser test skipped");
    return;
  }
  Scratch dir;
  const fs::path sweep = dir.path / "sweep.json", page = dir.path / "sweep.html";
  Run s = Exec(AQESIM_BINARY,
               {"sweep", std::string(AQESIM_SOURCE_DIR) + "/scenarios/skew-join.json", "--grid",
                "spark.sql.adaptive.advisoryPartitionSizeInBytes=16m,64m,256m", "--grid",
                "spark.sql.shuffle.partitions=50,100,200", "-o", sweep.string()},
               dir.path);
  INFO(s.err);
  REQUIRE(s.exit_code == 0);
  Run r = Exec(AQESIM_BINARY, {"report", sweep.string(), "-o", page.string()}, dir.path);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // Makespan vs each of the 2 keys + the heatmap.
  CheckInBrowser(chromium, page, "skew-join-sweep-report.png", 3, dir);
}

TEST_CASE("report in headless Chromium: a scale result's report renders its chart, no console errors",
          "[e2e][report][browser][scale]") {
  const std::string chromium = FindChromium();
  if (chromium.empty()) {
    WARN("chromium is not installed (apt-get install -y chromium): browser test skipped");
    return;
  }
  Scratch dir;
  const fs::path scale = dir.path / "scale.json", page = dir.path / "scale.html";
  Run s = Exec(AQESIM_BINARY,
               {"scale", std::string(AQESIM_SOURCE_DIR) + "/scenarios/demo.json", "--format", "json", "-o",
                scale.string()},
               dir.path);
  INFO(s.err);
  REQUIRE(s.exit_code == 0);
  Run r = Exec(AQESIM_BINARY, {"report", scale.string(), "-o", page.string()}, dir.path);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string html = Slurp(page);
  CHECK(html.find("aqesim scale report") != std::string::npos);
  CHECK(html.find("fewest within 5 %") != std::string::npos);
  // Makespan against core-hours.
  CheckInBrowser(chromium, page, "demo-scale-report.png", 1, dir);
}

}  // namespace
// A scenario whose name, description and every plan id hold markup: "<!--<script>" in the
// chart data block once made the block an HTML comment that swallowed the rest of the page.
fs::path HostileScenario(const Scratch& dir) {
  std::ifstream in(std::string(AQESIM_SOURCE_DIR) + "/scenarios/skew-join.json");
  nlohmann::ordered_json s = nlohmann::ordered_json::parse(in);
  const std::string evil = "<!--<script>";
  s["name"] = "skew" + evil + "</script><b>";
  s["description"] =
      "line one\n# injected heading\n<script>alert(1)</script> [c](javascript:alert(1)) " + evil;
  s["plan"]["id"] = "j1" + evil;
  for (const char* side : {"left", "right"}) {
    s["plan"][side]["id"] = std::string(side) + evil;
    s["plan"][side]["child"]["id"] = std::string(side) + "-scan" + evil;
  }
  s["plan"]["left"]["sizes"]["csv"] = std::string(AQESIM_SOURCE_DIR) + "/scenarios/data/skew-left.csv";
  const fs::path path = dir.path / "hostile.json";
  std::ofstream(path) << s.dump(1);
  return path;
}

TEST_CASE("report with <!--<script> in every name: the chart data stays data", "[e2e][report]") {
  Scratch dir;
  const fs::path scenario = HostileScenario(dir), page = dir.path / "hostile.html";
  Run r = Exec(AQESIM_BINARY, {"report", scenario.string(), "-o", page.string()}, dir.path);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string html = Slurp(page);
  const size_t open = html.find("<script type=\"application/json\" id=\"chart-specs\">");
  REQUIRE(open != std::string::npos);
  const size_t body = html.find('>', open) + 1, close = html.find("</script>", body);
  REQUIRE(close != std::string::npos);
  const std::string data = html.substr(body, close - body);
  // No '<' at all inside the block: nothing the HTML parser reacts to; the names are there, escaped.
  CHECK(data.find('<') == std::string::npos);
  CHECK(data.find("\\u003c!--\\u003cscript\\u003e") != std::string::npos);
  // The JSON is intact and still holds the names.
  const nlohmann::json specs = nlohmann::json::parse(data);
  CHECK(specs.size() >= 7);
  // Elsewhere the names are HTML-escaped text.
  CHECK(html.find("<!--<script>") == std::string::npos);
  CHECK(html.find("<script>alert(1)") == std::string::npos);

  Run md = Exec(AQESIM_BINARY, {"report", scenario.string(), "--format", "md"}, dir.path);
  INFO(md.err);
  REQUIRE(md.exit_code == 0);
  // One heading line for the title, the description one paragraph line, nothing raw (a '#' inside
  // the line opens no heading: written as it is).
  CHECK(md.out.find("\n# injected heading") == std::string::npos);
  // Every '<' that would open a tag or comment is backslash-escaped: Markdown shows it as text.
  for (const std::string raw : {"<script", "</script", "<!--", "<b>"}) {
    for (size_t at = md.out.find(raw); at != std::string::npos; at = md.out.find(raw, at + 1)) {
      INFO(raw << " at " << at);
      CHECK((at > 0 && md.out[at - 1] == '\\'));
    }
  }
  CHECK(md.out.find("[c](javascript:") == std::string::npos);  // only as "\\[c\\](javascript:": text
  CHECK(md.out.find("line one # injected heading \\<script>alert(1)\\</script> \\[c\\](javascript:alert(1)) "
                    "\\<!--\\<script>\n") != std::string::npos);
  CHECK(md.out.rfind("# aqesim tuning report — skew\\<!--\\<script>\\</script>\\<b>\n", 0) == 0);

  const std::string chromium = FindChromium();
  if (chromium.empty()) {
    WARN("chromium is not installed (apt-get install -y chromium): browser check skipped");
    return;
  }
  // Summary + 2 timelines + 2 exchanges before AQE + 2 reads after AQE, all rendered.
  CheckInBrowser(chromium, page, "hostile-names-report.png", 7, dir);
}

TEST_CASE("report in headless Chromium: a tune result's report renders every chart, no console errors",
          "[e2e][report][browser][tune]") {
  const std::string chromium = FindChromium();
  if (chromium.empty()) {
    WARN("chromium is not installed (apt-get install -y chromium): browser test skipped");
    return;
  }
  Scratch dir;
  const fs::path tune = dir.path / "tune.json", page = dir.path / "tune.html";
  Run t = Exec(AQESIM_BINARY,
               {"tune", std::string(AQESIM_SOURCE_DIR) + "/scenarios/demo.json", "--objective",
                "weighted:100", "--guardrails", "none", "--budget", "40", "-o", tune.string()},
               dir.path);
  INFO(t.err);
  REQUIRE(t.exit_code == 0);
  Run r = Exec(AQESIM_BINARY, {"report", tune.string(), "-o", page.string()}, dir.path);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string html = Slurp(page);
  CHECK(html.find("aqesim tune report") != std::string::npos);
  CHECK(html.find("Pareto front") != std::string::npos);
  // Convergence + makespan against core-hours.
  CheckInBrowser(chromium, page, "demo-tune-report.png", 2, dir);
}

// The samples of issue 17 (results/reports/README.md regenerates them): 3 swept keys, 30 stages,
// and an aggregate whose hot key AQE cannot split.
TEST_CASE("report in headless Chromium: a sweep of 3 keys draws a chart per key and per pair of keys",
          "[e2e][report][browser]") {
  const std::string chromium = FindChromium();
  if (chromium.empty()) {
    WARN("chromium is not installed (apt-get install -y chromium): browser test skipped");
    return;
  }
  Scratch dir;
  const fs::path sweep = dir.path / "sweep.json", page = dir.path / "sweep-3-keys.html";
  Run s = Exec(AQESIM_BINARY,
               {"sweep", std::string(AQESIM_SOURCE_DIR) + "/scenarios/skew-join.json", "--grid",
                "spark.sql.adaptive.advisoryPartitionSizeInBytes=16m,64m,256m", "--grid",
                "spark.sql.shuffle.partitions=100,200,400", "--grid",
                "spark.sql.adaptive.skewJoin.skewedPartitionFactor=2,5,10", "-o", sweep.string()},
               dir.path);
  INFO(s.err);
  REQUIRE(s.exit_code == 0);
  Run r = Exec(AQESIM_BINARY, {"report", sweep.string(), "-o", page.string()}, dir.path);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string html = Slurp(page);
  // Makespan vs each of the 3 keys + a heatmap per pair (3), each the best over the third key.
  CHECK(Count(html, "<div class=\"chart") == 6);
  CHECK(Count(html, " (best over the other keys)") == 6);
  CheckInBrowser(chromium, page, "skew-join-sweep-3-keys.png", 6, dir);
}

TEST_CASE("report in headless Chromium: a scenario of 30 stages", "[e2e][report][browser]") {
  const std::string chromium = FindChromium();
  if (chromium.empty()) {
    WARN("chromium is not installed (apt-get install -y chromium): browser test skipped");
    return;
  }
  Scratch dir;
  const fs::path page = dir.path / "thirty-stages.html";
  Run r = Exec(AQESIM_BINARY,
               {"report", std::string(AQESIM_SOURCE_DIR) + "/tests/data/scenarios/thirty-stages.json", "-o",
                page.string()},
               dir.path);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string html = Slurp(page);
  // Both stage tables list stages 0 ... 29.
  CHECK(Count(html, "<tr><td>29</td>") == 2);
  CHECK(Count(html, "<tr><td>30</td>") == 0);
  // The timelines' legends in stage order (not "0, 1, 10, 11, ..., 2") and 30 distinct colours
  // (Vega's schemes repeat after 10 or 20): the first three of the golden-angle hues, by hand.
  CHECK(html.find(R"("sort":["0 e1 map","1 e2 map","2 e4 map",)") != std::string::npos);
  CHECK(Count(html, R"("scale":{"range":["#bd2828","#5fdd84","#7f28bd",)") == 2);
  // Summary + 2 timelines + 8 exchanges before AQE + 8 reads after AQE (kMaxSizeCharts each).
  // A taller window, down to the timelines (30 stages, each its own colour in the legend).
  CheckInBrowser(chromium, page, "thirty-stages-report.png", 19, dir, 4200);
}

TEST_CASE("report in headless Chromium: a skewed aggregate, with the advice beyond configuration",
          "[e2e][report][browser]") {
  const std::string chromium = FindChromium();
  if (chromium.empty()) {
    WARN("chromium is not installed (apt-get install -y chromium): browser test skipped");
    return;
  }
  Scratch dir;
  const fs::path page = dir.path / "aggregate-hot-key.html";
  Run r = Exec(AQESIM_BINARY,
               {"report", std::string(AQESIM_SOURCE_DIR) + "/tests/data/scenarios/aggregate-hot-key.json",
                "-o", page.string()},
               dir.path);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string html = Slurp(page);
  CHECK(html.find("No configuration key helps: AQE splits skewed partitions of joins only. Salt the key") !=
        std::string::npos);
  CheckInBrowser(chromium, page, "aggregate-hot-key-report.png", 5, dir);
}

}  // namespace aqesim::e2e
