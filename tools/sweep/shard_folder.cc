#include "tools/sweep/shard_folder.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>

namespace aqesim::sweep {

namespace {

namespace fs = std::filesystem;

const char* Extension(OutputFormat format) { return format == OutputFormat::kCsv ? "csv" : "json"; }

// Digits only (no sign, no spaces), at most INT_MAX.
std::optional<int> ParseDigits(const std::string& s) {
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  int v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// Finished points recorded in a shard's journal (its lines after the header); 0 without one.
size_t JournalPoints(const fs::path& journal) {
  std::ifstream in(journal, std::ios::binary);
  if (!in) return 0;
  size_t lines = 0;
  for (std::string line; std::getline(in, line);) lines += line.empty() ? 0 : 1;
  return lines > 0 ? lines - 1 : 0;
}

std::string ListOf(const std::vector<int>& ks) {
  std::string out;
  for (size_t i = 0; i < ks.size() && i < 10; ++i) out += (i ? ", " : "") + std::to_string(ks[i]);
  if (ks.size() > 10) out += ", ... (" + std::to_string(ks.size()) + " in all)";
  return out;
}

}  // namespace

std::string ShardFileName(const Shard& shard, OutputFormat format) {
  std::string k = std::to_string(shard.k);
  const std::string n = std::to_string(shard.n);
  if (k.size() < n.size()) k.insert(0, n.size() - k.size(), '0');
  return "shard-" + k + "-of-" + n + "." + Extension(format);
}

std::optional<ShardFileNameParts> ParseShardFileName(const std::string& file_name) {
  const std::string prefix = "shard-", middle = "-of-";
  if (file_name.rfind(prefix, 0) != 0) return std::nullopt;
  const size_t of = file_name.find(middle, prefix.size());
  const size_t dot = file_name.rfind('.');
  if (of == std::string::npos || dot == std::string::npos || dot < of) return std::nullopt;
  const std::string ext = file_name.substr(dot + 1);
  ShardFileNameParts parts;
  if (ext == "csv")
    parts.format = OutputFormat::kCsv;
  else if (ext == "json")
    parts.format = OutputFormat::kJson;
  else
    return std::nullopt;
  const std::optional<int> k = ParseDigits(file_name.substr(prefix.size(), of - prefix.size()));
  const std::optional<int> n = ParseDigits(file_name.substr(of + middle.size(), dot - of - middle.size()));
  if (!k || !n) return std::nullopt;
  parts.k = *k;
  parts.n = *n;
  return parts;
}

ShardFolderScan ScanShardFolder(const std::string& folder, OutputFormat format) {
  ShardFolderScan scan;
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  if (ec) {
    scan.errors.push_back(folder + ": cannot read the folder: " + ec.message());
    return scan;
  }
  // Sorted by name, so that messages do not depend on the directory's order.
  std::map<std::string, ShardFileNameParts> found;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::optional<ShardFileNameParts> parts = ParseShardFileName(name);
    if (!parts || parts->format != format || !fs::is_regular_file(it->path(), ec)) continue;
    found.emplace(name, *parts);
  }
  if (ec) scan.errors.push_back(folder + ": cannot read the folder: " + ec.message());
  std::map<int, std::string> by_k;
  std::string count_from;
  for (const auto& [name, parts] : found) {
    const std::string path = (fs::path(folder) / name).string();
    if (parts.n < 1 || parts.k < 1 || parts.k > parts.n) {
      scan.errors.push_back(path + ": shard " + std::to_string(parts.k) + " of " + std::to_string(parts.n) +
                            " is outside 1.." + std::to_string(parts.n));
      continue;
    }
    if (scan.count == 0) {
      scan.count = parts.n;
      count_from = name;
    } else if (parts.n != scan.count) {
      scan.errors.push_back(folder + ": " + count_from + " and " + name + " belong to sweeps of " +
                            std::to_string(scan.count) + " and " + std::to_string(parts.n) +
                            " shards: keep one sweep per folder");
      continue;
    }
    if (const auto [at, inserted] = by_k.emplace(parts.k, name); !inserted) {
      scan.errors.push_back(folder + ": shard " + std::to_string(parts.k) + " of " + std::to_string(parts.n) +
                            " is there twice: " + at->second + " and " + name);
      continue;
    }
    scan.shards.push_back({path, Shard{parts.k, parts.n}});
  }
  std::sort(scan.shards.begin(), scan.shards.end(),
            [](const FolderShard& a, const FolderShard& b) { return a.shard.k < b.shard.k; });
  for (int k = 1; k <= scan.count; ++k) {
    if (!by_k.count(k)) scan.missing.push_back(k);
  }
  return scan;
}

std::string DescribeMissingShards(const ShardFolderScan& scan, const std::string& folder,
                                  OutputFormat format) {
  if (scan.count == 0) {
    std::string line = folder + ": no shard output (shard-K-of-N." + Extension(format) + ") in the folder";
    const OutputFormat other = format == OutputFormat::kCsv ? OutputFormat::kJson : OutputFormat::kCsv;
    const ShardFolderScan other_scan = ScanShardFolder(folder, other);
    if (!other_scan.shards.empty())
      line += std::string("; it holds .") + Extension(other) + " shards: merge into a ." + Extension(other) +
              " output";
    return line;
  }
  if (scan.missing.empty()) return "";
  std::string line =
      folder + ": shards missing: " + ListOf(scan.missing) + " of " + std::to_string(scan.count);
  std::string journals;
  for (size_t i = 0; i < scan.missing.size() && i < 10; ++i) {
    const std::string name = ShardFileName(Shard{scan.missing[i], scan.count}, format) + ".journal";
    if (!fs::exists(fs::path(folder) / name)) continue;
    journals += (journals.empty() ? "" : ", ") + name + " holds " +
                std::to_string(JournalPoints(fs::path(folder) / name)) + " finished point(s)";
  }
  line += " (their array elements did not finish: re-run them";
  line += journals.empty() ? ")" : "; they resume from their journals: " + journals + ")";
  return line;
}

}  // namespace aqesim::sweep
