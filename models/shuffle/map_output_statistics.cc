#include "models/shuffle/map_output_statistics.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <utility>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace aqesim {
namespace {

constexpr size_t kRoaringChunkWords = 65536 / 64;

int64_t Align8(int64_t n) { return (n + 7) / 8 * 8; }

struct RowScan {
  uint64_t sum = 0;             // of every block, wrapping like a Java long
  uint64_t non_zero = 0;        // blocks > 0
  uint64_t at_least_sum = 0;    // of the blocks >= threshold, wrapping
  uint64_t at_least_count = 0;  // blocks >= threshold
};

[[gnu::always_inline]] inline RowScan ScanRowBody(const int64_t* v, size_t n, int64_t threshold) {
  RowScan s;
  for (size_t r = 0; r < n; ++r) {
    const uint64_t u = static_cast<uint64_t>(v[r]);
    const uint64_t at_least = 0 - static_cast<uint64_t>(v[r] >= threshold);  // all ones or zero
    s.sum += u;
    s.non_zero += (u | (0 - u)) >> 63;
    s.at_least_sum += u & at_least;
    s.at_least_count += at_least & 1;
  }
  return s;
}

RowScan ScanRowGeneric(const int64_t* v, size_t n, int64_t threshold) { return ScanRowBody(v, n, threshold); }

#if defined(__x86_64__) && defined(__GNUC__)
// The baseline x86-64 ISA (SSE2) has no 64-bit compare; with AVX2 the loop vectorises fully.
[[gnu::target("avx2")]] RowScan ScanRowAvx2(const int64_t* v, size_t n, int64_t threshold) {
  return ScanRowBody(v, n, threshold);
}
#endif

// Appends, ascending, every r with v[r] >= threshold (threshold > 0, so those are non-empty).
void FindAtLeastGeneric(const int64_t* v, size_t n, int64_t threshold, std::vector<int32_t>* out) {
  for (size_t r = 0; r < n; ++r)
    if (v[r] >= threshold) out->push_back(static_cast<int32_t>(r));
}

#if defined(__x86_64__) && defined(__GNUC__)
// Four blocks per compare; the few hits are read off the mask (huge blocks are rare).
[[gnu::target("avx2")]] void FindAtLeastAvx2(const int64_t* v, size_t n, int64_t threshold,
                                             std::vector<int32_t>* out) {
  const __m256i below = _mm256_set1_epi64x(threshold - 1);  // v >= t  <=>  v > t - 1 (t > 0)
  size_t r = 0;
  for (; r + 4 <= n; r += 4) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + r));
    int mask = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(x, below)));
    while (mask != 0) {
      out->push_back(
          static_cast<int32_t>(r + static_cast<size_t>(std::countr_zero(static_cast<unsigned>(mask)))));
      mask &= mask - 1;
    }
  }
  for (; r < n; ++r)
    if (v[r] >= threshold) out->push_back(static_cast<int32_t>(r));
}
#endif

void FindAtLeast(const int64_t* v, size_t n, int64_t threshold, std::vector<int32_t>* out) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return FindAtLeastAvx2(v, n, threshold, out);
#endif
  FindAtLeastGeneric(v, n, threshold, out);
}

RowScan ScanRow(const int64_t* v, size_t n, int64_t threshold) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return ScanRowAvx2(v, n, threshold);
#endif
  return ScanRowGeneric(v, n, threshold);
}

}  // namespace

ReportedShuffleSizes::Builder::Builder(int num_reducers, const MapStatusConfig& config, MapStatusMode mode)
    : config_(config), acc_(static_cast<size_t>(std::max(num_reducers, 0)), 0) {
  out_.num_reducers_ = std::max(num_reducers, 0);
  out_.kind_ =
      mode == MapStatusMode::kExact ? MapStatusKind::kExact : ChooseMapStatusKind(num_reducers, config);
  if (out_.kind_ == MapStatusKind::kHighlyCompressed) {
    out_.bitmap_words_per_map_ = (static_cast<size_t>(out_.num_reducers_) + 63) / 64;
    out_.huge_offsets_.push_back(0);
  }
}

void ReportedShuffleSizes::Builder::Reserve(int num_maps) {
  const size_t maps = static_cast<size_t>(std::max(num_maps, 0));
  const size_t cells = maps * static_cast<size_t>(out_.num_reducers_);
  switch (out_.kind_) {
    case MapStatusKind::kCompressed:
      out_.codes_.reserve(cells);
      break;
    case MapStatusKind::kExact:
      out_.exact_.reserve(cells);
      break;
    case MapStatusKind::kHighlyCompressed:
      out_.map_avg_bytes_.reserve(maps);
      out_.huge_offsets_.reserve(maps + 1);
      out_.empty_bits_.reserve(maps * out_.bitmap_words_per_map_);
      break;
  }
}

