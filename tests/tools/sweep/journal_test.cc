#include "tools/sweep/journal.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace aqesim::sweep {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

SweepRow Row(uint64_t point, double makespan) {
  SweepRow r;
  r.point = point;
  r.values = {std::to_string(point)};
  PointMetrics m;
  m.makespan_seconds_aqe_on = makespan;
  r.metrics = m;
  return r;
}

// One axis "k" with values "0".."n-1": point i has k = "i", as Row() writes it.
std::vector<GridAxis> Axes(int n) {
  GridAxis a{"k", {}};
  for (int i = 0; i < n; ++i) a.values.push_back(std::to_string(i));
  return {a};
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("aqesim_journal_test_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

TEST_CASE("Journal: rows survive reopening and a torn last row is dropped", "[sweep][journal]") {
  TempDir dir;
  const std::string path = (dir.path / "out.csv.journal").string();
  std::string error;
  JournalContents contents;
  {
    auto j = Journal::Open(path, "fp1", Axes(10), &contents, &error);
    REQUIRE(j);
    CHECK(contents.rows.empty());
    REQUIRE(j->Append(Row(3, 1.5), &error));
    REQUIRE(j->Append(Row(0, 2.5), &error));
    REQUIRE(j->Append(Row(7, 3.5), &error));
  }
  // Simulate a kill in the middle of writing the third row.
  std::string text = Slurp(path);
  text.resize(text.size() - 20);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;

  auto j = Journal::Open(path, "fp1", Axes(10), &contents, &error);
  REQUIRE(j);
  CHECK(contents.dropped_lines == 1);
  CHECK_FALSE(contents.started_over);
  REQUIRE(contents.rows.size() == 2);
  CHECK(contents.rows.at(3).metrics->makespan_seconds_aqe_on == 1.5);
  CHECK(contents.rows.at(0).metrics->makespan_seconds_aqe_on == 2.5);
  // The torn bytes are gone: the next append starts on a fresh line.
  REQUIRE(j->Append(Row(7, 3.5), &error));
  j.reset();
  auto again = Journal::Open(path, "fp1", Axes(10), &contents, &error);
  REQUIRE(again);
  CHECK(contents.dropped_lines == 0);
  CHECK(contents.rows.size() == 3);
}

TEST_CASE("Journal: another sweep's journal is started over", "[sweep][journal]") {
  TempDir dir;
  const std::string path = (dir.path / "out.json.journal").string();
  std::string error;
  JournalContents contents;
  {
    auto j = Journal::Open(path, "fp1", Axes(10), &contents, &error);
    REQUIRE(j);
    REQUIRE(j->Append(Row(1, 1.0), &error));
  }
  auto j = Journal::Open(path, "fp2", Axes(10), &contents, &error);
  REQUIRE(j);
  CHECK(contents.started_over);
  CHECK(contents.rows.empty());
  CHECK(Slurp(path) == "{\"aqesimSweepJournal\":1,\"fingerprint\":\"fp2\"}\n");
}

TEST_CASE("Journal: duplicate and out-of-grid rows are dropped", "[sweep][journal]") {
  TempDir dir;
  const std::string path = (dir.path / "out.csv.journal").string();
  std::string error;
  JournalContents contents;
  {
    auto j = Journal::Open(path, "fp", Axes(5), &contents, &error);
    REQUIRE(j);
    REQUIRE(j->Append(Row(1, 1.0), &error));
    REQUIRE(j->Append(Row(1, 9.0), &error));
    REQUIRE(j->Append(Row(5, 1.0), &error));
  }
  auto j = Journal::Open(path, "fp", Axes(5), &contents, &error);
  REQUIRE(j);
  CHECK(contents.dropped_lines == 2);
  REQUIRE(contents.rows.size() == 1);
  CHECK(contents.rows.at(1).metrics->makespan_seconds_aqe_on == 1.0);
}

TEST_CASE("Journal: a row whose values are not its point's, or with impossible metrics, is dropped",
          "[sweep][journal]") {
  TempDir dir;
  const std::string path = (dir.path / "out.csv.journal").string();
  std::string error;
  JournalContents contents;
  {
    auto j = Journal::Open(path, "fp", Axes(5), &contents, &error);
    REQUIRE(j);
    SweepRow not_in_grid = Row(2, 1.0);
    not_in_grid.values = {"7"};  // point 2 has k = "2"
    REQUIRE(j->Append(not_in_grid, &error));
    SweepRow negative = Row(3, 1.0);
    negative.metrics->tasks = -4;
    REQUIRE(j->Append(negative, &error));
    REQUIRE(j->Append(Row(4, 1.0), &error));
  }
  auto j = Journal::Open(path, "fp", Axes(5), &contents, &error);
  REQUIRE(j);
  CHECK(contents.dropped_lines == 2);
  REQUIRE(contents.rows.size() == 1);
  CHECK(contents.rows.count(4) == 1);
}

TEST_CASE("LineJournal: a line over 16 MiB is dropped unread, the lines around it are kept",
          "[sweep][journal]") {
  // One 900 MiB line ran out of memory (the whole file and the line were held); a valid record
  // of 17 MiB (a tune evaluation's error text accepts any length) was kept.
  TempDir dir;
  const std::string path = (dir.path / "t.json.journal").string();
  const std::string header = "{\"aqesimTuneJournal\":1,\"fingerprint\":\"fp\"}\n";
  {
    std::ofstream out(path, std::ios::binary);
    out << header << "{\"n\":1}\n"
        << "{\"n\":2,\"error\":\"" << std::string((size_t{17} << 20), 'x') << "\"}\n"
        << "{\"n\":3}\n";
  }
  std::vector<int> kept;
  LineJournalStats stats;
  std::string error;
  auto j = LineJournal::Open(
      path, "tune", "fp",
      [&](const nlohmann::json& line) {
        kept.push_back(line["n"].get<int>());
        return true;
      },
      &stats, &error);
  REQUIRE(j);
  CHECK(kept == std::vector<int>{1, 3});
  CHECK(stats.dropped_lines == 1);
  CHECK_FALSE(stats.started_over);
  CHECK(Slurp(path) == header + "{\"n\":1}\n{\"n\":3}\n");  // rewritten without it
}

TEST_CASE("LineJournal: a file that is not a journal of this kind is refused and kept", "[sweep][journal]") {
  TempDir dir;
  const std::string path = (dir.path / "out.csv.journal").string();
  const std::string scenario = "{\"plan\": {\"op\": \"scan\", \"bytes\": 10}}\n";
  std::ofstream(path, std::ios::binary) << scenario;
  LineJournalStats stats;
  std::string error;
  auto j = LineJournal::Open(
      path, "sweep", "fp", [](const nlohmann::json&) { return true; }, &stats, &error);
  CHECK_FALSE(j);
  CHECK(error ==
        path +
            ": cannot write the sweep journal: the file exists and is not a sweep journal (remove it, or "
            "choose another output)");
  CHECK(Slurp(path) == scenario);
}

TEST_CASE("Fingerprint: FNV-1a 64", "[sweep][journal]") {
  CHECK(Fingerprint("") == "cbf29ce484222325");
  CHECK(Fingerprint("a") == "af63dc4c8601ec8c");
}

}  // namespace
}  // namespace aqesim::sweep
