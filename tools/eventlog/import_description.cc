#include "tools/eventlog/import_description.h"

#include <filesystem>
#include <sstream>
#include <vector>

namespace aqesim::eventlog {
namespace {

std::string FormatBytes(int64_t b) {
  std::ostringstream os;
  os.precision(3);
  if (b >= (int64_t{1} << 30))
    os << static_cast<double>(b) / (1 << 30) << " GiB";
  else if (b >= (1 << 20))
    os << static_cast<double>(b) / (1 << 20) << " MiB";
  else if (b >= (1 << 10))
    os << static_cast<double>(b) / (1 << 10) << " KiB";
  else
    os << b << " B";
  return os.str();
}

}  // namespace

std::string CappedLogText(const std::string& text) {
  if (text.size() <= kMaxCopiedTextBytes) return text;
  size_t keep = kMaxCopiedTextBytes;
  // Back to a character's first byte (not a 10xxxxxx continuation byte).
  while (keep > kMaxCopiedTextBytes - 3 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
  return text.substr(0, keep) + "… [" + std::to_string(text.size() - keep) + " more bytes not copied]";
}

std::string DescribeImport(const RecordedApplication& app, const ImportedScenario& out,
                           const std::string& what, const ImportedCluster& cluster) {
  std::ostringstream desc;
  desc << "Imported from " << std::filesystem::path(app.path).filename().string() << ": app " << app.app_id;
  if (!app.app_name.empty()) desc << " (" << CappedLogText(app.app_name) << ")";
  desc << ", Spark " << app.spark_version.value_or("unknown") << ", " << what << ". ";
  desc << "Cluster " << cluster.executors << " x " << cluster.cores
       << " cores (max concurrent executors x cores"
       << (cluster.windowed ? " during the " + out.selection + "; application peak " +
                                  std::to_string(app.max_concurrent_executors) + " executors"
                            : "")
       << (app.local_mode ? ", local mode" : "") << "). ";
  int64_t shuffle_total = 0;
  int observed = 0, reconstructed = 0;
  for (const auto& e : out.exchanges) {
    shuffle_total += e.shuffle_bytes;
    observed += e.partition_sizes_observed ? 1 : 0;
    reconstructed += e.partition_sizes_reconstructed ? 1 : 0;
  }
  desc << out.exchanges.size() << " exchange(s), " << FormatBytes(shuffle_total)
       << " shuffled; map-output row sums exact from ShuffleMapTask Shuffle Bytes Written";
  desc << "; per-reducer sizes observed for " << observed << " of " << out.exchanges.size();
  if (reconstructed > 0) {
    desc << ", reconstructed for " << reconstructed
         << " from their AQE reads' partition data sizes and task reads (estimated)";
  }
  desc << ". ";
  std::vector<std::string> recorded;
  for (const auto& e : out.exchanges) {
    if (e.recorded_read_partitions) {
      recorded.push_back(e.id + " read " + e.recorded_read_kind + " " + std::to_string(e.num_partitions) +
                         " -> " + std::to_string(*e.recorded_read_partitions) + " partitions");
    }
  }
  for (const auto& j : out.joins) {
    if (j.recorded_strategy != j.strategy)
      recorded.push_back(j.id + " " + j.strategy + " -> " + j.recorded_strategy);
    if (j.recorded_skew_join) recorded.push_back(j.id + " skew join");
  }
  if (!recorded.empty()) {
    desc << "Spark's AQE did: ";
    for (size_t i = 0; i < recorded.size(); ++i) desc << (i ? "; " : "") << recorded[i];
    desc << ". ";
  }
  desc << "Values listed in \"estimated\" were derived, not read.";
  return desc.str();
}

}  // namespace aqesim::eventlog
