#include "models/engine/driver_statistics.h"

#include <memory>
#include <optional>

#include "models/engine/map_output.h"
#include "models/shuffle/shuffle_records.h"

namespace aqesim {

double CollectDriverStatistics(const ExecNode& exchange, const SqlConf& conf, MapStatusMode mode) {
  ShuffleData& d = *exchange.shuffle->data;
  d.reported = std::make_unique<ReportedShuffleSizes>(
      ReportShuffleSizes(d.actual, MapStatusConfigOf(conf), mode, d.reported_size_ratio));
  double blocks = static_cast<double>(d.actual.num_maps()) * d.num_reducers;
  // LAS variants: the driver also decompresses every status once for its exact totals.
  if (conf.variants.las_exact_reducer_totals || conf.variants.las_split_by_exact_totals) {
    d.exact_totals = AccumulateExactReducerTotals(d.actual, d.reported_size_ratio);
    blocks += static_cast<double>(d.exact_totals->decompressed_blocks);
  }
  // Intel–Baidu variants: records per reducer (the exchange's, else its child's rows).
  if (conf.variants.needs_records()) {
    std::optional<int64_t> rows;
    if (exchange.source) rows = exchange.source->rows;
    if (!rows && !exchange.children.empty() && exchange.child(0).source)
      rows = exchange.child(0).source->rows;
    static const std::vector<int64_t> kNone;
    d.records_by_partition = RecordsByPartitionId(
        d.actual.PartitionBytes(), rows, exchange.source ? exchange.source->rows_by_partition : kNone);
  }
  return blocks;
}

}  // namespace aqesim
