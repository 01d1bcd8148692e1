#include "tools/sweep/shard_folder.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/support/temp_dir.h"

namespace aqesim::sweep {
namespace {

TEST_CASE("ShardFileName: K padded to N's digits, so that names sort in shard order", "[sweep][shard]") {
  CHECK(ShardFileName({3, 4}, OutputFormat::kCsv) == "shard-3-of-4.csv");
  CHECK(ShardFileName({3, 16}, OutputFormat::kJson) == "shard-03-of-16.json");
  CHECK(ShardFileName({100, 100}, OutputFormat::kCsv) == "shard-100-of-100.csv");
  CHECK(ShardFileName({1, 1}, OutputFormat::kCsv) == "shard-1-of-1.csv");
  const auto parts = ParseShardFileName("shard-03-of-16.json");
  REQUIRE(parts);
  CHECK(parts->k == 3);
  CHECK(parts->n == 16);
  CHECK(parts->format == OutputFormat::kJson);
  for (const std::string other :
       {"shard-3-of-4.csv.journal", ".shard-3-of-4.csv.tmp-ab12cd", "shard-3-of-4.txt", "shard--of-4.csv",
        "shard-+3-of-4.csv", "shard-3-of-.csv", "merged.csv", "shard-3-of-4.CSV",
        "shard-99999999999-of-4.csv"}) {
    CHECK_FALSE(ParseShardFileName(other));
  }
}

TEST_CASE("ScanShardFolder: every shard 1..N once, by index", "[sweep][shard]") {
  const testing::TempDir dir("aqesim_shard_folder");
  dir.Write("shard-1-of-4.csv", "x\n");
  dir.Write("shard-3-of-4.csv", "x\n");
  dir.Write("shard-2-of-4.csv.journal", "{\"aqesimSweepJournal\":1}\n{\"point\":1}\n{\"point\":5}\n");
  dir.Write("shard-2-of-4.json", "x\n");  // the other format: not this merge's
  dir.Write("slurm-17_2.out", "x\n");
  ShardFolderScan scan = ScanShardFolder(dir.path(), OutputFormat::kCsv);
  CHECK(scan.errors.empty());
  CHECK(scan.count == 4);
  REQUIRE(scan.shards.size() == 2);
  CHECK(scan.shards[0].shard.ToString() == "1/4");
  CHECK(scan.shards[1].path == dir.File("shard-3-of-4.csv"));
  CHECK(scan.missing == std::vector<int>{2, 4});
  // The folder's name as the user gave it; journals counted.
  CHECK(DescribeMissingShards(scan, dir.path(), OutputFormat::kCsv) ==
        dir.path() +
            ": shards missing: 2, 4 of 4 (their array elements did not finish: re-run them; they resume from "
            "their journals: shard-2-of-4.csv.journal holds 2 finished point(s))");

  dir.Write("shard-2-of-4.csv", "x\n");
  dir.Write("shard-4-of-4.csv", "x\n");
  scan = ScanShardFolder(dir.path(), OutputFormat::kCsv);
  CHECK(scan.errors.empty());
  CHECK(scan.missing.empty());
  CHECK(scan.shards.size() == 4);
  CHECK(DescribeMissingShards(scan, dir.path(), OutputFormat::kCsv).empty());

  // The same index twice (another padding), another sweep's N, an index outside 1..N.
  dir.Write("shard-04-of-4.csv", "x\n");
  dir.Write("shard-1-of-2.csv", "x\n");
  dir.Write("shard-5-of-4.csv", "x\n");
  scan = ScanShardFolder(dir.path(), OutputFormat::kCsv);
  CHECK(scan.errors ==
        std::vector<std::string>{
            dir.path() + ": shard-04-of-4.csv and shard-1-of-2.csv belong to sweeps of 4 and 2 "
                         "shards: keep one sweep per folder",
            dir.path() + ": shard 4 of 4 is there twice: shard-04-of-4.csv and shard-4-of-4.csv",
            dir.File("shard-5-of-4.csv") + ": shard 5 of 4 is outside 1..4"});
}

TEST_CASE("ScanShardFolder: an empty folder names the format it looked for", "[sweep][shard]") {
  const testing::TempDir dir("aqesim_shard_folder");
  ShardFolderScan scan = ScanShardFolder(dir.path(), OutputFormat::kCsv);
  CHECK(scan.count == 0);
  CHECK(DescribeMissingShards(scan, "out/", OutputFormat::kCsv) ==
        "out/: no shard output (shard-K-of-N.csv) in the folder");
  dir.Write("shard-1-of-1.json", "x\n");
  scan = ScanShardFolder(dir.path(), OutputFormat::kCsv);
  CHECK(DescribeMissingShards(scan, dir.path(), OutputFormat::kCsv) ==
        dir.path() +
            ": no shard output (shard-K-of-N.csv) in the folder; it holds .json shards: merge into a .json "
            "output");
  scan = ScanShardFolder(dir.File("absent"), OutputFormat::kCsv);
  REQUIRE(scan.errors.size() == 1);
  CHECK(scan.errors[0].rfind(dir.File("absent") + ": cannot read the folder: ", 0) == 0);
}

}  // namespace
}  // namespace aqesim::sweep
