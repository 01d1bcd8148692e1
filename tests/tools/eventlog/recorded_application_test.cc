#include "tools/eventlog/recorded_application.h"

#include <zstd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "tests/tools/eventlog/test_util.h"
#include "tools/eventlog/line_reader.h"

namespace aqesim::eventlog {
namespace {

using testing::Fixture;

bool AnyContains(const std::vector<std::string>& lines, const std::string& needle) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(needle) != std::string::npos; });
}

TEST_CASE("ReadEventLog: aqeshuffle (Spark 3.2.1, local[*])", "[eventlog]") {
  std::vector<std::string> warnings;
  const RecordedApplication app = ReadEventLog(Fixture("aqeshuffle_eventlog.zstd"), &warnings);
  CHECK(app.spark_version == "3.2.1");
  CHECK(app.app_id == "local-1651694304852");
  CHECK(app.local_mode);
  CHECK(app.max_concurrent_executors == 1);
  CHECK(app.executor_cores == 12);
  CHECK(app.lines == 85);
  CHECK(app.jobs.size() == 4);
  // Stage 0: 6 ShuffleMapTasks; bytes by Task Info.Index read by hand from the log
  // (zstd -dc aqeshuffle_eventlog.zstd | grep '"Stage ID":0,...ShuffleMapTask').
  const RecordedStage* s0 = app.stage(0);
  REQUIRE(s0 != nullptr);
  CHECK(s0->num_tasks == 6);
  CHECK(s0->shuffle_map);
  CHECK(s0->map_output_bytes == std::vector<int64_t>{8694187, 8402371, 8400968, 8401572, 8403661, 8401989});
  CHECK(s0->shuffle_write_bytes == 50704748);
  // Skipped stages map to the executed ones by RDD ids.
  REQUIRE(app.stage(2) != nullptr);
  CHECK_FALSE(app.stage(2)->submitted);
  CHECK(app.stage(2)->executed_as == 0);
  CHECK(app.stage(3)->executed_as == 1);
  CHECK(app.stage(7)->executed_as == 4);
  CHECK(app.stage(4)->num_tasks == 13);
  CHECK(app.stage(4)->shuffle_read_bytes == 101409496);
  // The AQE decisions: both sides coalesced 200 -> 13.
  REQUIRE(app.shuffle_reads.size() == 2);
  for (const auto& r : app.shuffle_reads) {
    CHECK(r.node_name == "AQEShuffleRead");
    CHECK(r.coalesced);
    CHECK(r.num_partitions == 13);
    CHECK(r.num_coalesced_partitions == 13);
    CHECK(r.partition_data_sizes_bytes.size() == 13);
  }
  CHECK(app.shuffle_reads[0].partition_data_sizes_bytes[0] == 4208129);  // FIELDS.md example
  REQUIRE(app.joins.size() == 1);
  CHECK(app.joins[0].initial_strategy == "SortMergeJoin");
  CHECK(app.joins[0].final_strategy == "SortMergeJoin");
  CHECK(app.executions.at(0).adaptive());
  CHECK(app.executions.at(0).plans.size() == 4);  // start + 3 updates
  CHECK(warnings.empty());
}

TEST_CASE("ReadEventLog: customshuffle (Spark 3.1.1, CustomShuffleReader)", "[eventlog]") {
  const RecordedApplication app = ReadEventLog(Fixture("customshuffle_eventlog.zstd"), nullptr);
  CHECK(app.spark_version == "3.1.1");
  REQUIRE(app.shuffle_reads.size() == 2);
  CHECK(app.shuffle_reads[0].node_name == "CustomShuffleReader");
  CHECK(app.shuffle_reads[0].num_partitions == 13);
  CHECK(app.shuffle_reads[1].num_partitions == 13);
}

TEST_CASE("ReadEventLog: Spark 1.6 production job (gzip)", "[eventlog]") {
  std::vector<std::string> warnings;
  const RecordedApplication app = ReadEventLog(Fixture("application_1472176676028_407508_1.gz"), &warnings);
  CHECK(app.spark_version == "1.6.1");
  CHECK(app.max_concurrent_executors == 50);  // 58 added over time, at most 50 alive
  CHECK(app.executor_cores == 4);
  CHECK(app.executors.size() == 58);
  const RecordedStage* map = app.stage(0);
  REQUIRE(map != nullptr);
  CHECK(map->num_tasks == 544);
  CHECK(map->successful_tasks == 544);
  CHECK(map->map_output_bytes.size() == 544);
  CHECK(map->map_output_bytes[17] == 58434231);  // grep '"Index":17,' in stage 0's TaskEnd
  CHECK(map->shuffle_write_bytes == 72112846445);
  const RecordedStage* reduce = app.stage(1);
  REQUIRE(reduce != nullptr);
  CHECK(reduce->num_tasks == 40);
  CHECK(reduce->parent_ids == std::vector<int>{0});
  CHECK(reduce->shuffle_read_bytes == 72112846445);
  CHECK(app.JobShuffleBytes(0) == 72112846445);
  CHECK(app.shuffle_reads.empty());
}

