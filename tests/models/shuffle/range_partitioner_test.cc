// RangePartitioner's sample sizes, determineBounds and the sampling jobs, against bounds computed
// by hand for small key sets (Spark's core/.../Partitioner.scala).
#include "models/shuffle/range_partitioner.h"

#include <catch2/catch.hpp>
#include <vector>

#include "models/shuffle/key_distribution.h"

namespace aqesim {
namespace {

std::vector<WeightedKey> Unit(const std::vector<int64_t>& keys) {
  std::vector<WeightedKey> out;
  for (int64_t k : keys) out.push_back({k, 1.0F});
  return out;
}

class ListSource : public KeySource {
 public:
  explicit ListSource(std::vector<std::vector<int64_t>> keys) : keys_(std::move(keys)) {}
  int num_partitions() const override { return static_cast<int>(keys_.size()); }
  int64_t Count(int p) const override { return static_cast<int64_t>(keys_[p].size()); }
  std::vector<int64_t> ReservoirSample(int p, int k, Rng& rng) const override {
    return ReservoirSampleOf(keys_[p], k, rng);
  }
  std::vector<int64_t> BernoulliSample(int p, double fraction, Rng& rng) const override {
    std::vector<int64_t> out;
    for (int64_t key : keys_[p])
      if (rng.Uniform01() < fraction) out.push_back(key);
    return out;
  }

