#include "models/shuffle/shuffle_sizes.h"

#include <algorithm>
#include <numeric>

#include "models/shuffle/generators.h"

namespace aqesim {

ShuffleSizes::ShuffleSizes(SizeMatrix m) : dense_(std::move(m)) {}

ShuffleSizes ShuffleSizes::Generated(const GenerateSizes& g, int map_tasks, int partitions,
                                     int64_t total_bytes, uint64_t seed) {
  ShuffleSizes s;
  s.stream_ = std::make_unique<GeneratedRowStream>(g, map_tasks, partitions, total_bytes, seed);
  return s;
}

ShuffleSizes::ShuffleSizes(const ShuffleSizes& o)
    : dense_(o.dense_),
      stream_(o.stream_ ? std::make_unique<GeneratedRowStream>(*o.stream_) : nullptr),
      map_bytes_(o.map_bytes_),
      partition_bytes_(o.partition_bytes_),
      columns_(o.columns_) {}

ShuffleSizes& ShuffleSizes::operator=(const ShuffleSizes& o) {
  if (this != &o) *this = ShuffleSizes(o);
  return *this;
}

int ShuffleSizes::num_maps() const { return stream_ ? stream_->num_maps() : dense_.num_maps(); }
int ShuffleSizes::num_reducers() const { return stream_ ? stream_->num_reducers() : dense_.num_reducers(); }

const std::vector<int64_t>& ShuffleSizes::MapBytes() const {
  if (stream_) return stream_->RowTotals();
  if (!map_bytes_) map_bytes_ = dense_.MapBytes();
  return *map_bytes_;
}

const std::vector<int64_t>& ShuffleSizes::PartitionBytes() const {
  if (!partition_bytes_) {
    if (stream_) {
      ForEachRow([](int, std::span<const int64_t>) {});  // the pass sums the columns
    } else {
      partition_bytes_ = dense_.PartitionBytes();
    }
  }
  return *partition_bytes_;
}

int64_t ShuffleSizes::TotalBytes() const {
  if (!stream_) return dense_.TotalBytes();
  int64_t t = 0;
  for (int64_t v : MapBytes()) t += v;
  return t;
}

std::span<const int64_t> ShuffleSizes::row(int map) const {
  if (!stream_) return dense_.row(map);
  if (row_in_buf_ != map) {
    row_buf_.resize(static_cast<size_t>(stream_->num_reducers()));
    stream_->Seek(map);
    stream_->NextRow(row_buf_);
    row_in_buf_ = map;
  }
  return row_buf_;
}

void ShuffleSizes::ForEachRow(const std::function<void(int, std::span<const int64_t>)>& f) const {
  if (!stream_) {
    for (int m = 0; m < dense_.num_maps(); ++m) f(m, dense_.row(m));
    return;
  }
  const size_t n = static_cast<size_t>(stream_->num_reducers());
  row_buf_.resize(n);
  const bool sum_columns = !partition_bytes_;
  std::vector<int64_t> columns(sum_columns ? n : 0, 0);
  stream_->Seek(0);
  for (int m = 0; m < stream_->num_maps(); ++m) {
    stream_->NextRow(row_buf_);
    row_in_buf_ = m;
    if (sum_columns) {
      int64_t* col = columns.data();
      const int64_t* row = row_buf_.data();
      for (size_t r = 0; r < n; ++r) col[r] += row[r];
    }
    f(m, row_buf_);
  }
  if (sum_columns) partition_bytes_ = std::move(columns);
}

void ShuffleSizes::ForEachRowExtracting(std::span<const int> reducers,
                                        const std::function<void(int, std::span<const int64_t>)>& f) const {
  std::vector<int> missing;
  for (int r : reducers)
    if (r >= 0 && r < num_reducers() && !columns_.count(r)) missing.push_back(r);
  std::sort(missing.begin(), missing.end());
  missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
  if (missing.empty()) {
    if (f) ForEachRow(f);
    return;
  }
  std::vector<int64_t*> cols;
  for (int r : missing) {
    auto& c = columns_[r];
    c.assign(static_cast<size_t>(num_maps()), 0);
    cols.push_back(c.data());
  }
  ForEachRow([&](int m, std::span<const int64_t> row) {
    for (size_t i = 0; i < missing.size(); ++i) cols[i][m] = row[static_cast<size_t>(missing[i])];
    if (f) f(m, row);
  });
}

void ShuffleSizes::PrefetchColumns(std::span<const int> reducers) const {
  ForEachRowExtracting(reducers, nullptr);
}

const std::vector<int64_t>& ShuffleSizes::Column(int reducer) const {
  auto it = columns_.find(reducer);
  if (it != columns_.end()) return it->second;
  const int r[] = {reducer};
  PrefetchColumns(r);
  return columns_.at(reducer);
}

SizeMatrix ShuffleSizes::ToDense() const {
  if (!stream_) return dense_;
  SizeMatrix m(num_maps(), num_reducers());
  ForEachRow([&](int map, std::span<const int64_t> row) {
    std::copy(row.begin(), row.end(), m.mutable_row(map).begin());
  });
  return m;
}

std::span<int64_t> ShuffleSizes::mutable_row(int map) {
  if (stream_) {
    dense_ = ToDense();
    stream_.reset();
    row_buf_.clear();
    row_in_buf_ = -1;
  }
  map_bytes_.reset();
  partition_bytes_.reset();
  columns_.clear();
  return dense_.mutable_row(map);
}

namespace {
template <int kUnused>
[[gnu::always_inline]] inline void AddRowBody(const int64_t* row, size_t n, int64_t* bytes, int64_t* blocks) {
  for (size_t r = 0; r < n; ++r) {
    bytes[r] += row[r];
    blocks[r] += row[r] > 0;
  }
}
void AddRowGeneric(const int64_t* row, size_t n, int64_t* bytes, int64_t* blocks) {
  AddRowBody<0>(row, n, bytes, blocks);
}
#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("avx2")]] void AddRowAvx2(const int64_t* row, size_t n, int64_t* bytes, int64_t* blocks) {
  AddRowBody<1>(row, n, bytes, blocks);
}
#endif
}  // namespace