TEST_CASE("ReadEventLog: garbage, unknown events and a truncated last line are warnings", "[eventlog]") {
  testing::TempDir dir;
  const std::string text = testing::AqeShuffleText();
  // Lines 1..12 as they are, a garbage line 13, a vendor event 14, the rest, and then half of
  // a line without newline.
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  REQUIRE(lines.size() == 85);
  std::string log;
  for (size_t i = 0; i < 12; ++i) log += lines[i] + "\n";
  log += "this is not json\n";
  log += "{\"Event\":\"com.vendor.PhotonMetricsEvent\",\"x\":1}\n";
  for (size_t i = 12; i < 84; ++i) log += lines[i] + "\n";
  log += lines[84].substr(0, lines[84].size() / 2);  // cut ApplicationEnd
  testing::WriteBytes(dir.File("cut.json"), log);

  std::vector<std::string> warnings;
  const RecordedApplication app = ReadEventLog(dir.File("cut.json"), &warnings);
  CHECK(AnyContains(warnings, "cut.json:13: not a JSON event, line skipped"));
  CHECK(AnyContains(warnings, "cut.json:14: unknown event \"com.vendor.PhotonMetricsEvent\" ignored"));
  CHECK(AnyContains(warnings, "cut.json:87: truncated last line ignored"));
  CHECK(AnyContains(warnings, "no SparkListenerApplicationEnd"));
  CHECK_FALSE(app.end_time_ms.has_value());
  CHECK(app.stage(0)->shuffle_write_bytes == 50704748);  // everything else still read
}

TEST_CASE("ReadEventLog: rolling eventlog_v2 directory with mixed codecs", "[eventlog]") {
  testing::TempDir dir;
  const std::string text = testing::AqeShuffleText();
  size_t cut = 0;
  for (int i = 0; i < 40; ++i) cut = text.find('\n', cut) + 1;
  const std::string app_dir = dir.File("eventlog_v2_local-1651694304852");
  std::filesystem::create_directories(app_dir);
  // Parts 9 and 10 (consecutive, as Spark requires; "10" sorts before "9" as text).
  testing::WriteBytes(app_dir + "/events_9_local-1651694304852", text.substr(0, cut));
  std::string z(ZSTD_compressBound(text.size() - cut), '\0');
  z.resize(ZSTD_compress(z.data(), z.size(), text.data() + cut, text.size() - cut, 1));
  testing::WriteBytes(app_dir + "/events_10_local-1651694304852.zstd", z.substr(0, z.size()));
  testing::WriteBytes(app_dir + "/appstatus_local-1651694304852", "");

  const auto files = RollingEventLogFiles(app_dir);
  REQUIRE(files.size() == 2);
  CHECK(files[0].find("events_9_") != std::string::npos);
  CHECK(files[1].find("events_10_") != std::string::npos);
  std::vector<std::string> warnings;
  const RecordedApplication app = ReadEventLog(app_dir, &warnings);
  CHECK(app.lines == 85);
  CHECK(app.stage(0)->map_output_bytes[0] == 8694187);
  CHECK(app.shuffle_reads.size() == 2);
  CHECK(warnings.empty());
}

TEST_CASE("ReadEventLog: a Databricks log's version comes from its own first event", "[eventlog]") {
  // Databricks writes DBCEventLoggingListenerMetadata (with "Spark Version") instead of
  // SparkListenerLogStart (corpus/xgboost_eventlog: {"Event":"DBCEventLoggingListenerMetadata",
  // "Spark Version":"3.2.1","Timestamp":1671662142504,"Rollover Number":0,...}).
  testing::TempDir dir;
  const std::string text = testing::AqeShuffleText();
  const std::string log_start = "{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.2.1\"}\n";
  REQUIRE(text.rfind(log_start, 0) == 0);
  const std::string vendor =
      "{\"Event\":\"DBCEventLoggingListenerMetadata\",\"Spark Version\":\"3.3.0\",\"Rollover Number\":0}\n";
  std::vector<std::string> warnings;
  testing::WriteBytes(dir.File("databricks.json"), vendor + text.substr(log_start.size()));
  const RecordedApplication app = ReadEventLog(dir.File("databricks.json"), &warnings);
  CHECK(app.spark_version == "3.3.0");
  CHECK_FALSE(AnyContains(warnings, "DBCEventLoggingListenerMetadata"));  // known, not "unknown event"
  // Both events: Spark's own LogStart wins, in either order.
  testing::WriteBytes(dir.File("both.json"), vendor + text);
  CHECK(ReadEventLog(dir.File("both.json"), nullptr).spark_version == "3.2.1");
  testing::WriteBytes(dir.File("both-after.json"), log_start + vendor + text.substr(log_start.size()));
  CHECK(ReadEventLog(dir.File("both-after.json"), nullptr).spark_version == "3.2.1");
}