 private:
  std::vector<std::vector<int64_t>> keys_;
};

TEST_CASE("RangePartitioner: sample sizes as SQL's hint sets them", "[shuffle][range]") {
  CHECK(RangeSampleSize(200, 100) == 20000.0);
  CHECK(RangeSampleSize(200, 20) == 4000.0);               // the RDD API's default hint
  CHECK(RangeSampleSize(20000, 100) == 1000000.0);         // capped at 10^6
  CHECK(RangeSampleSizePerPartition(20000.0, 64) == 938);  // ceil(60000 / 64 = 937.5)
  CHECK(RangeSampleSizePerPartition(20000.0, 3) == 20000);
}

TEST_CASE("RangePartitioner: determineBounds on ten keys of weight 1", "[shuffle][range]") {
  // step 10/3: the running weight reaches 3.33 at key 4 (4), then 6.67 at key 7 (7).
  const std::vector<int64_t> b = DetermineBounds(Unit({7, 3, 10, 1, 5, 2, 9, 4, 8, 6}), 3);
  CHECK(b == std::vector<int64_t>{4, 7});
  CHECK(RangePartitionOf(1, b) == 0);
  CHECK(RangePartitionOf(4, b) == 0);  // the first bound >= the key
  CHECK(RangePartitionOf(5, b) == 1);
  CHECK(RangePartitionOf(7, b) == 1);
  CHECK(RangePartitionOf(8, b) == 2);
  CHECK(RangePartitionOf(100, b) == 2);
}

TEST_CASE("RangePartitioner: a heavy key first leaves the keys after it alone in partitions",
          "[shuffle][range]") {
  // Keys 1 x 8, 2, 3, 4, 5; 4 partitions, step 3: key 1 becomes a bound at weight 3; the sum
  // passes 6 on more 1s, which equal the last bound; key 2 (9 >= 6) is a bound, target 9; key 3
  // (10 >= 9) is the third. Partitions {1} 8 rows, {2} 1, {3} 1, {4, 5} 2.
  const std::vector<int64_t> b = DetermineBounds(Unit({1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5}), 4);
  CHECK(b == std::vector<int64_t>{1, 2, 3});
}

TEST_CASE("RangePartitioner: a heavy key late in the order gives fewer partitions", "[shuffle][range]") {
  // Keys 1, 2 x 8, 3; 4 partitions, step 2.5: key 2 becomes a bound at weight 3; the running
  // weight passes 5 and 7.5 on more 2s, which equal the last bound; key 3 (weight 10) is the
  // second bound. Two bounds: 3 partitions, the first holding 9 of the 10 rows.
  const std::vector<int64_t> b = DetermineBounds(Unit({1, 2, 2, 2, 2, 2, 2, 2, 2, 3}), 4);
  CHECK(b == std::vector<int64_t>{2, 3});
}

TEST_CASE("RangePartitioner: small partitions are sampled whole", "[shuffle][range]") {
  // 2 partitions requested, hint 100: sampleSize 200, 300 per partition; partitions of 3 and 4
  // rows are read whole (weight 1 each); fraction min(200 / 7, 1) = 1. Step 7 / 2 = 3.5: the
  // fourth key in order (4) is the bound.
  const ListSource src({{5, 1, 3}, {2, 4, 6, 8}});
  const RangeSampling s = ComputeRangeBounds(src, 2, 100, 7);
  CHECK(s.sample_size == 200.0);
  CHECK(s.sample_size_per_partition == 300);
  CHECK(s.total_rows == 7);
  CHECK(s.fraction == 1.0);
  CHECK(s.sketched_keys == 7);
  CHECK(s.imbalanced_partitions.empty());
  CHECK(s.bounds == std::vector<int64_t>{4});
  CHECK(s.partitions() == 2);
}

TEST_CASE("RangePartitioner: one requested partition samples nothing", "[shuffle][range]") {
  const ListSource src({{5, 1, 3}});
  const RangeSampling s = ComputeRangeBounds(src, 1, 100, 7);
  CHECK_FALSE(s.has_sample_job());
  CHECK(s.bounds.empty());
  CHECK(s.partitions() == 1);
}

TEST_CASE("RangePartitioner: a partition above 3x the average is re-sampled", "[shuffle][range]") {
  // 4 input partitions of 100, 1, 1, 1 rows; 2 requested, hint 10: sampleSize 20, 15 per
  // partition, fraction 20 / 103. 100 x 20/103 = 19.4 > 15: partition 0 is imbalanced and
  // read again, each row kept with probability 20/103 (weight 103/20 = 5.15). Its rows all have
  // key 50; the others give keys 10, 20, 90 with weight 1. Whatever the re-sample's size k >= 1,
  // the half weight (3 + 5.15 k) / 2 is passed among the 50s: bound 50.
  const ListSource src({std::vector<int64_t>(100, 50), {10}, {20}, {90}});
  const RangeSampling s = ComputeRangeBounds(src, 2, 10, 7);
  CHECK(s.sample_size_per_partition == 15);
  CHECK(s.fraction == Approx(20.0 / 103.0));
  CHECK(s.imbalanced_partitions == std::vector<int>{0});
  CHECK(s.resampled_keys >= 1);
  CHECK(s.resampled_keys <= 100);
  CHECK(s.bounds == std::vector<int64_t>{50});
}

TEST_CASE("RangePartitioner: reservoir sampling keeps k items", "[shuffle][range]") {
  Rng rng(3);
  const std::vector<int64_t> items = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  CHECK(ReservoirSampleOf(items, 20, rng) == items);  // fewer items than k: all, in order
  const std::vector<int64_t> s = ReservoirSampleOf(items, 4, rng);
  CHECK(s.size() == 4);
  for (int64_t k : s) CHECK((k >= 1 && k <= 10));
}

TEST_CASE("KeyModel: cumulative probabilities by hand", "[shuffle][range]") {
  KeyDistribution hot;
  hot.kind = KeyDistribution::Kind::kHotKeys;
  hot.distinct_keys = 10;
  hot.hot_count = 1;
  hot.hot_fraction = 0.5;
  const KeyModel h(hot);
  CHECK(h.Cdf(-1) == 0.0);
  CHECK(h.Cdf(0) == Approx(0.5));
  CHECK(h.Cdf(1) == Approx(0.5 + 0.5 / 9));
  CHECK(h.Cdf(9) == 1.0);
  KeyDistribution zipf;
  zipf.kind = KeyDistribution::Kind::kZipf;
  zipf.distinct_keys = 3;
  zipf.exponent = 1;
  const KeyModel z(zipf);  // weights 1, 1/2, 1/3 of 11/6
  CHECK(z.Cdf(0) == Approx(6.0 / 11));
  CHECK(z.Cdf(1) == Approx(9.0 / 11));
  CHECK(z.Cdf(2) == 1.0);
  KeyDistribution uni;
  uni.distinct_keys = 4;
  const KeyModel u(uni);
  CHECK(u.Cdf(1) == Approx(0.5));
  Rng rng(1);
  for (int i = 0; i < 100; ++i) {
    const int64_t k = z.Draw(rng);
    CHECK((k >= 0 && k <= 2));
  }
}

}  // namespace
}  // namespace aqesim
