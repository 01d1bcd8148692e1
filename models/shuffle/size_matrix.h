// SizeMatrix: the true partition-size matrix of one shuffle.
//
// Shape: rows = map tasks, columns = reduce partitions; each cell is the number of bytes
// map task m wrote for reducer r (bytes as written to the shuffle file, i.e. what Spark's
// "Shuffle Bytes Written" and MapStatus measure). Row-major dense storage.
#ifndef AQESIM_MODELS_SHUFFLE_SIZE_MATRIX_H_
#define AQESIM_MODELS_SHUFFLE_SIZE_MATRIX_H_

#include <cstdint>
#include <span>
#include <vector>

namespace aqesim {

class SizeMatrix {
 public:
  SizeMatrix() = default;
  /// A num_maps x num_reducers matrix of zeros.
  SizeMatrix(int num_maps, int num_reducers)
      : num_maps_(num_maps), num_reducers_(num_reducers),
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
  std::vector<int64_t> cells_;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_SIZE_MATRIX_H_