void ReportedShuffleSizes::Builder::AddMap(std::span<const int64_t> block_sizes_bytes) {
  assert(block_sizes_bytes.size() == static_cast<size_t>(out_.num_reducers_));
  switch (out_.kind_) {
    case MapStatusKind::kCompressed:
      AddCompressed(block_sizes_bytes);
      break;
    case MapStatusKind::kHighlyCompressed:
      AddHighlyCompressed(block_sizes_bytes);
      break;
    case MapStatusKind::kExact:
      AddExact(block_sizes_bytes);
      break;
  }
  ++out_.num_maps_;
}

void ReportedShuffleSizes::Builder::AddCompressed(std::span<const int64_t> sizes) {
  const size_t n = sizes.size();
  const size_t base = out_.codes_.size();
  out_.codes_.resize(base + n);
  uint8_t* codes = out_.codes_.data() + base;
  CompressSizes(sizes, codes);
  const int64_t* decode = DecompressTable();
  uint64_t* acc = acc_.data();
  for (size_t r = 0; r < n; ++r) acc[r] += static_cast<uint64_t>(decode[codes[r]]);
  out_.driver_memory_bytes_ += kStatusObjectBytes + kArrayHeaderBytes + Align8(static_cast<int64_t>(n));
}

void ReportedShuffleSizes::Builder::AddHighlyCompressed(std::span<const int64_t> sizes) {
  const size_t n = sizes.size();
  const int64_t threshold = IntegerThreshold(HighlyCompressedThresholdBytes(sizes, config_));
  const size_t words = out_.bitmap_words_per_map_;
  const size_t bits_base = out_.empty_bits_.size();
  out_.empty_bits_.resize(bits_base + words, 0);
  uint64_t* bits = out_.empty_bits_.data() + bits_base;
  const size_t huge_base = out_.huge_reducers_.size();

  // One pass over the row with a few vectorisable operations per block: the sum, the number of
  // non-empty blocks, and the sum and number of blocks >= threshold. Sizes are >= 0, so with a
  // positive threshold the blocks at or above it are exactly the huge ones and the small ones
  // are the non-empty rest; with threshold <= 0 every non-empty block is huge. Passes 2 and 3
  // run only when the map has empty or huge blocks.
  const int64_t* v = sizes.data();
  const RowScan scan = ScanRow(v, n, threshold);
  const int64_t zero_count = static_cast<int64_t>(n - scan.non_zero);
  uint64_t small_total = 0;  // wraps like a Java long
  int64_t small_count = 0;
  if (threshold > 0) {
    small_total = scan.sum - scan.at_least_sum;
    small_count = static_cast<int64_t>(scan.non_zero - scan.at_least_count);
  }
  const int64_t huge_count = static_cast<int64_t>(n) - zero_count - small_count;
  if (zero_count > 0) {
    for (size_t w = 0; w < words; ++w) {
      const size_t begin = w * 64;
      const size_t end = std::min(n, begin + 64);
      uint64_t word = 0;
      for (size_t r = begin; r < end; ++r) word |= static_cast<uint64_t>(v[r] == 0) << (r - begin);
      bits[w] = word;
    }
  }
  if (huge_count > 0) {
    const size_t first = out_.huge_reducers_.size();
    if (threshold > 0) {
      FindAtLeast(v, n, threshold, &out_.huge_reducers_);
    } else {
      for (size_t r = 0; r < n; ++r)
        if (v[r] != 0) out_.huge_reducers_.push_back(static_cast<int32_t>(r));
    }
    for (size_t h = first; h < out_.huge_reducers_.size(); ++h)
      out_.huge_codes_.push_back(CompressSize(v[out_.huge_reducers_[h]]));
  }
  const int64_t avg = small_count > 0 ? static_cast<int64_t>(small_total) / small_count : 0;
  out_.map_avg_bytes_.push_back(avg);
  out_.huge_offsets_.push_back(static_cast<int64_t>(out_.huge_reducers_.size()));

  // Aggregation: every reducer is owed `avg` (added once at Build); fix up empty and huge blocks.
  sum_of_averages_ += static_cast<uint64_t>(avg);
  uint64_t* acc = acc_.data();
  const uint64_t uavg = static_cast<uint64_t>(avg);
  const int64_t* decode = DecompressTable();
  int64_t roaring_bytes = kRoaringBaseBytes;
  for (size_t chunk = 0; zero_count > 0 && chunk < words; chunk += kRoaringChunkWords) {
    const size_t chunk_end = std::min(words, chunk + kRoaringChunkWords);
    int64_t in_chunk = 0;
    for (size_t w = chunk; w < chunk_end; ++w) {
      uint64_t x = bits[w];
      in_chunk += std::popcount(x);
      if (uavg != 0) {
        while (x != 0) {
          acc[w * 64 + static_cast<size_t>(std::countr_zero(x))] -= uavg;
          x &= x - 1;
        }
      }
    }
    if (in_chunk > 0) roaring_bytes += kRoaringContainerBytes + std::min<int64_t>(2 * in_chunk, 8192);
  }
  for (size_t h = huge_base; h < out_.huge_reducers_.size(); ++h) {
    acc[out_.huge_reducers_[h]] += static_cast<uint64_t>(decode[out_.huge_codes_[h]]) - uavg;
  }
  const int64_t num_huge = static_cast<int64_t>(out_.huge_reducers_.size() - huge_base);
  out_.driver_memory_bytes_ += kStatusObjectBytes + kHcmsFieldBytes + roaring_bytes + kHugeMapBaseBytes +
                               kHugeMapEntryBytes * num_huge;
}

