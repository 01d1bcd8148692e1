#include "models/shuffle/map_status.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>

namespace aqesim {
namespace {

constexpr double kLogBase = 1.1;

// Tables behind the fast encode/decode. Encoding is monotone in the size, so the code of a size
// s >= 2 is the largest k with min_size_for_code[k] <= s. Within one power of two the code spans
// at most ceil(ln 2 / ln 1.1) = 8 values, so a lookup starts at the code of 2^floor(log2 s) and
// walks forward a few steps.
struct CodecTables {
  std::array<int64_t, 256> decode{};
  // min_size_for_code[k]: smallest size >= 2 whose code is >= k (only k >= code(2) are used).
  std::array<int64_t, 257> min_size_for_code{};
  // first_code[e]: code of 2^e, e in [1, 62].
  std::array<uint8_t, 64> first_code{};
  // next_bounds[e][j] = min_size_for_code[first_code[e] + 1 + j] (int64 max past code 255, so
  // the count is clamped to 255): a
  // size in [2^e, 2^(e+1)) has code first_code[e] + #{j : size >= next_bounds[e][j]}, since a
  // power of two spans at most 8 codes (ln 2 / ln 1.1 = 7.27).
  std::array<std::array<int64_t, 8>, 64> next_bounds{};

  CodecTables() {
    for (int b = 0; b < 256; ++b) {
      decode[b] = b == 0 ? 0 : static_cast<int64_t>(std::pow(kLogBase, static_cast<double>(b)));
    }
    const int64_t kMax = std::numeric_limits<int64_t>::max();
    for (int k = 0; k < 257; ++k) {
      if (k > 255) {
        min_size_for_code[k] = kMax;  // sentinel: no size has code 256
        continue;
      }
      int64_t lo = 2, hi = kMax;  // CompressSizeByFormula(kMax) == 255 >= k
      if (CompressSizeByFormula(lo) >= k) {
        min_size_for_code[k] = lo;
        continue;
      }
      while (hi - lo > 1) {  // invariant: code(lo) < k <= code(hi)
        const int64_t mid = lo + (hi - lo) / 2;
        if (CompressSizeByFormula(mid) >= k)
          hi = mid;
        else
          lo = mid;
      }
      min_size_for_code[k] = hi;
    }
    for (int e = 1; e < 63; ++e) {
      first_code[e] = CompressSizeByFormula(int64_t{1} << e);
      for (int j = 0; j < 8; ++j) {
        const int k = first_code[e] + 1 + j;
        next_bounds[e][j] = k <= 255 ? min_size_for_code[k] : kMax;
      }
    }
  }
};

const CodecTables& Tables() {
  static const CodecTables tables;
  return tables;
}

// The values of a list that the median and the "m-th largest" need, by selection on a copy.
struct OrderStats {
  int64_t median = 1;
  int64_t mth_largest = 0;
};

OrderStats SelectOrderStats(std::span<const int64_t> sizes, int m) {
  OrderStats out;
  const size_t n = sizes.size();
  if (n == 0) return out;
  std::vector<int64_t> a(sizes.begin(), sizes.end());
  const size_t k1 = n / 2;
  std::nth_element(a.begin(), a.begin() + k1, a.end());
  const int64_t upper = a[k1];
  if (n % 2 == 0) {
    const int64_t lower = *std::max_element(a.begin(), a.begin() + k1);
    out.median = std::max<int64_t>((upper + lower) / 2, 1);
  } else {
    out.median = std::max<int64_t>(upper, 1);
  }
  if (m > 0) {
    const size_t k2 = n - static_cast<size_t>(std::min<size_t>(static_cast<size_t>(m), n));
    if (k2 > k1) {
      std::nth_element(a.begin() + k1 + 1, a.begin() + k2, a.end());
    } else if (k2 < k1) {
      std::nth_element(a.begin(), a.begin() + k2, a.begin() + k1);
    }
    out.mth_largest = a[k2];
  }
  return out;
}

}  // namespace

std::string_view MapStatusKindName(MapStatusKind kind) {
  switch (kind) {
    case MapStatusKind::kCompressed:
      return "CompressedMapStatus";
    case MapStatusKind::kHighlyCompressed:
      return "HighlyCompressedMapStatus";
    case MapStatusKind::kExact:
      return "exact";
  }
  return "exact";
}

MapStatusKind ChooseMapStatusKind(int num_reducers, const MapStatusConfig& config) {
  return num_reducers > config.min_num_partitions_to_highly_compress ? MapStatusKind::kHighlyCompressed
                                                                     : MapStatusKind::kCompressed;
}

uint8_t CompressSizeByFormula(int64_t size_bytes) {
  if (size_bytes == 0) return 0;
  if (size_bytes <= 1) return 1;
  const double code = std::ceil(std::log(static_cast<double>(size_bytes)) / std::log(kLogBase));
  return static_cast<uint8_t>(std::min(255.0, code));
}

namespace {
inline uint8_t EncodeWith(const CodecTables& t, int64_t size_bytes) {
  if (size_bytes == 0) return 0;
  if (size_bytes <= 1) return 1;
  const int e = 63 - std::countl_zero(static_cast<uint64_t>(size_bytes));  // in [1, 62]
  const std::array<int64_t, 8>& b = t.next_bounds[e];
  int code = t.first_code[e];
  for (int j = 0; j < 8; ++j) code += size_bytes >= b[j];
  return static_cast<uint8_t>(std::min(code, 255));  // int64 max itself reaches the kMax padding
}
}  // namespace

uint8_t CompressSize(int64_t size_bytes) { return EncodeWith(Tables(), size_bytes); }

void CompressSizes(std::span<const int64_t> sizes_bytes, uint8_t* out) {
  const CodecTables& t = Tables();
  const size_t n = sizes_bytes.size();
  for (size_t i = 0; i < n; ++i) out[i] = EncodeWith(t, sizes_bytes[i]);
}

int64_t DecompressSize(uint8_t code) { return Tables().decode[code]; }

int64_t ReportedBlockBytes(int64_t bytes, double reported_size_ratio) {
  if (bytes <= 0 || reported_size_ratio == 1.0) return bytes;
  const double scaled = std::round(static_cast<double>(bytes) * reported_size_ratio);
  if (scaled >= 9.2e18) return INT64_MAX;
  return std::max<int64_t>(1, static_cast<int64_t>(scaled));
}

const int64_t* DecompressTable() { return Tables().decode.data(); }

int64_t MedianBytes(std::span<const int64_t> sizes) { return SelectOrderStats(sizes, 0).median; }

int64_t IntegerThreshold(double threshold_bytes) {
  if (!(threshold_bytes > static_cast<double>(std::numeric_limits<int64_t>::min()))) {
    return std::numeric_limits<int64_t>::min();
  }
  if (threshold_bytes >= 9.2e18) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(std::ceil(threshold_bytes));
}

double HighlyCompressedThresholdBytes(std::span<const int64_t> block_sizes_bytes,
                                      const MapStatusConfig& config) {
  const double accurate = static_cast<double>(config.accurate_block_threshold_bytes);
  if (!(config.accurate_block_skewed_factor > 0) || block_sizes_bytes.empty()) return accurate;
  const int m = std::max(1, config.max_accurate_skewed_block_number);
  const OrderStats s = SelectOrderStats(block_sizes_bytes, m);
  const double skew_cut = std::max(static_cast<double>(s.median) * config.accurate_block_skewed_factor,
                                   static_cast<double>(s.mth_largest));
  return std::min(accurate, skew_cut);
}

CompressedMapStatus::CompressedMapStatus(std::span<const int64_t> block_sizes_bytes)
    : codes_(block_sizes_bytes.size()) {
  CompressSizes(block_sizes_bytes, codes_.data());
}

HighlyCompressedMapStatus::HighlyCompressedMapStatus(std::span<const int64_t> block_sizes_bytes,
                                                     const MapStatusConfig& config)
    : num_reducers_(static_cast<int>(block_sizes_bytes.size())),
      threshold_bytes_(HighlyCompressedThresholdBytes(block_sizes_bytes, config)),
      empty_bits_((block_sizes_bytes.size() + 63) / 64, 0) {
  const int64_t threshold = IntegerThreshold(threshold_bytes_);
  int64_t small_total = 0;
  int64_t small_count = 0;
  for (int r = 0; r < num_reducers_; ++r) {
    const int64_t s = block_sizes_bytes[r];
    if (s == 0) {
      empty_bits_[static_cast<size_t>(r) >> 6] |= uint64_t{1} << (r & 63);
      ++num_empty_blocks_;
    } else if (s < threshold) {
      small_total += s;
      ++small_count;
    } else {
      huge_blocks_.emplace_back(r, CompressSize(s));
    }
  }
  avg_size_bytes_ = small_count > 0 ? small_total / small_count : 0;
}

int64_t HighlyCompressedMapStatus::SizeForBlock(int reducer) const {
  if (IsEmptyBlock(reducer)) return 0;
  auto it = std::lower_bound(huge_blocks_.begin(), huge_blocks_.end(), reducer,
                             [](const std::pair<int, uint8_t>& h, int r) { return h.first < r; });
  if (it != huge_blocks_.end() && it->first == reducer) return DecompressSize(it->second);
  return avg_size_bytes_;
}

}  // namespace aqesim
