#include "sim/rng.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace aqesim {
namespace {

// Independent reference implementations written from the published algorithms
// (Vigna's splitmix64.c / xoshiro256starstar.c), in a deliberately different style.
uint64_t RefSplitMix(uint64_t* x) {
  uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}
struct RefXoshiro {
  uint64_t s[4];
  explicit RefXoshiro(uint64_t seed) {
    for (int i = 0; i < 4; ++i) s[i] = RefSplitMix(&seed);
  }
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t next() {
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
};

TEST_CASE("Rng: splitmix64 reference values", "[sim][rng]") {
  uint64_t state = 0;
  CHECK(SplitMix64Next(state) == 0xe220a8397b1dcdafULL);
  CHECK(SplitMix64Next(state) == 0x6e789e6aa1b965f4ULL);
  CHECK(SplitMix64Next(state) == 0x06c45d188009454fULL);
}

TEST_CASE("Rng: xoshiro256** first outputs for fixed seeds", "[sim][rng]") {
  // Values computed once with an independent Python implementation.
  Rng zero(0);
  CHECK(zero.NextU64() == 0x99ec5f36cb75f2b4ULL);
  CHECK(zero.NextU64() == 0xbf6e1f784956452aULL);
  CHECK(zero.NextU64() == 0x1a5f849d4933e6e0ULL);
  CHECK(zero.NextU64() == 0x6aa594f1262d2d2cULL);
  Rng r42(42);
  CHECK(r42.NextU64() == 0x15780b2e0c2ec716ULL);
  CHECK(r42.NextU64() == 0x6104d9866d113a7eULL);
  CHECK(r42.NextU64() == 0xae17533239e499a1ULL);
  CHECK(r42.NextU64() == 0xecb8ad4703b360a1ULL);
}

TEST_CASE("Rng: agrees with an independent reference loop for many seeds", "[sim][rng]") {
  for (uint64_t seed : {0ULL, 1ULL, 7ULL, 42ULL, 0xdeadbeefULL, ~0ULL}) {
    Rng rng(seed);
    RefXoshiro ref(seed);
    for (int i = 0; i < 1000; ++i) {
      INFO("seed " << seed << " draw " << i);
      REQUIRE(rng.NextU64() == ref.next());
    }
  }
}

TEST_CASE("Rng: Uniform01, UniformInt, Normal", "[sim][rng]") {
  SECTION("Uniform01 uses the top 53 bits") {
    Rng rng(42);
    RefXoshiro ref(42);
    const double u = rng.Uniform01();
    CHECK(u == static_cast<double>(ref.next() >> 11) / 9007199254740992.0);
    CHECK(u == Approx(0.08386297105988216).epsilon(1e-15));
    CHECK(rng.Uniform01() == Approx(0.3789802506626686).epsilon(1e-15));
  }
  SECTION("Uniform01 stays in [0, 1)") {
    Rng rng(3);
    for (int i = 0; i < 100000; ++i) {
      const double u = rng.Uniform01();
      REQUIRE(u >= 0.0);
      REQUIRE(u < 1.0);
    }
  }
  SECTION("UniformInt fixed values and range") {
    Rng rng(42);
    std::vector<uint64_t> got;
    for (int i = 0; i < 8; ++i) got.push_back(rng.UniformInt(10));
    CHECK(got == std::vector<uint64_t>{0, 3, 6, 9, 9, 7, 7, 8});
    // Without rejection the result is the high word of draw * n.
    Rng a(9);
    RefXoshiro b(9);
    CHECK(a.UniformInt(1000) == static_cast<uint64_t>((static_cast<Uint128>(b.next()) * 1000) >> 64));
    CHECK(a.UniformInt(1) == 0);
    CHECK_THROWS_AS(a.UniformInt(0), std::logic_error);
  }
  SECTION("UniformInt is roughly uniform over a small range") {
    Rng rng(11);
    int counts[6] = {};
    for (int i = 0; i < 60000; ++i) ++counts[rng.UniformInt(6)];
    for (int c : counts) CHECK(std::abs(c - 10000) < 500);  // > 5 sigma margin
  }
  SECTION("Normal: Box-Muller on two uniforms") {
    Rng rng(7);
    CHECK(rng.Normal() == Approx(-0.2790239910251981).epsilon(1e-12));
    Rng sample(8);
    double sum = 0, sum_sq = 0;
    constexpr int kN = 200000;
    for (int i = 0; i < kN; ++i) {
      const double z = sample.Normal(10.0, 2.0);
      sum += z;
      sum_sq += z * z;
    }
    const double mean = sum / kN;
    const double var = sum_sq / kN - mean * mean;
    CHECK(mean == Approx(10.0).margin(0.03));  // sd of mean 0.0045
    CHECK(var == Approx(4.0).margin(0.06));
  }
}

TEST_CASE("Rng: same seed, same stream - different seeds differ", "[sim][rng]") {
  Rng a(123), b(123), c(124);
  for (int i = 0; i < 100; ++i) REQUIRE(a.NextU64() == b.NextU64());
  CHECK(Rng(123).NextU64() != c.NextU64());
}

TEST_CASE("MixSeed: fixed values, order and type sensitivity", "[sim][rng]") {
  // Values computed once with an independent Python implementation of the formula in rng.h.
  CHECK(MixSeed(7) == 0x63cbe1e459320dd7ULL);
  CHECK(MixSeed(7, 3, 12) == 0xc2d144f2f050c6a3ULL);
  CHECK(MixSeed(7, "skew", 3, -1) == 0xd69c8d16bdc6ac5fULL);
  CHECK(MixSeed(7, std::string("skew"), int64_t{3}, int64_t{-1}) == MixSeed(7, "skew", 3, -1));
  CHECK(MixSeed(7, uint8_t{3}, 12L) == MixSeed(7, 3, 12));
  CHECK(MixSeed(7, 3, 12) != MixSeed(7, 12, 3));
  CHECK(MixSeed(7, 3) != MixSeed(8, 3));
  CHECK(MixSeed(7, "") != MixSeed(7));
  CHECK(MixSeed(7, "ab", "c") != MixSeed(7, "a", "bc"));
  // (seed, stage, task) grid has no collisions.
  std::set<uint64_t> seen;
  for (int stage = 0; stage < 50; ++stage) {
    for (int task = 0; task < 200; ++task) seen.insert(MixSeed(1, stage, task));
  }
  CHECK(seen.size() == 50 * 200);
}

}  // namespace
}  // namespace aqesim
