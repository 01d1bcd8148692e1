// Rng: a deterministic, platform-independent pseudo-random generator.
//
// xoshiro256** (Blackman & Vigna, 2018) seeded by four outputs of splitmix64, as the
// authors recommend. Every method is defined here with integer arithmetic only
// (Normal() uses std::log/sqrt/cos), never libstdc++'s <random> distributions, whose
// outputs differ across library versions. Same seed => same sequence on every
// platform.
//
// Seeds for independent streams come from MixSeed(seed, parts...): e.g.
// Rng rng(MixSeed(scenario_seed, "skew", stage_id, task_index)).
#ifndef AQESIM_SIM_RNG_H_
#define AQESIM_SIM_RNG_H_

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace aqesim {

/// 128-bit unsigned (GCC/Clang extension; __extension__ silences -Wpedantic).
__extension__ typedef unsigned __int128 Uint128;

/// One step of splitmix64 (Steele, Lea & Flood): advances `state` by the golden gamma
/// and returns the mixed value. For state 0 the first output is 0xe220a8397b1dcdaf.
inline uint64_t SplitMix64Next(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t sm = seed;
    for (uint64_t& word : s_) word = SplitMix64Next(sm);
  }

  /// Next 64 uniformly distributed bits (xoshiro256**).
  uint64_t NextU64() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  /// Uniform in [0, 1) with 53 random bits: (NextU64() >> 11) * 2^-53. One draw.
  double Uniform01() { return static_cast<double>(NextU64() >> 11) * 0x1.0p-53; }

  /// Uniform integer in [0, n), unbiased (Lemire's multiply-and-reject). n == 0 is a
  /// programmer error (std::logic_error). Usually one draw, more only on rejection.
  uint64_t UniformInt(uint64_t n) {
    if (n == 0) throw std::logic_error("Rng::UniformInt: empty range");
    Uint128 m = static_cast<Uint128>(NextU64()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = (0 - n) % n;  // 2^64 mod n
      while (low < threshold) {
        m = static_cast<Uint128>(NextU64()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

  /// Standard normal N(0, 1) by Box–Muller: u1 = 1 - Uniform01() in (0, 1],
  /// u2 = Uniform01(); returns sqrt(-2 ln u1) * cos(2 pi u2). Exactly two draws per
  /// call (the sine partner is not cached, so call order alone fixes the stream).
  double Normal() {
    const double u1 = 1.0 - Uniform01();
    const double u2 = Uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
  }
  /// N(mean, stddev^2).
  double Normal(double mean, double stddev) { return mean + stddev * Normal(); }

 private:
  static constexpr double kPi = 3.14159265358979323846;
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  uint64_t s_[4];
};

namespace rng_internal {

// splitmix64's finaliser (a bijection on 64-bit words).
inline uint64_t Fmix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// FNV-1a over the bytes, then the length, so "" and "\0" differ.
inline uint64_t HashBytes(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return Fmix64(h ^ (static_cast<uint64_t>(s.size()) * 0x9e3779b97f4a7c15ULL));
}

inline uint64_t PartHash(std::string_view s) { return HashBytes(s) ^ 0x5bd1e9955bd1e995ULL; }
inline uint64_t PartHash(const std::string& s) { return PartHash(std::string_view(s)); }
inline uint64_t PartHash(const char* s) { return PartHash(std::string_view(s)); }
template <typename T, typename = std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>>>
uint64_t PartHash(T v) {
  // Signed values are sign-extended to 64 bits, so int -1 and int64 -1 agree.
  int64_t wide;
  if constexpr (std::is_enum_v<T>) {
    wide = static_cast<int64_t>(static_cast<std::underlying_type_t<T>>(v));
  } else {
    wide = static_cast<int64_t>(v);
  }
  return static_cast<uint64_t>(wide);
}

}  // namespace rng_internal

/// Hashes a seed and any number of integers / strings into one 64-bit seed. Order
/// matters; integers are taken as their int64 value (so 3, 3L and uint8_t{3} agree);
/// strings by their bytes. Defined by this formula (stable across platforms):
///   h = Fmix64(seed + 0x9e3779b97f4a7c15)
///   for each part p:  h = Fmix64((h + 0x9e3779b97f4a7c15) ^ PartHash(p))
/// where integer PartHash(v) = (uint64)v and string PartHash(s) = HashBytes(s) ^
/// 0x5bd1e9955bd1e995.
template <typename... Parts>
uint64_t MixSeed(uint64_t seed, const Parts&... parts) {
  uint64_t h = rng_internal::Fmix64(seed + 0x9e3779b97f4a7c15ULL);
  ((h = rng_internal::Fmix64((h + 0x9e3779b97f4a7c15ULL) ^ rng_internal::PartHash(parts))), ...);
  return h;
}

}  // namespace aqesim

#endif  // AQESIM_SIM_RNG_H_
