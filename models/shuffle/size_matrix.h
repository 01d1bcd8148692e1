// SizeMatrix: the true partition-size matrix of one shuffle.
//
// Shape: rows = map tasks, columns = reduce partitions; each cell is the number of bytes
// map task m wrote for reducer r (bytes as written to the shuffle file, i.e. what Spark's
// "Shuffle Bytes Written" and MapStatus measure). Row-major dense storage.
#ifndef AQESIM_MODELS_SHUFFLE_SIZE_MATRIX_H_
#define AQESIM_MODELS_SHUFFLE_SIZE_MATRIX_H_

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <span>
#include <vector>
#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#endif

namespace aqesim {

namespace size_matrix_internal {
/// Allocator of the cells: a block of 64 MiB or more is 2 MiB-aligned and advised to use
/// transparent huge pages, so that zero-filling a 10^8-cell matrix (800 MB) takes a few hundred
/// page faults instead of ~200,000. Smaller blocks come from std::allocator.
template <typename T>
struct LargePageAllocator {
  using value_type = T;
  static constexpr size_t kLargeBytes = size_t{64} << 20;
  static constexpr size_t kHugePageBytes = size_t{2} << 20;
  LargePageAllocator() = default;
  template <typename U>
  LargePageAllocator(const LargePageAllocator<U>&) {}  // NOLINT: rebinding
  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kLargeBytes) return std::allocator<T>().allocate(n);
    const size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void* p = std::aligned_alloc(kHugePageBytes, rounded);
    if (p == nullptr) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure leaves normal pages
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) < kLargeBytes) {
      std::allocator<T>().deallocate(p, n);
    } else {
      std::free(p);
    }
  }
  template <typename U>
  bool operator==(const LargePageAllocator<U>&) const {
    return true;
  }
};
}  // namespace size_matrix_internal

class SizeMatrix {
 public:
  SizeMatrix() = default;
  /// A num_maps x num_reducers matrix of zeros.
  SizeMatrix(int num_maps, int num_reducers)
      : num_maps_(num_maps),
        num_reducers_(num_reducers),
        cells_(static_cast<size_t>(num_maps) * static_cast<size_t>(num_reducers), 0) {}

  int num_maps() const { return num_maps_; }
  int num_reducers() const { return num_reducers_; }

  int64_t at(int map, int reducer) const { return cells_[Index(map, reducer)]; }
  int64_t& at(int map, int reducer) { return cells_[Index(map, reducer)]; }

  /// Map task `map`'s sizes for every reducer, bytes.
  std::span<const int64_t> row(int map) const {
    return {cells_.data() + static_cast<size_t>(map) * num_reducers_, static_cast<size_t>(num_reducers_)};
  }
  std::span<int64_t> mutable_row(int map) {
    return {cells_.data() + static_cast<size_t>(map) * num_reducers_, static_cast<size_t>(num_reducers_)};
  }

  /// Bytes written by each map task (row sums).
  std::vector<int64_t> MapBytes() const {
    std::vector<int64_t> out(num_maps_, 0);
    for (int m = 0; m < num_maps_; ++m)
      for (int64_t v : row(m)) out[m] += v;
    return out;
  }
  /// True bytes of each reduce partition (column sums).
  std::vector<int64_t> PartitionBytes() const {
    std::vector<int64_t> out(num_reducers_, 0);
    for (int m = 0; m < num_maps_; ++m) {
      auto r = row(m);
      for (int p = 0; p < num_reducers_; ++p) out[p] += r[p];
    }
    return out;
  }
  int64_t TotalBytes() const {
    int64_t t = 0;
    for (int64_t v : cells_) t += v;
    return t;
  }

 private:
  size_t Index(int map, int reducer) const {
    return static_cast<size_t>(map) * static_cast<size_t>(num_reducers_) + static_cast<size_t>(reducer);
  }
  int num_maps_ = 0;
  int num_reducers_ = 0;
  std::vector<int64_t, size_matrix_internal::LargePageAllocator<int64_t>> cells_;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_SIZE_MATRIX_H_
