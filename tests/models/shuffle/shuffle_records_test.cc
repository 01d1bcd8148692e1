// Records per reducer for the Intel–Baidu variants: given, spread by bytes, or one per 100 bytes.
#include "models/shuffle/shuffle_records.h"

#include <catch2/catch.hpp>

namespace aqesim {
namespace {

TEST_CASE("RecordsByPartitionId: given, the exchange's rows by bytes, or one record per 100 bytes",
          "[shuffle][variants]") {
  const std::vector<int64_t> bytes{100, 300, 0, 600};
  // Given with one entry per reducer: as is.
  CHECK(RecordsByPartitionId(bytes, 5, {1, 2, 3, 4}) == std::vector<int64_t>{1, 2, 3, 4});
  // 1000 records over 100 : 300 : 0 : 600 bytes.
  CHECK(RecordsByPartitionId(bytes, 1000, {}) == std::vector<int64_t>{100, 300, 0, 600});
  // 11 records: 1.1, 3.3, 0, 6.6 -> floors 1, 3, 0, 6 and the largest remainder (0.6) gets the odd one.
  CHECK(RecordsByPartitionId(bytes, 11, {}) == std::vector<int64_t>{1, 3, 0, 7});
  // No rows: 1000 bytes / 100 = 10 records.
  CHECK(RecordsByPartitionId(bytes, std::nullopt, {}) == std::vector<int64_t>{1, 3, 0, 6});
}

}  // namespace
}  // namespace aqesim
