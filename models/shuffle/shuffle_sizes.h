// ShuffleSizes: the true partition-size matrix of one shuffle, either held densely (a matrix
// the scenario gave: matrix, csv, marginals, or one the engine derived) or streamed from its
// `generate` spec (generated_rows.h), never materialised.
//
// Shape: rows = map tasks, columns = reduce partitions; each cell is the bytes map task m
// wrote for reducer r (see size_matrix.h). A streamed shuffle regenerates its rows on every
// pass — deterministically, so every pass sees the same bits as GenerateSizeMatrix would
// hold — and keeps only O(map tasks + reducers) memory: the row totals (known before any row
// is generated), the true column sums (computed during the first pass, whatever it is for),
// one row buffer and the columns asked for by Column() (skew-split reads).
//
// Passes are the unit of cost of a streamed shuffle (one pass of a 10^4 x 10^4 shuffle is
// ~0.1 s): callers gather everything a pass can give at once (ForEachRow).
//
// Not thread-safe, also through const methods (caches and the row buffer are mutable): one
// engine run owns its shuffles.
#ifndef AQESIM_MODELS_SHUFFLE_SHUFFLE_SIZES_H_
#define AQESIM_MODELS_SHUFFLE_SHUFFLE_SIZES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "models/shuffle/generated_rows.h"
#include "models/shuffle/map_output_statistics.h"
#include "models/shuffle/size_matrix.h"
#include "models/shuffle/sizes_spec.h"

namespace aqesim {

/// Largest generated shuffle (map tasks x reducers) the loader and planner accept when it is
/// streamed: 2 x 10^10 cells (about 30 s per pass on one core).
inline constexpr int64_t kMaxGeneratedCells = 20'000'000'000;
/// Most reducers of a streamed shuffle: per-reducer state (row buffer, split scratch, column
/// sums, statistics) is ~80 bytes a reducer.
inline constexpr int64_t kMaxGeneratedPartitions = 10'000'000;

class ShuffleSizes {
 public:
  /// An empty 0 x 0 shuffle.
  ShuffleSizes() = default;
  /// A dense matrix (implicit: anything that was a SizeMatrix is one).
  ShuffleSizes(SizeMatrix m);  // NOLINT(google-explicit-constructor)
  /// A streamed `generate` shuffle; same arguments and rows as GenerateSizeMatrix.
  static ShuffleSizes Generated(const GenerateSizes& g, int map_tasks, int partitions, int64_t total_bytes,
                                uint64_t seed);

  ShuffleSizes(const ShuffleSizes& o);
  ShuffleSizes& operator=(const ShuffleSizes& o);
  ShuffleSizes(ShuffleSizes&&) noexcept = default;
  ShuffleSizes& operator=(ShuffleSizes&&) noexcept = default;

  bool streamed() const { return stream_ != nullptr; }
  int num_maps() const;
  int num_reducers() const;

  /// Bytes written by map `map` (row sum); O(1) once MapBytes is known (always, streamed).
  int64_t RowTotal(int map) const { return MapBytes()[static_cast<size_t>(map)]; }
  /// Row sums, bytes (cached).
  const std::vector<int64_t>& MapBytes() const;
  /// Column sums, bytes: the true bytes of each reduce partition (cached; streamed: one pass
  /// unless an earlier pass already gave them).
  const std::vector<int64_t>& PartitionBytes() const;
  int64_t TotalBytes() const;

  /// Row `map`. Dense: a view of the matrix. Streamed: generated into a buffer that stays
  /// valid until the next row() / ForEachRow / Column call (reading rows in ascending order
  /// costs one row each).
  std::span<const int64_t> row(int map) const;
  /// One cell (streamed: generates its row; use Column for a column).
  int64_t at(int map, int reducer) const { return row(map)[static_cast<size_t>(reducer)]; }

  /// Calls f(map, row) for every row in map order: one pass (dense: a walk over the matrix).
  void ForEachRow(const std::function<void(int, std::span<const int64_t>)>& f) const;

  /// Column `reducer` (bytes of every map for that reducer). Streamed: every column named
  /// by PrefetchColumns (or this one) is extracted in one pass and cached.
  const std::vector<int64_t>& Column(int reducer) const;
  bool HasColumn(int reducer) const { return columns_.count(reducer) > 0; }
  /// ForEachRow that also extracts the given columns not yet cached (same pass).
  void ForEachRowExtracting(std::span<const int> reducers,
                            const std::function<void(int, std::span<const int64_t>)>& f) const;
  /// Extracts the given columns (streamed: in one pass), so that Column() is a lookup.
  void PrefetchColumns(std::span<const int> reducers) const;

  /// The dense matrix. Precondition: !streamed().
  const SizeMatrix& dense() const { return dense_; }
  /// A dense copy (materialises a streamed shuffle: for resampling only).
  SizeMatrix ToDense() const;
  /// Writable row of a dense shuffle (a streamed one is materialised first); drops the caches.
  std::span<int64_t> mutable_row(int map);

 private:
  SizeMatrix dense_;
  // Streamed: the generator (rows, seekable) and its row buffer.
  std::unique_ptr<GeneratedRowStream> stream_;
  mutable std::vector<int64_t> row_buf_;
  mutable int row_in_buf_ = -1;
  // Caches. Row totals of a streamed shuffle are the stream's own (never cached here).
  mutable std::optional<std::vector<int64_t>> map_bytes_;
  mutable std::optional<std::vector<int64_t>> partition_bytes_;
  mutable std::map<int, std::vector<int64_t>> columns_;
};

/// bytes[r] += row[r] and blocks[r] += (row[r] > 0) for every r < row.size() (AVX2 when the
/// CPU has it; same result either way).
void AddRowBytesAndBlocks(std::span<const int64_t> row, int64_t* bytes, int64_t* blocks);

/// What the driver sees of a shuffle (ReportedShuffleSizes::FromMatrix of the same matrix,
/// identical), built in one pass; a streamed shuffle's column sums come from the same pass.
/// `reported_size_ratio` (the exchange's `reportedSizeRatio`, > 0): every block is reported as
/// ReportedBlockBytes(bytes, ratio) before MapStatus encodes it (map_status.h); 1 = Spark's own
/// MapStatus of the bytes written.
ReportedShuffleSizes ReportShuffleSizes(const ShuffleSizes& sizes, const MapStatusConfig& config,
                                        MapStatusMode mode, double reported_size_ratio = 1.0);

/// The sizes of an exchange as the engine keeps them: a `generate` spec streamed (never
/// materialised), any other form dense (MaterializeSizes).
ShuffleSizes PlanShuffleSizes(const SizesSpec& spec, const SizesContext& ctx);

/// Map tasks and reducers a spec yields in `ctx` (what PlanShuffleSizes would return), known
/// without generating anything.
struct SizesShape {
  int64_t map_tasks = 0;
  int64_t partitions = 0;
  bool generated = false;
};
SizesShape ShapeOfSizes(const SizesSpec& spec, const SizesContext& ctx);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SHUFFLE_SHUFFLE_SIZES_H_