void AddRowBytesAndBlocks(std::span<const int64_t> row, int64_t* bytes, int64_t* blocks) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return AddRowAvx2(row.data(), row.size(), bytes, blocks);
#endif
  AddRowGeneric(row.data(), row.size(), bytes, blocks);
}

ReportedShuffleSizes ReportShuffleSizes(const ShuffleSizes& sizes, const MapStatusConfig& config,
                                        MapStatusMode mode, double reported_size_ratio) {
  const bool scaled = reported_size_ratio != 1.0;
  if (!sizes.streamed() && !scaled) return ReportedShuffleSizes::FromMatrix(sizes.dense(), config, mode);
  ReportedShuffleSizes::Builder builder(sizes.num_reducers(), config, mode);
  builder.Reserve(sizes.num_maps());
  std::vector<int64_t> reported(scaled ? static_cast<size_t>(sizes.num_reducers()) : 0);
  sizes.ForEachRow([&](int, std::span<const int64_t> row) {
    if (!scaled) return builder.AddMap(row);
    for (size_t r = 0; r < row.size(); ++r) reported[r] = ReportedBlockBytes(row[r], reported_size_ratio);
    builder.AddMap(reported);
  });
  return std::move(builder).Build();
}

namespace {
struct GenerateArgs {
  int map_tasks;
  int partitions;
  int64_t total;
  uint64_t seed;
};
// The arguments MaterializeSizes passes to GenerateSizeMatrix.
GenerateArgs ArgsOf(const GenerateSizes& g, const SizesContext& ctx) {
  GenerateArgs a;
  a.map_tasks = g.map_tasks   ? *g.map_tasks
                : g.map_bytes ? static_cast<int>(g.map_bytes->size())
                              : ctx.default_map_tasks;
  a.partitions = g.partitions.value_or(ctx.configured_partitions);
  a.total = g.total_bytes.value_or(ctx.default_total_bytes);
  if (g.map_bytes) a.total = std::accumulate(g.map_bytes->begin(), g.map_bytes->end(), int64_t{0});
  a.seed = g.seed.value_or(ctx.seed);
  return a;
}
}  // namespace

ShuffleSizes PlanShuffleSizes(const SizesSpec& spec, const SizesContext& ctx) {
  if (const auto* g = std::get_if<GenerateSizes>(&spec.form)) {
    const GenerateArgs a = ArgsOf(*g, ctx);
    return ShuffleSizes::Generated(*g, a.map_tasks, a.partitions, a.total, a.seed);
  }
  return MaterializeSizes(spec, ctx);
}

SizesShape ShapeOfSizes(const SizesSpec& spec, const SizesContext& ctx) {
  if (const auto* m = std::get_if<SizeMatrix>(&spec.form)) return {m->num_maps(), m->num_reducers(), false};
  if (const auto* mg = std::get_if<MarginalsSizes>(&spec.form))
    return {static_cast<int64_t>(mg->map_bytes.size()), static_cast<int64_t>(mg->partition_bytes.size()),
            false};
  const GenerateArgs a = ArgsOf(std::get<GenerateSizes>(spec.form), ctx);
  // GeneratedRowStream clamps both to >= 1.
  return {std::max(a.map_tasks, 1), std::max(a.partitions, 1), true};
}

}  // namespace aqesim