void ReportedShuffleSizes::Builder::AddExact(std::span<const int64_t> sizes) {
  const size_t n = sizes.size();
  out_.exact_.insert(out_.exact_.end(), sizes.begin(), sizes.end());
  uint64_t* acc = acc_.data();
  for (size_t r = 0; r < n; ++r) acc[r] += static_cast<uint64_t>(sizes[r]);
  out_.driver_memory_bytes_ += kStatusObjectBytes + kArrayHeaderBytes + 8 * static_cast<int64_t>(n);
}

ReportedShuffleSizes ReportedShuffleSizes::Builder::Build() && {
  out_.bytes_by_partition_id_.resize(acc_.size());
  for (size_t r = 0; r < acc_.size(); ++r) {
    out_.bytes_by_partition_id_[r] = static_cast<int64_t>(acc_[r] + sum_of_averages_);
  }
  return std::move(out_);
}

ReportedShuffleSizes ReportedShuffleSizes::FromMatrix(const SizeMatrix& matrix, const MapStatusConfig& config,
                                                      MapStatusMode mode) {
  Builder builder(matrix.num_reducers(), config, mode);
  builder.Reserve(matrix.num_maps());
  for (int m = 0; m < matrix.num_maps(); ++m) builder.AddMap(matrix.row(m));
  return std::move(builder).Build();
}

int64_t ReportedShuffleSizes::SizeForBlock(int map, int reducer) const {
  const size_t cell =
      static_cast<size_t>(map) * static_cast<size_t>(num_reducers_) + static_cast<size_t>(reducer);
  switch (kind_) {
    case MapStatusKind::kCompressed:
      return DecompressSize(codes_[cell]);
    case MapStatusKind::kExact:
      return exact_[cell];
    case MapStatusKind::kHighlyCompressed:
      break;
  }
  const uint64_t word =
      empty_bits_[static_cast<size_t>(map) * bitmap_words_per_map_ + (static_cast<size_t>(reducer) >> 6)];
  if ((word >> (reducer & 63)) & 1u) return 0;
  const auto first = huge_reducers_.begin() + huge_offsets_[map];
  const auto last = huge_reducers_.begin() + huge_offsets_[map + 1];
  const auto it = std::lower_bound(first, last, reducer);
  if (it != last && *it == reducer)
    return DecompressSize(huge_codes_[static_cast<size_t>(it - huge_reducers_.begin())]);
  return map_avg_bytes_[map];
}

std::vector<int64_t> ReportedShuffleSizes::MapSizesForReducer(int reducer) const {
  std::vector<int64_t> out(static_cast<size_t>(num_maps_));
  for (int m = 0; m < num_maps_; ++m) out[m] = SizeForBlock(m, reducer);
  return out;
}

int64_t ReportedShuffleSizes::TotalReportedBytes() const {
  uint64_t total = 0;
  for (int64_t b : bytes_by_partition_id_) total += static_cast<uint64_t>(b);
  return static_cast<int64_t>(total);
}

int64_t ReportedShuffleSizes::MapAverageBytes(int map) const {
  return kind_ == MapStatusKind::kHighlyCompressed ? map_avg_bytes_[map] : 0;
}

}  // namespace aqesim