TEST_CASE("ReadEventLog: a task that finishes before it launches is named and made zero-length",
          "[eventlog]") {
  // aqeshuffle line 27: task 0 of stage 0, Launch Time 1651694310585, Finish Time 1651694312031.
  testing::TempDir dir;
  std::string text = testing::AqeShuffleText();
  const std::string finish = "\"Finish Time\":1651694312031";
  const size_t at = text.find(finish);
  REQUIRE(at != std::string::npos);
  text.replace(at, finish.size(), "\"Finish Time\":1651694300000");
  std::vector<std::string> warnings;
  testing::WriteBytes(dir.File("bad-times.json"), text);
  const RecordedApplication app = ReadEventLog(dir.File("bad-times.json"), &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] ==
        dir.File("bad-times.json") +
            ":27: TaskEnd of task 0 (stage 0) finishes before it launches (Launch Time "
            "1651694310585 ms, Finish Time 1651694300000 ms); its finish is taken as its launch");
  const RecordedTask& t = app.stage(0)->tasks.front();
  CHECK(t.task_id == 0);
  CHECK(t.finish_time_ms == 1651694310585);
}

TEST_CASE("ReadEventLog: blank lines are counted and skipped, line numbers stay the file's", "[eventlog]") {
  testing::TempDir dir;
  const std::string text = testing::AqeShuffleText();
  size_t cut = 0;
  for (int i = 0; i < 12; ++i) cut = text.find('\n', cut) + 1;
  // Lines 13-15 blank (a newline, blanks and a tab, a CR), line 16 garbage, then aqeshuffle's line 13 on;
  // and a run of 100,000 newlines at the end (cheap to skip: not a line at a time).
  const std::string log =
      text.substr(0, cut) + "\n \t \n\r\nnot json\n" + text.substr(cut) + std::string(100000, '\n');
  testing::WriteBytes(dir.File("blank.json"), log);
  std::vector<std::string> warnings;
  const RecordedApplication app = ReadEventLog(dir.File("blank.json"), &warnings);
  CHECK(app.lines == 85 + 4 + 100000);
  CHECK(app.events == ReadEventLog(Fixture("aqeshuffle_eventlog.zstd"), nullptr).events);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == dir.File("blank.json") + ":16: not a JSON event, line skipped");
}

TEST_CASE("ReadEventLog: unreadable input is an EventLogError", "[eventlog]") {
  testing::TempDir dir;
  CHECK_THROWS_WITH(ReadEventLog(dir.File("missing.zstd"), nullptr), Catch::Contains("no such file"));
  testing::WriteBytes(dir.File("empty.json"), "\n\n");
  CHECK_THROWS_WITH(ReadEventLog(dir.File("empty.json"), nullptr),
                    Catch::Contains("no Spark listener events"));
  std::string bad = testing::ReadBytes(Fixture("aqeshuffle_eventlog.zstd"));
  for (size_t i = 100; i < 200; ++i) bad[i] = static_cast<char>(bad[i] ^ 0x33);
  testing::WriteBytes(dir.File("bad.zstd"), bad);
  CHECK_THROWS_WITH(ReadEventLog(dir.File("bad.zstd"), nullptr), Catch::Contains("corrupt zstd data"));
  CHECK_THROWS_WITH(ReadEventLog(dir.path(), nullptr), Catch::Contains("without events_<N>_* files"));
}

TEST_CASE("NormalizeSimpleString drops plan ids", "[eventlog]") {
  CHECK(NormalizeSimpleString("Exchange hashpartitioning(a#12, 200), ENSURE_REQUIREMENTS, [id=#40]") ==
        "Exchange hashpartitioning(a#12, 200), ENSURE_REQUIREMENTS");
  CHECK(NormalizeSimpleString("Exchange SinglePartition, ENSURE_REQUIREMENTS, [plan_id=93]") ==
        "Exchange SinglePartition, ENSURE_REQUIREMENTS");
  CHECK(EventShortName("org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart") ==
        "SparkListenerSQLExecutionStart");
}

}  // namespace
}  // namespace aqesim::eventlog
