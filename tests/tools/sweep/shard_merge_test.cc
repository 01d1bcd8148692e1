#include "tools/sweep/shard_merge.h"

#include <catch2/catch.hpp>

namespace aqesim::sweep {
namespace {

TEST_CASE("ReadCsvRecords: RFC 4180 quoting across lines, CRLF, and the errors of broken quoting",
          "[sweep][merge]") {
  std::vector<CsvRecord> records;
  std::vector<std::string> errors;
  REQUIRE(ReadCsvRecords("f.csv", "a,\"b,\"\"c\"\"\"\r\n\r\n1,\"two\nlines\"\n3,\n", &records, &errors));
  REQUIRE(records.size() == 3);
  CHECK(records[0].fields == std::vector<std::string>{"a", "b,\"c\""});
  CHECK(records[1].line == 3);
  CHECK(records[1].fields == std::vector<std::string>{"1", "two\nlines"});
  CHECK(records[2].line == 5);
  CHECK(records[2].fields == std::vector<std::string>{"3", ""});
  CHECK(errors.empty());

  records.clear();
  CHECK_FALSE(ReadCsvRecords("f.csv", "a,b\n1,\"open\n2,3\n", &records, &errors));
  CHECK(errors == std::vector<std::string>{
                      "f.csv: line 2: a quoted field is not closed (it runs to the end of the file)"});
  errors.clear();
  CHECK_FALSE(ReadCsvRecords("f.csv", "a,b\"c\n", &records, &errors));
  CHECK(errors == std::vector<std::string>{
                      "f.csv: line 1: a quote inside an unquoted field (expected RFC 4180 quoting)"});
}

TEST_CASE("RowFromCsv: only cells as the sweep writes them", "[sweep][merge]") {
  SweepRow row;
  row.point = 4;
  row.values = {"64m"};
  PointMetrics m;
  m.makespan_seconds_aqe_on = 1.25;
  m.tasks = 7;
  row.metrics = m;
  std::vector<CsvRecord> records;
  std::vector<std::string> errors;
  REQUIRE(ReadCsvRecords("f.csv", RowToCsv(row), &records, &errors));
  std::string why;
  std::optional<SweepRow> back = RowFromCsv(records[0].fields, 1, &why);
  REQUIRE(back);
  CHECK(RowToCsv(*back) == RowToCsv(row));

  auto with = [&](size_t field, const std::string& cell) {
    std::vector<std::string> f = records[0].fields;
    f[field] = cell;
    why.clear();
    return RowFromCsv(f, 1, &why).has_value();
  };
  CHECK_FALSE(with(2, "inf"));
  CHECK(why == "makespanSecondsAqeOn: expected non-negative seconds with 6 decimals, found \"inf\"");
  CHECK_FALSE(with(2, "1.25"));  // not 6 decimals
  CHECK_FALSE(with(2, "-1.000000"));
  CHECK_FALSE(with(5, "-7"));
  CHECK(why == "tasks: expected a non-negative integer, found \"-7\"");
  CHECK_FALSE(with(5, "7e0"));
  CHECK_FALSE(with(0, "04"));
  CHECK_FALSE(with(2, ""));  // a metric missing from a point without an error
  std::vector<std::string> short_row = records[0].fields;
  short_row.pop_back();
  CHECK_FALSE(RowFromCsv(short_row, 1, &why));
}

}  // namespace
}  // namespace aqesim::sweep
