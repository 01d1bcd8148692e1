#include "models/conf/property_value.h"

#include <catch2/catch.hpp>
#include <climits>
#include <cstdint>
#include <string>

namespace aqesim {
namespace {

TEST_CASE("Trim: Java's String.trim strips every character up to ' '", "[conf]") {
  CHECK(Trim("  64m \t\n") == "64m");
  CHECK(Trim(std::string("\x01\x1f"
                         "200\x0b",
                         6)) == "200");
  CHECK(Trim("a b") == "a b");
  CHECK(Trim(" \t ").empty());
  CHECK(Lower("SortMergeJoin") == "sortmergejoin");
}

TEST_CASE("ParseInt, ParseLong, ParseDouble, ParseBool: trimmed, checked, never wrapping", "[conf]") {
  CHECK(ParseInt(" 400 ") == 400);
  CHECK(ParseInt("+7") == 7);
  CHECK(ParseInt("-2147483648") == INT_MIN);
  CHECK(ParseInt("2147483647") == INT_MAX);
  CHECK_FALSE(ParseInt("2147483648"));  // Integer.parseInt overflows
  CHECK_FALSE(ParseInt("99999999999"));
  CHECK_FALSE(ParseInt("200abc"));  // std::stoi took the prefix
  CHECK_FALSE(ParseInt("1.0"));
  CHECK_FALSE(ParseInt(""));
  CHECK_FALSE(ParseInt("-"));
  CHECK(ParseLong("9223372036854775807") == INT64_MAX);
  CHECK_FALSE(ParseLong("9223372036854775808"));
  CHECK(ParseDouble("2.5") == 2.5);
  CHECK(ParseDouble("1e3") == 1000.0);
  CHECK_FALSE(ParseDouble("nan"));
  CHECK_FALSE(ParseDouble("1e999"));  // not finite
  CHECK_FALSE(ParseDouble("0x10"));
  CHECK(ParseBool(" TRUE") == true);
  CHECK(ParseBool("false") == false);
  CHECK_FALSE(ParseBool("yes"));
}

TEST_CASE("ParseByteString: Spark's JavaUtils.byteStringAsBytes table", "[conf]") {
  CHECK(ParseByteString("64m") == 67108864);
  CHECK(ParseByteString("64mb") == 67108864);
  CHECK(ParseByteString("64MB") == 67108864);
  CHECK(ParseByteString("100MB") == 104857600);
  CHECK(ParseByteString("1g") == 1073741824);
  CHECK(ParseByteString("1G") == 1073741824);
  CHECK(ParseByteString("1gb") == 1073741824);
  CHECK(ParseByteString("1k") == 1024);
  CHECK(ParseByteString("1kb") == 1024);
  CHECK(ParseByteString("1t") == 1099511627776);
  CHECK(ParseByteString("1p") == 1125899906842624);
  CHECK(ParseByteString("10b") == 10);
  CHECK(ParseByteString("1048576") == 1048576);
  CHECK(ParseByteString("0") == 0);
  CHECK(ParseByteString("-1") == -1);  // ConfigHelpers.byteFromString: autoBroadcastJoinThreshold -1
  CHECK(ParseByteString("-10m") == -10485760);
  CHECK(ParseByteString(" 64m ") == 67108864);  // trimmed, as String.trim()
  CHECK(ParseByteString("9223372036854775807") == INT64_MAX);
  CHECK_FALSE(ParseByteString("9223372036854775808"));  // Long.parseLong overflow
  CHECK_FALSE(ParseByteString("8192p"));                // 2^63: exceeds Long.MAX_VALUE
  CHECK(ParseByteString("8191p") == 8191LL << 50);
  CHECK_FALSE(ParseByteString("1.5g"));
  CHECK_FALSE(ParseByteString("64x"));
  CHECK_FALSE(ParseByteString("m"));
  CHECK_FALSE(ParseByteString(""));
  CHECK_FALSE(ParseByteString("1 g"));
  CHECK_FALSE(ParseByteString("+5"));
  CHECK_FALSE(ParseByteString("abc"));
  // The reasons, for messages.
  CHECK(ParseSizeString("1.5g").error == SizeStringError::kFraction);
  CHECK(ParseSizeString("64x").error == SizeStringError::kInvalidSuffix);
  CHECK(ParseSizeString("8192p").error == SizeStringError::kOverflow);
  CHECK(ParseSizeString("1g1").error == SizeStringError::kSyntax);
  CHECK(ParseSizeString("4096", 1 << 20).value == 4294967296LL);  // spark.executor.memory: MiB
}

TEST_CASE("ParseTimeStringSeconds: JavaUtils.timeStringAs suffixes", "[conf]") {
  CHECK(ParseTimeStringSeconds("300s", 1) == 300.0);
  CHECK(ParseTimeStringSeconds("300", 1) == 300.0);
  CHECK(ParseTimeStringSeconds("5min", 1) == 300.0);
  CHECK(ParseTimeStringSeconds("5m", 1) == 300.0);  // "m" is minutes for times
  CHECK(ParseTimeStringSeconds("100ms", 1) == Approx(0.1));
  CHECK(ParseTimeStringSeconds("2h", 1) == 7200.0);
  CHECK(ParseTimeStringSeconds("1d", 1) == 86400.0);
  CHECK(ParseTimeStringSeconds("500us", 1) == Approx(0.0005));
  CHECK(ParseTimeStringSeconds("250", 0.001) == Approx(0.25));
  CHECK(ParseTimeStringSeconds("-1", 1) == -1.0);
  CHECK_FALSE(ParseTimeStringSeconds("5 weeks", 1));
  CHECK_FALSE(ParseTimeStringSeconds("1.5s", 1));
  CHECK_FALSE(ParseTimeStringSeconds("5w", 1));
}

TEST_CASE("ParseSparkMaster: SparkContext.createTaskScheduler's master URLs", "[conf]") {
  std::string error;
  auto threads = [&](const std::string& m) { return ParseSparkMaster(m, &error).value().local_threads; };
  CHECK(threads("local") == 1);
  CHECK(threads("local[4]") == 4);
  CHECK(threads("local[2147483647]") == INT_MAX);
  CHECK(threads("local[*]") == std::nullopt);
  CHECK(threads("local[4, 2]") == 4);  // LOCAL_N_FAILURES_REGEX: 4 threads, 2 task failures
  CHECK(threads("local[*,3]") == std::nullopt);
  CHECK(ParseSparkMaster("local[*]", &error)->local);
  for (const char* cluster : {"yarn", "yarn-cluster", "spark://10.0.0.1:7077", "k8s://https://h:443",
                              "local-cluster[2, 1, 1024]"}) {
    INFO(cluster);
    REQUIRE(ParseSparkMaster(cluster, &error));
    CHECK_FALSE(ParseSparkMaster(cluster, &error)->local);
  }
  // Spark refuses these: N.toInt fails, or "Asked to run locally with 0 threads".
  for (const char* bad :
       {"local[99999999999]", "local[0]", "local[x]", "local[]", "local[4,]", "local[-1]", "local[4"}) {
    INFO(bad);
    error.clear();
    CHECK_FALSE(ParseSparkMaster(bad, &error));
    CHECK(error ==
          std::string("expected local, local[N], local[*] or local[N, F] with N from 1 to 2147483647, "
                      "found \"") +
              bad + "\"");
  }
}

}  // namespace
}  // namespace aqesim
