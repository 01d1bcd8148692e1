#include "tools/eventlog/aqe_read_import.h"

#include "models/conf/property_value.h"

namespace aqesim::eventlog {

const RecordedShuffleRead* RecordedReadOf(const RecordedApplication& app, int64_t execution_id,
                                          std::optional<int64_t> write_metric_id) {
  const RecordedShuffleRead* reader = nullptr;
  for (const auto& r : app.shuffle_reads) {
    if (r.execution_id == execution_id && r.exchange_write_metric_id == write_metric_id) reader = &r;
  }
  return reader;
}

std::string RecordedReadKind(const RecordedShuffleRead& read) {
  const std::string prefix = read.node_name + " ";
  return read.simple_string.rfind(prefix, 0) == 0 ? read.simple_string.substr(prefix.size()) : "";
}

std::optional<CoalescedRead> CoalescedReadOf(const RecordedApplication& app, const SqlStageIndex& index,
                                             const RecordedShuffleRead& reader, int partitions,
                                             int map_stage_id, const std::set<int64_t>& read_ids) {
  const size_t specs = reader.partition_data_sizes_bytes.size();
  if (!reader.coalesced || reader.skewed || reader.local || specs == 0 ||
      static_cast<int64_t>(specs) >= partitions ||
      (reader.num_partitions && *reader.num_partitions != static_cast<int64_t>(specs))) {
    return std::nullopt;
  }
  CoalescedRead out;
  out.driver_bytes = reader.partition_data_sizes_bytes;
  out.combined_driver_bytes = out.driver_bytes;
  const RecordedStage* read_stage = index.ReadStageOfWriteMetric(reader.exchange_write_metric_id);
  if (read_stage != nullptr) {
    for (const auto& other : app.shuffle_reads) {
      if (&other == &reader || other.execution_id != reader.execution_id || !other.coalesced ||
          other.skewed || other.local || other.partition_data_sizes_bytes.size() != specs ||
          index.ReadStageOfWriteMetric(other.exchange_write_metric_id) != read_stage) {
        continue;
      }
      for (size_t i = 0; i < specs; ++i) out.combined_driver_bytes[i] += other.partition_data_sizes_bytes[i];
    }
    // This exchange's own read metrics (a join's stage reads two shuffles).
    if (!read_ids.empty() && read_stage->num_tasks == static_cast<int>(specs) &&
        read_stage->stage_id != map_stage_id) {
      out.read_bytes = ReadBytesByIndex(*read_stage, read_ids);
    }
  }
  int highly_compress_above = 2000;  // spark.shuffle.minNumPartitionsToHighlyCompress
  if (auto it = app.spark_properties.find("spark.shuffle.minNumPartitionsToHighlyCompress");
      it != app.spark_properties.end()) {
    highly_compress_above = ParseInt(it->second).value_or(highly_compress_above);
  }
  out.compressed_map_status = partitions <= highly_compress_above;
  return out;
}

}  // namespace aqesim::eventlog
