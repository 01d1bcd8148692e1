#include "tools/eventlog/scenario_import.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <unordered_map>

#include "models/conf/property_value.h"
#include "sim/units.h"
#include "tools/eventlog/coalesced_read_sizes.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

constexpr int kDefaultShufflePartitions = 200;

/// Configuration keys copied from `Spark Properties` into the scenario's conf.
bool IsImportedConfKey(const std::string& key) {
  static const char* kExact[] = {
      "spark.sql.shuffle.partitions",
      "spark.sql.autoBroadcastJoinThreshold",
      "spark.sql.files.maxPartitionBytes",
      "spark.sql.files.openCostInBytes",
      "spark.sql.join.preferSortMergeJoin",
      "spark.sql.leafNodeDefaultParallelism",
      "spark.default.parallelism",
      "spark.shuffle.minNumPartitionsToHighlyCompress",
      "spark.shuffle.accurateBlockThreshold",
      "spark.shuffle.push.enabled",
      "spark.sql.shuffledHashJoinFactor",
      "spark.shuffle.compress",
      "spark.io.compression.codec",
      "spark.locality.wait",
      "spark.locality.wait.node",
      "spark.shuffle.reduceLocality.enabled",
  };
  for (const char* k : kExact) {
    if (key == k) return true;
  }
  return key.rfind("spark.sql.adaptive.", 0) == 0;
}

std::string BaseName(const std::string& node_name) { return node_name.substr(0, node_name.find('(')); }

bool IsSubqueryNode(const std::string& base) {
  return base == "Subquery" || base == "SubqueryBroadcast" || base == "ReusedSubquery" ||
         base == "SubqueryAdaptiveBroadcast" || base == "SubqueryExec";
}
bool IsJoin(const std::string& base) {
  return base == "SortMergeJoin" || base == "ShuffledHashJoin" || base == "BroadcastHashJoin" ||
         base == "BroadcastNestedLoopJoin" || base == "CartesianProduct";
}
bool IsAggregate(const std::string& base) {
  return base == "HashAggregate" || base == "SortAggregate" || base == "ObjectHashAggregate";
}
bool IsExchange(const std::string& base) { return base == "Exchange" || base == "ShuffleExchange"; }

std::vector<const SqlPlanNode*> MainChildren(const SqlPlanNode& n) {
  std::vector<const SqlPlanNode*> out;
  for (const auto& c : n.children) {
    if (!IsSubqueryNode(BaseName(c.node_name))) out.push_back(&c);
  }
  return out;
}

std::string JoinTypeOf(const std::string& simple, std::vector<std::string>* notes) {
  static const std::pair<const char*, const char*> kTypes[] = {
      {", Inner", "Inner"},           {", Cross", "Cross"},           {", LeftOuter", "LeftOuter"},
      {", RightOuter", "RightOuter"}, {", FullOuter", "FullOuter"},   {", LeftSemi", "LeftSemi"},
      {", LeftAnti", "LeftAnti"},     {", ExistenceJoin", "LeftSemi"}};
  size_t best = std::string::npos;
  std::string type = "Inner";
  for (const auto& [needle, name] : kTypes) {
    const size_t pos = simple.find(needle);
    if (pos != std::string::npos && pos < best) {
      best = pos;
      type = name;
    }
  }
  if (best == std::string::npos) notes->push_back("join type not found in \"" + simple + "\", assumed Inner");
  if (simple.find(", ExistenceJoin") == best && best != std::string::npos) {
    notes->push_back("ExistenceJoin imported as LeftSemi");
  }
  return type;
}

/// Partition count of "Exchange hashpartitioning(a#1, 200), ..." / "SinglePartition" /
/// "RoundRobinPartitioning(8)" / "rangepartitioning(..., 200)".
std::optional<int> ParsePartitionCount(const std::string& simple) {
  if (simple.find("SinglePartition") != std::string::npos) return 1;
  const size_t open = simple.find('(');
  if (open == std::string::npos) return std::nullopt;
  // The partitioning expression ends at the ')' matching its '('.
  int depth = 0;
  size_t close = std::string::npos;
  for (size_t i = open; i < simple.size(); ++i) {
    if (simple[i] == '(') ++depth;
    if (simple[i] == ')' && --depth == 0) {
      close = i;
      break;
    }
  }
  if (close == std::string::npos) return std::nullopt;
  size_t end = close;
  size_t begin = end;
  while (begin > open && std::isdigit(static_cast<unsigned char>(simple[begin - 1]))) --begin;
  if (begin == end) return std::nullopt;
  return ParseInt(std::string_view(simple).substr(begin, end - begin));
}

std::string ParseOrigin(const std::string& simple) {
  for (const char* o : {"REPARTITION_BY_COL", "REPARTITION_BY_NUM", "REBALANCE_PARTITIONS_BY_NONE",
                        "REBALANCE_PARTITIONS_BY_COL", "ENSURE_REQUIREMENTS"}) {
    if (simple.find(o) != std::string::npos) return o;
  }
  return "ENSURE_REQUIREMENTS";
}

/// Integer vector scaled to `target` total, keeping proportions (largest remainder).
std::vector<int64_t> ScaleToTotal(const std::vector<int64_t>& v, int64_t target) {
  const long double total = std::accumulate(v.begin(), v.end(), 0.0L);
  std::vector<int64_t> out(v.size(), 0);
  if (v.empty() || total <= 0) {
    if (!out.empty()) {
      for (size_t i = 0; i < out.size(); ++i) out[i] = target / static_cast<int64_t>(out.size());
      out[0] += target - std::accumulate(out.begin(), out.end(), int64_t{0});
    }
    return out;
  }
  std::vector<std::pair<long double, size_t>> rem;
  int64_t assigned = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const long double exact = static_cast<long double>(v[i]) * target / total;
    out[i] = static_cast<int64_t>(exact);
    assigned += out[i];
    rem.emplace_back(exact - out[i], i);
  }
  std::sort(rem.begin(), rem.end(), [](auto& a, auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  for (size_t k = 0; assigned < target && k < rem.size(); ++k, ++assigned) ++out[rem[k].second];
  return out;
}

/// Sum of byte counts, saturating at the int64 limits (a corrupt log must not wrap it).
int64_t Sum(const std::vector<int64_t>& v) {
  int64_t total = 0;
  for (int64_t x : v) total = SaturatingAdd(total, x);
  return total;
}

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

/// State shared by the SQL and RDD importers.
class Importer {
 public:
  Importer(const RecordedApplication& app, std::vector<std::string>* warnings, ImportedScenario* out)
      : app_(app), warnings_(warnings), out_(out) {}

  void Estimated(const std::string& pointer) { out_->estimated.push_back(pointer); }
  std::string NextId(const char* prefix) { return prefix + std::to_string(++counters_[prefix]); }

  /// Per-reducer bytes of a consuming stage: task Index -> bytes, first success per index;
  /// `ids` are SQL metric accumulator ids to sum (empty: the task's shuffle read metrics).
  std::vector<int64_t> ReadBytesByIndex(const RecordedStage& st, const std::set<int64_t>& ids) const {
    std::vector<int64_t> out(static_cast<size_t>(std::max(st.num_tasks, 0)), 0);
    std::set<int> seen;
    for (const RecordedTask& t : st.tasks) {
      if (!t.successful || t.index < 0 || static_cast<size_t>(t.index) >= out.size()) continue;
      if (!seen.insert(t.index).second) continue;
      if (ids.empty()) {
        out[t.index] = t.shuffle_bytes_read();
      } else {
        for (const auto& [id, v] : t.sql_metric_updates) {
          if (ids.count(id)) out[t.index] += v;
        }
      }
    }
    return out;
  }

  /// Bytes each task index of `st` read from storage (Input Metrics, first success per
  /// index); empty when an index has no successful attempt or nothing was read.
  static std::vector<int64_t> InputBytesByIndex(const RecordedStage& st) {
    std::vector<int64_t> out(static_cast<size_t>(std::max(st.num_tasks, 0)), 0);
    std::vector<bool> seen(out.size(), false);
    int64_t total = 0;
    for (const RecordedTask& t : st.tasks) {
      if (!t.successful || t.index < 0 || static_cast<size_t>(t.index) >= out.size() || seen[t.index])
        continue;
      seen[t.index] = true;
      out[t.index] = t.input_bytes;
      total += t.input_bytes;
    }
    if (out.empty() || total <= 0 || std::find(seen.begin(), seen.end(), false) != seen.end()) return {};
    return out;
  }

  /// A scan's `bytes`, `tasks` and, when the stage's tasks read different amounts, exact
  /// per-task `taskBytes` (a skewed scan stage is then reproduced task by task).
  static void SetScanTaskBytes(const RecordedStage& st, json* node) {
    std::vector<int64_t> per_task = InputBytesByIndex(st);
    if (per_task.empty()) return;
    const auto [lo, hi] = std::minmax_element(per_task.begin(), per_task.end());
    (*node)["bytes"] = std::accumulate(per_task.begin(), per_task.end(), int64_t{0});
    (*node)["tasks"] = static_cast<int64_t>(per_task.size());
    if (*hi - *lo > *hi / 100) (*node)["taskBytes"] = std::move(per_task);  // > 1% apart
  }

  /// Rows as planned without AQE from a stage that ran `n` coalesced tasks over `planned`
  /// original partitions: task i covers a contiguous range whose length is proportional to
  /// the bytes it read (coalescing aims at equal sizes), its written bytes split evenly.
  static std::vector<int64_t> ExpandRows(const RecordedStage& st, int planned) {
    const size_t n = st.map_output_bytes.size();
    std::vector<int64_t> weights(n, 1);
    std::set<int> seen;
    for (const RecordedTask& t : st.tasks) {
      if (t.successful && t.index >= 0 && static_cast<size_t>(t.index) < n && seen.insert(t.index).second) {
        weights[t.index] = std::max<int64_t>(t.shuffle_bytes_read(), 1);
      }
    }
    std::vector<int64_t> lengths(n, 0);
    if (static_cast<int>(n) <= planned) {
      // Every task covers at least one partition; the rest in proportion to the weights.
      std::vector<int64_t> extra = ScaleToTotal(weights, planned - static_cast<int64_t>(n));
      for (size_t i = 0; i < n; ++i) lengths[i] = 1 + extra[i];
    } else {
      lengths = ScaleToTotal(weights, planned);
    }
    std::vector<int64_t> rows;
    rows.reserve(planned);
    for (size_t i = 0; i < n; ++i) {
      if (lengths[i] == 0) continue;
      const std::vector<int64_t> part =
          ScaleToTotal(std::vector<int64_t>(lengths[i], 1), st.map_output_bytes[i]);
      rows.insert(rows.end(), part.begin(), part.end());
    }
    // Tasks with no range (more tasks than partitions): add their bytes to the last row.
    int64_t lost = Sum(st.map_output_bytes) - Sum(rows);
    if (!rows.empty()) rows.back() += lost;
    return rows;
  }

  /// Fills an exchange's sizes from its map stage and (when per-reducer sizes are
  /// observable) its reduce stage.
  /// What an AQE coalesced read over an exchange recorded (see coalesced_read_sizes.h).
  struct CoalescedRead {
    std::vector<int64_t> driver_bytes;           // this shuffle's "partition data size" per spec
    std::vector<int64_t> combined_driver_bytes;  // summed over the shuffles coalesced together
    std::vector<int64_t> read_bytes;             // bytes each reading task fetched (empty: unknown)
    bool compressed_map_status = true;           // R <= minNumPartitionsToHighlyCompress
  };

  /// Cells above which a reconstructed matrix is written as its marginals instead.
  static constexpr int64_t kMaxMatrixCells = 100000;

  json Sizes(const std::string& ptr, const RecordedStage& map_stage,
             const std::vector<int64_t>* partition_bytes, ImportedExchange* ex, int planned_map_tasks = 0,
             const CoalescedRead* coalesced = nullptr) {
    std::vector<int64_t> map_bytes = map_stage.map_output_bytes;
    if (planned_map_tasks > 0 && planned_map_tasks != static_cast<int>(map_bytes.size())) {
      map_bytes = ExpandRows(map_stage, planned_map_tasks);
      warnings_->push_back("exchange " + ex->id + ": its map stage " + std::to_string(map_stage.stage_id) +
                           " ran " + std::to_string(map_stage.map_output_bytes.size()) +
                           " tasks over AQE-coalesced input; rows spread over the " +
                           std::to_string(planned_map_tasks) + " planned partitions (estimated)");
      Estimated(ptr + (partition_bytes != nullptr && !partition_bytes->empty() ? "/sizes/marginals/mapBytes"
                                                                               : "/sizes/generate/mapBytes"));
    }
    const int64_t total = Sum(map_bytes);
    ex->map_tasks = static_cast<int>(map_bytes.size());
    ex->shuffle_bytes = total;
    json sizes;
    if (partition_bytes != nullptr && !partition_bytes->empty()) {
      std::vector<int64_t> cols = *partition_bytes;
      if (Sum(cols) != total) {
        warnings_->push_back("exchange " + ex->id + ": reduce tasks read " + std::to_string(Sum(cols)) +
                             " bytes but map tasks wrote " + std::to_string(total) +
                             "; per-reducer sizes scaled to the written total");
        cols = ScaleToTotal(cols, total);
        Estimated(ptr + "/sizes/marginals/partitionBytes");
      }
      sizes["marginals"] = {{"mapBytes", map_bytes}, {"partitionBytes", cols}};
      ex->partition_sizes_observed = true;
      if (!map_stage.missing_map_indexes.empty()) Estimated(ptr + "/sizes/marginals/mapBytes");
    } else if (coalesced != nullptr && total > 0 && CoalescedSizes(ptr, map_bytes, *coalesced, ex, &sizes)) {
      // CoalescedSizes listed the reconstructed sizes as estimated.
    } else {
      sizes["generate"] = {{"distribution", "uniform"}, {"mapBytes", map_bytes}};
      Estimated(ptr + "/sizes/generate/distribution");
      if (!map_stage.missing_map_indexes.empty()) Estimated(ptr + "/sizes/generate/mapBytes");
    }
    if (!map_stage.missing_map_indexes.empty()) {
      warnings_->push_back("exchange " + ex->id + ": " +
                           std::to_string(map_stage.missing_map_indexes.size()) + " map tasks of stage " +
                           std::to_string(map_stage.stage_id) +
                           " have no successful TaskEnd; their rows are 0");
    }
    return sizes;
  }

  /// Per-reducer blocks behind a coalesced read (coalesced_read_sizes.h) as `sizes`: a matrix,
  /// or its marginals beyond kMaxMatrixCells. False when the read's specs do not fit the
  /// exchange (then the caller falls back to a uniform estimate).
  bool CoalescedSizes(const std::string& ptr, const std::vector<int64_t>& map_bytes,
                      const CoalescedRead& read, ImportedExchange* ex, json* sizes) {
    const int reducers = ex->num_partitions;
    const std::vector<int> starts = EstimateGroupStarts(read.combined_driver_bytes, reducers);
    if (starts.empty() || starts.size() != read.driver_bytes.size()) return false;
    const int64_t total = Sum(map_bytes);
    std::vector<int64_t> group_bytes = read.read_bytes;
    if (group_bytes.size() != starts.size() || Sum(group_bytes) <= 0) {
      warnings_->push_back("exchange " + ex->id +
                           ": no task read its coalesced partitions; their sizes follow " +
                           "Spark's partition data sizes, scaled to the bytes written");
      group_bytes = ScaleToTotal(read.driver_bytes, total);
    } else if (Sum(group_bytes) != total) {
      warnings_->push_back("exchange " + ex->id + ": its coalesced partitions read " +
                           std::to_string(Sum(group_bytes)) + " bytes but map tasks wrote " +
                           std::to_string(total) + "; scaled to the written total");
      group_bytes = ScaleToTotal(group_bytes, total);
    }
    double ratio = 1.0;
    if (read.compressed_map_status) {
      ratio = EstimateReportedSizeRatio(map_bytes, starts, reducers, group_bytes, read.driver_bytes);
      if (ratio != 1.0) {
        std::ostringstream os;
        os.precision(3);
        os << "exchange " << ex->id << ": Spark's driver saw " << Sum(read.driver_bytes) << " bytes in its "
           << read.driver_bytes.size() << " coalesced partitions, x"
           << static_cast<double>(Sum(read.driver_bytes)) / static_cast<double>(total) << " the " << total
           << " bytes read: outside what MapStatus encoding of the bytes written allows (at most 10% above, "
              "never"
           << " below), so this build's MapStatus reported other sizes (e.g. uncompressed); "
              "reportedSizeRatio "
           << ratio
           << " (estimated: the largest ratio whose MapStatus-encoded blocks stay within Spark's total, "
           << "below the x" << static_cast<double>(Sum(read.driver_bytes)) / static_cast<double>(total)
           << " above since the encoding itself rounds sizes up, by ~5%)";
        warnings_->push_back(os.str());
      }
    }
    ex->reported_size_ratio = ratio;
    const std::vector<std::vector<int64_t>> blocks = ReconstructCoalescedBlocks(
        map_bytes, starts, reducers, group_bytes,
        read.compressed_map_status ? read.driver_bytes : std::vector<int64_t>{}, ratio);
    if (read.compressed_map_status) {
      const std::vector<int64_t> encoded = EncodedGroupBytes(blocks, starts, ratio);
      const int64_t seen = Sum(encoded), recorded = Sum(read.driver_bytes);
      // Within 1% of every recorded size: as close as the encoding steps allow; say nothing.
      int reached = 0;
      for (size_t g = 0; g < encoded.size(); ++g) {
        const long double gap = std::abs(static_cast<long double>(encoded[g]) - read.driver_bytes[g]);
        reached += gap * 100 <= static_cast<long double>(read.driver_bytes[g]) ? 1 : 0;
      }
      if (reached != static_cast<int>(encoded.size())) {
        std::ostringstream os;
        os.precision(3);
        os << "exchange " << ex->id << ": reconstructed blocks come within 1% of Spark's driver size for "
           << reached << " of " << encoded.size() << " coalesced partitions; encoded they total " << seen
           << " bytes where Spark's driver saw " << recorded << " (x"
           << static_cast<double>(recorded) / std::max<int64_t>(seen, 1) << ")";
        warnings_->push_back(os.str());
      }
    }
    if (static_cast<int64_t>(blocks.size()) * reducers <= kMaxMatrixCells) {
      (*sizes)["matrix"] = blocks;
      Estimated(ptr + "/sizes/matrix");
    } else {
      std::vector<int64_t> cols(static_cast<size_t>(reducers), 0);
      for (const auto& row : blocks) {
        for (int r = 0; r < reducers; ++r) cols[r] += row[r];
      }
      (*sizes)["marginals"] = {{"mapBytes", map_bytes}, {"partitionBytes", cols}};
      Estimated(ptr + "/sizes/marginals/partitionBytes");
    }
    ex->partition_sizes_reconstructed = true;
    return true;
  }

 protected:
  const RecordedApplication& app_;
  std::vector<std::string>* warnings_;
  ImportedScenario* out_;
  std::map<std::string, int> counters_;
};

class SqlImporter : public Importer {
 public:
  SqlImporter(const RecordedApplication& app, const RecordedSqlExecution& ex,
              std::vector<std::string>* warnings, ImportedScenario* out)
      : Importer(app, warnings, out), ex_(ex) {
    // Which stages updated which SQL metric (successful tasks of submitted stages of this
    // execution's jobs; the metric ids are unique per application).
    std::set<int> stage_ids;
    for (int job : ex.job_ids) {
      auto it = app.jobs.find(job);
      if (it == app.jobs.end()) continue;
      for (int s : it->second.stage_ids) stage_ids.insert(s);
    }
    for (int s : stage_ids) {
      const RecordedStage* st = app.stage(s);
      if (st == nullptr || !st->submitted) continue;
      out_->stage_ids.push_back(s);
      for (const RecordedTask& t : st->tasks) {
        if (!t.successful) continue;
        for (const auto& [id, v] : t.sql_metric_updates) {
          auto& stages = stages_of_metric_[id];
          if (std::find(stages.begin(), stages.end(), s) == stages.end()) stages.push_back(s);
          metric_totals_[{id, s}] += v;
        }
      }
    }
    // Pre-order index of every plan: normalised simpleString -> nodes in order.
    index_.resize(ex.plans.size());
    for (size_t p = 0; p < ex.plans.size(); ++p) IndexPlan(ex.plans[p], &index_[p]);
    OccurrenceOf(ex.plans.front());
  }

  json Build() {
    ScanPrepass(ex_.plans.front());
    return BuildNode(ex_.plans.front(), "/plan");
  }

 private:
  using PlanIndex = std::unordered_map<std::string, std::vector<const SqlPlanNode*>>;

  static void IndexPlan(const SqlPlanNode& n, PlanIndex* index) {
    (*index)[NormalizeSimpleString(n.simple_string)].push_back(&n);
    for (const auto& c : n.children) IndexPlan(c, index);
  }
  void OccurrenceOf(const SqlPlanNode& root) {
    std::unordered_map<std::string, int> count;
    std::function<void(const SqlPlanNode&)> walk = [&](const SqlPlanNode& n) {
      occurrence_[&n] = count[NormalizeSimpleString(n.simple_string)]++;
      for (const auto& c : n.children) walk(c);
    };
    walk(root);
  }

  bool MetricRan(int64_t id) const { return stages_of_metric_.count(id) > 0; }

  /// The node that actually ran `n` (an initial-plan node): the same node in the latest plan
  /// whose `metric` (or any metric, when empty) was updated by tasks.
  const SqlPlanNode* Twin(const SqlPlanNode& n, const std::string& metric) const {
    auto ran = [&](const SqlPlanNode& c) {
      for (const auto& m : c.metrics) {
        if ((metric.empty() || m.name == metric) && MetricRan(m.accumulator_id)) return true;
      }
      return false;
    };
    const std::string key = NormalizeSimpleString(n.simple_string);
    auto occ = occurrence_.find(&n);
    const int k = occ == occurrence_.end() ? 0 : occ->second;
    for (size_t p = index_.size(); p-- > 0;) {
      auto it = index_[p].find(key);
      if (it == index_[p].end() || static_cast<int>(it->second.size()) <= k) continue;
      if (ran(*it->second[k])) return it->second[k];
    }
    return ran(n) ? &n : nullptr;
  }

  /// The submitted stage that updated metric `id` the most tasks (ties: lowest id).
  const RecordedStage* StageOfMetric(std::optional<int64_t> id,
                                     std::optional<int> exclude = std::nullopt) const {
    if (!id) return nullptr;
    auto it = stages_of_metric_.find(*id);
    if (it == stages_of_metric_.end()) return nullptr;
    const RecordedStage* best = nullptr;
    for (int s : it->second) {
      if (exclude && s == *exclude) continue;
      const RecordedStage* st = app_.stage(s);
      if (st != nullptr && (best == nullptr || st->successful_tasks > best->successful_tasks)) best = st;
    }
    return best;
  }

  int64_t MetricTotal(std::optional<int64_t> id, int stage) const {
    if (!id) return 0;
    auto it = metric_totals_.find({*id, stage});
    return it == metric_totals_.end() ? 0 : it->second;
  }

  int ConfiguredPartitions() const {
    auto get = [&](const char* k) -> std::optional<int> {
      auto it = app_.spark_properties.find(k);
      if (it == app_.spark_properties.end()) return std::nullopt;
      return ParseInt(it->second);
    };
    if (ex_.adaptive()) {
      if (auto n = get("spark.sql.adaptive.coalescePartitions.initialPartitionNum")) return *n;
    }
    return get("spark.sql.shuffle.partitions").value_or(kDefaultShufflePartitions);
  }

  /// Scan leaf -> the stage that ran it; counts scans per stage (to split input bytes).
  void ScanPrepass(const SqlPlanNode& n) {
    const auto kids = MainChildren(n);
    const std::string base = BaseName(n.node_name);
    if (kids.empty() && base != "ReusedExchange") {
      const SqlPlanNode* twin = Twin(n, "");
      std::optional<int64_t> id;
      if (twin != nullptr) {
        for (const auto& m : twin->metrics) {
          if (MetricRan(m.accumulator_id)) {
            id = m.accumulator_id;
            break;
          }
        }
      }
      if (const RecordedStage* st = StageOfMetric(id)) {
        scan_stage_[&n] = st->stage_id;
        ++scans_in_stage_[st->stage_id];
      }
    }
    for (const SqlPlanNode* c : kids) ScanPrepass(*c);
  }

  json BuildNode(const SqlPlanNode& n, const std::string& ptr) {
    const std::string base = BaseName(n.node_name);
    const auto kids = MainChildren(n);
    if (IsExchange(base) && kids.size() == 1) return BuildExchange(n, *kids[0], ptr);
    if (base == "ReusedExchange") return BuildReusedExchange(n, ptr);
    if (IsJoin(base) && kids.size() == 2) return BuildJoin(n, base, *kids[0], *kids[1], ptr);
    if (base == "Union" && kids.size() >= 2) {
      json node = {{"op", "union"}, {"id", NextId("u")}};
      json children = json::array();
      for (size_t i = 0; i < kids.size(); ++i) {
        children.push_back(BuildNode(*kids[i], ptr + "/children/" + std::to_string(i)));
      }
      node["children"] = std::move(children);
      return node;
    }
    if (kids.empty()) return BuildScan(n, ptr);
    if (IsAggregate(base) && kids.size() == 1) {
      // Keep the aggregate that reads a shuffle (the final one); partial aggregates fold
      // into their map stage.
      if (!LeadsToExchange(*kids[0])) return BuildNode(*kids[0], ptr);
      json node = {{"op", "aggregate"}, {"id", NextId("a")}};
      if (n.simple_string.find("keys=[]") != std::string::npos) node["grouped"] = false;
      node["child"] = BuildNode(*kids[0], ptr + "/child");
      return node;
    }
    if (kids.size() == 1) return BuildNode(*kids[0], ptr);
    warnings_->push_back("plan node " + n.node_name + " with " + std::to_string(kids.size()) +
                         " children imported as a union");
    json node = {{"op", "union"}, {"id", NextId("u")}};
    json children = json::array();
    for (size_t i = 0; i < kids.size(); ++i)
      children.push_back(BuildNode(*kids[i], ptr + "/children/" + std::to_string(i)));
    node["children"] = std::move(children);
    return node;
  }

  /// True when `n` imports as an exchange (passing through single-child nodes).
  static bool LeadsToExchange(const SqlPlanNode& n) {
    const std::string base = BaseName(n.node_name);
    if (IsExchange(base) || base == "ReusedExchange") return true;
    const auto kids = MainChildren(n);
    if (kids.size() != 1 || IsJoin(base) || base == "Union" || IsAggregate(base)) return false;
    return LeadsToExchange(*kids[0]);
  }

  json BuildScan(const SqlPlanNode& n, const std::string& ptr) {
    json node = {{"op", "scan"}, {"id", NextId("s")}};
    auto it = scan_stage_.find(&n);
    if (it == scan_stage_.end()) {
      warnings_->push_back("scan \"" + n.simple_string + "\": no stage ran it; bytes and tasks estimated");
      node["bytes"] = 0;
      Estimated(ptr + "/bytes");
      return node;
    }
    const RecordedStage& st = *app_.stage(it->second);
    const int scans = scans_in_stage_[st.stage_id];
    int64_t bytes = st.input_bytes / std::max(scans, 1);
    if (scans > 1) Estimated(ptr + "/bytes");
    if (st.input_bytes == 0) {
      // In-memory or generated input: no Input Metrics. Use what the stage wrote, or what its
      // tasks returned to the driver (a broadcast build's collected rows).
      bytes = std::max({st.shuffle_write_bytes, st.shuffle_read_bytes, st.result_bytes}) / std::max(scans, 1);
      if (scans <= 1) Estimated(ptr + "/bytes");
    }
    node["bytes"] = bytes;
    node["tasks"] = st.num_tasks;
    if (scans == 1 && st.input_bytes > 0) SetScanTaskBytes(st, &node);
    const SqlPlanNode* twin = Twin(n, "number of output rows");
    if (twin != nullptr) {
      if (auto rows_id = twin->MetricId("number of output rows")) {
        node["rows"] = MetricTotal(rows_id, st.stage_id);
      }
    }
    return node;
  }

  json BuildExchange(const SqlPlanNode& n, const SqlPlanNode& child, const std::string& ptr) {
    ImportedExchange ex;
    ex.id = NextId("e");
    ex.pointer = ptr;
    json node = {{"op", "exchange"}, {"id", ex.id}};
    // Exchanges are listed in pre-order (the order of their ids): reserve this one's slot.
    const size_t slot = out_->exchanges.size();
    out_->exchanges.emplace_back();
    const size_t first_child_exchange = slot + 1;
    node["child"] = BuildNode(child, ptr + "/child");
    const std::string origin = ParseOrigin(n.simple_string);
    if (origin != "ENSURE_REQUIREMENTS") node["origin"] = origin;
    const int partitions = ParsePartitionCount(n.simple_string).value_or(ConfiguredPartitions());
    ex.num_partitions = partitions;
    if (n.simple_string.find("SinglePartition") != std::string::npos) {
      node["numPartitions"] = 1;
      node["singlePartition"] = true;
    } else if (origin == "REPARTITION_BY_NUM" || partitions != ConfiguredPartitions()) {
      node["numPartitions"] = partitions;
    }
    const SqlPlanNode* twin = Twin(n, "shuffle bytes written");
    const RecordedStage* map_stage = twin ? StageOfMetric(twin->MetricId("shuffle bytes written")) : nullptr;
    if (map_stage == nullptr) {
      warnings_->push_back("exchange " + ex.id + " (\"" + NormalizeSimpleString(n.simple_string) +
                           "\"): no stage wrote it; sizes follow the child");
      Estimated(ptr + "/sizes");
      out_->exchanges[slot] = std::move(ex);
      return node;
    }
    ex.map_stage_id = map_stage->stage_id;
    // The reading stage: tasks updating the exchange's read metrics.
    std::set<int64_t> read_ids;
    for (const char* m : {"remote bytes read", "local bytes read"}) {
      if (auto id = twin->MetricId(m)) read_ids.insert(*id);
    }
    const RecordedStage* read_stage = nullptr;
    for (int64_t id : read_ids) {
      if ((read_stage = StageOfMetric(id, map_stage->stage_id)) != nullptr) break;
    }
    if (read_stage == nullptr)
      read_stage = StageOfMetric(twin->MetricId("records read"), map_stage->stage_id);
    if (read_stage != nullptr) ex.read_stage_id = read_stage->stage_id;
    // AQE reader over it in the final plan?
    const RecordedShuffleRead* reader = nullptr;
    const auto write_id = twin->MetricId("shuffle bytes written");
    for (const auto& r : app_.shuffle_reads) {
      if (r.execution_id == ex_.execution_id && r.exchange_write_metric_id == write_id) reader = &r;
    }
    if (reader != nullptr) {
      ex.recorded_read_partitions = reader->num_partitions;
      const std::string prefix = reader->node_name + " ";
      ex.recorded_read_kind =
          reader->simple_string.rfind(prefix, 0) == 0 ? reader->simple_string.substr(prefix.size()) : "";
    }
    std::vector<int64_t> cols;
    const bool observable = partitions == 1 || (reader == nullptr && read_stage != nullptr &&
                                                read_stage->num_tasks == partitions);
    if (observable) {
      if (partitions == 1) {
        cols = {Sum(map_stage->map_output_bytes)};
      } else {
        cols = ReadBytesByIndex(*read_stage, read_ids);
      }
    }
    // Rows are the map tasks as planned without AQE: a stage whose input was coalesced by an
    // AQE reader ran fewer tasks than the input exchange's partitions.
    int planned_map_tasks = 0;
    for (size_t i = first_child_exchange; i < out_->exchanges.size(); ++i) {
      const ImportedExchange& below = out_->exchanges[i];
      if (below.read_stage_id == map_stage->stage_id && below.recorded_read_partitions &&
          below.num_partitions != map_stage->num_tasks) {
        planned_map_tasks = below.num_partitions;
      }
    }
    std::optional<CoalescedRead> coalesced;
    if (!observable && reader != nullptr)
      coalesced = CoalescedReadOf(*reader, partitions, map_stage->stage_id, read_ids);
    node["sizes"] = Sizes(ptr, *map_stage, observable ? &cols : nullptr, &ex, planned_map_tasks,
                          coalesced ? &*coalesced : nullptr);
    if (ex.reported_size_ratio != 1.0) {
      node["reportedSizeRatio"] = ex.reported_size_ratio;
      Estimated(ptr + "/reportedSizeRatio");
    }
    if (auto ds = twin->MetricId("data size")) {
      const int64_t data_size = MetricTotal(ds, map_stage->stage_id);
      if (data_size > 0) {
        node["dataSizeBytes"] = data_size;
        ex.data_size_bytes = data_size;
      }
    }
    out_->exchanges[slot] = std::move(ex);
    return node;
  }

  /// The exchange node (any plan of the execution) whose "shuffle bytes written" is `id`.
  const SqlPlanNode* ExchangeByWriteMetric(int64_t id) const {
    const SqlPlanNode* found = nullptr;
    std::function<void(const SqlPlanNode&)> walk = [&](const SqlPlanNode& n) {
      if (found != nullptr) return;
      if (IsExchange(BaseName(n.node_name)) && n.MetricId("shuffle bytes written") == id) {
        found = &n;
        return;
      }
      for (const auto& c : n.children) walk(c);
    };
    for (auto it = ex_.plans.rbegin(); it != ex_.plans.rend() && found == nullptr; ++it) walk(*it);
    return found;
  }

  /// The stage that read the exchange writing metric `write_id`, nullptr if none ran.
  const RecordedStage* ReadStageOfWriteMetric(std::optional<int64_t> write_id) const {
    if (!write_id) return nullptr;
    const SqlPlanNode* exchange = ExchangeByWriteMetric(*write_id);
    const RecordedStage* map_stage = StageOfMetric(write_id);
    if (exchange == nullptr || map_stage == nullptr) return nullptr;
    for (const char* m : {"remote bytes read", "local bytes read", "records read"}) {
      if (const RecordedStage* st = StageOfMetric(exchange->MetricId(m), map_stage->stage_id)) return st;
    }
    return nullptr;
  }

  /// What a purely coalescing AQE read over this exchange recorded, when its specs can be
  /// laid over the exchange's `partitions` reducers: one "partition data size" per spec, fewer
  /// specs than reducers. Shuffles read through coalesced specs by the same stage, with as
  /// many specs, were coalesced together (both sides of a join): their sizes are summed to
  /// place the shared spec boundaries.
  std::optional<CoalescedRead> CoalescedReadOf(const RecordedShuffleRead& reader, int partitions,
                                               int map_stage_id, const std::set<int64_t>& read_ids) const {
    const size_t specs = reader.partition_data_sizes_bytes.size();
    if (!reader.coalesced || reader.skewed || reader.local || specs == 0 ||
        static_cast<int64_t>(specs) >= partitions ||
        (reader.num_partitions && *reader.num_partitions != static_cast<int64_t>(specs))) {
      return std::nullopt;
    }
    CoalescedRead out;
    out.driver_bytes = reader.partition_data_sizes_bytes;
    out.combined_driver_bytes = out.driver_bytes;
    const RecordedStage* read_stage = ReadStageOfWriteMetric(reader.exchange_write_metric_id);
    if (read_stage != nullptr) {
      for (const auto& other : app_.shuffle_reads) {
        if (&other == &reader || other.execution_id != ex_.execution_id || !other.coalesced || other.skewed ||
            other.local || other.partition_data_sizes_bytes.size() != specs ||
            ReadStageOfWriteMetric(other.exchange_write_metric_id) != read_stage) {
          continue;
        }
        for (size_t i = 0; i < specs; ++i)
          out.combined_driver_bytes[i] += other.partition_data_sizes_bytes[i];
      }
      // This exchange's own read metrics (a join's stage reads two shuffles).
      if (!read_ids.empty() && read_stage->num_tasks == static_cast<int>(specs) &&
          read_stage->stage_id != map_stage_id) {
        out.read_bytes = ReadBytesByIndex(*read_stage, read_ids);
      }
    }
    int highly_compress_above = 2000;  // spark.shuffle.minNumPartitionsToHighlyCompress
    if (auto it = app_.spark_properties.find("spark.shuffle.minNumPartitionsToHighlyCompress");
        it != app_.spark_properties.end()) {
      highly_compress_above = ParseInt(it->second).value_or(highly_compress_above);
    }
    out.compressed_map_status = partitions <= highly_compress_above;
    return out;
  }

  json BuildReusedExchange(const SqlPlanNode& n, const std::string& ptr) {
    // "ReusedExchange [a#1], Exchange hashpartitioning(...)": import the reused exchange again.
    const std::string simple = NormalizeSimpleString(n.simple_string);
    const size_t pos = simple.find("], Exchange ");
    if (pos != std::string::npos) {
      const std::string target = simple.substr(pos + 3);
      auto it = index_.front().find(target);
      if (it != index_.front().end() && !it->second.empty()) {
        warnings_->push_back("ReusedExchange of \"" + target +
                             "\" imported as a second copy (Spark ran it once)");
        const auto kids = MainChildren(*it->second.front());
        if (kids.size() == 1) return BuildExchange(*it->second.front(), *kids[0], ptr);
      }
    }
    warnings_->push_back("ReusedExchange \"" + simple + "\": original not found; imported as a scan");
    return BuildScan(n, ptr);
  }

  json BuildJoin(const SqlPlanNode& n, const std::string& base, const SqlPlanNode& left,
                 const SqlPlanNode& right, const std::string& ptr) {
    ImportedJoin j;
    j.id = NextId("j");
    j.pointer = ptr;
    j.strategy = base;
    std::vector<std::string> notes;
    json node = {
        {"op", "join"}, {"id", j.id}, {"strategy", base}, {"joinType", JoinTypeOf(n.simple_string, &notes)}};
    for (const auto& note : notes) warnings_->push_back("join " + j.id + ": " + note);
    if (base == "BroadcastHashJoin" || base == "ShuffledHashJoin" || base == "BroadcastNestedLoopJoin") {
      if (n.simple_string.find("BuildLeft") != std::string::npos) node["buildSide"] = "BuildLeft";
      if (n.simple_string.find("BuildRight") != std::string::npos) node["buildSide"] = "BuildRight";
    }
    node["left"] = BuildNode(left, ptr + "/left");
    node["right"] = BuildNode(right, ptr + "/right");
    if (base == "BroadcastHashJoin" || base == "BroadcastNestedLoopJoin") {
      j.build_stage_id =
          StageOfScanBelow(node.value("buildSide", "BuildRight") == "BuildLeft" ? left : right);
    }
    j.recorded_strategy = base;
    // The recorded final strategy: the join with the same keys in the final plan.
    const std::string key_prefix = NormalizeSimpleString(n.simple_string);
    for (const auto& rj : app_.joins) {
      if (rj.execution_id != ex_.execution_id || rj.initial_strategy != base) continue;
      if (key_prefix.find(rj.key) == std::string::npos || used_joins_.count(&rj)) continue;
      used_joins_.insert(&rj);
      j.recorded_strategy = rj.final_strategy;
      j.recorded_skew_join = rj.is_skew_join;
      break;
    }
    out_->joins.push_back(std::move(j));
    return node;
  }

  /// The stage that ran the first scan under `n` reached without crossing an exchange (a
  /// broadcast's build side: the stage that collected it); nullopt when none ran one.
  std::optional<int> StageOfScanBelow(const SqlPlanNode& n) const {
    if (IsExchange(BaseName(n.node_name))) return std::nullopt;
    if (auto it = scan_stage_.find(&n); it != scan_stage_.end()) return it->second;
    for (const SqlPlanNode* kid : MainChildren(n)) {
      if (auto s = StageOfScanBelow(*kid)) return s;
    }
    return std::nullopt;
  }

  const RecordedSqlExecution& ex_;
  std::unordered_map<int64_t, std::vector<int>> stages_of_metric_;
  std::map<std::pair<int64_t, int>, int64_t> metric_totals_;
  std::vector<PlanIndex> index_;
  std::unordered_map<const SqlPlanNode*, int> occurrence_;
  std::unordered_map<const SqlPlanNode*, int> scan_stage_;
  std::map<int, int> scans_in_stage_;
  std::set<const RecordedJoin*> used_joins_;
};

class RddImporter : public Importer {
 public:
  using Importer::Importer;

  json Build(const RecordedJob& job) {
    // The job's last stage: the one no other stage of the job names as a parent.
    std::set<int> parents;
    for (int s : job.stage_ids) {
      if (const RecordedStage* st = app_.stage(s))
        parents.insert(st->parent_ids.begin(), st->parent_ids.end());
    }
    int result = -1;
    for (int s : job.stage_ids) {
      if (!parents.count(s)) result = std::max(result, s);
    }
    if (result < 0) throw EventLogError("job " + std::to_string(job.job_id) + " has no result stage");
    for (int s : job.stage_ids) {
      const RecordedStage* st = app_.stage(s);
      if (st != nullptr && st->submitted) out_->stage_ids.push_back(s);
    }
    std::sort(out_->stage_ids.begin(), out_->stage_ids.end());
    return BuildStage(result, "/plan");
  }

 private:
  json BuildStage(int stage_id, const std::string& ptr) {
    const RecordedStage* st = app_.executed_stage(stage_id);
    if (st == nullptr) throw EventLogError("stage " + std::to_string(stage_id) + " never ran");
    if (st->parent_ids.empty()) {
      json node = {{"op", "scan"}, {"id", NextId("s")}, {"bytes", st->input_bytes}, {"tasks", st->num_tasks}};
      if (st->input_bytes == 0) {  // generated input: what it wrote or returned (as in BuildScan)
        node["bytes"] = std::max(st->shuffle_write_bytes, st->result_bytes);
        Estimated(ptr + "/bytes");
      } else {
        SetScanTaskBytes(*st, &node);
      }
      return node;
    }
    const size_t n = st->parent_ids.size();
    auto exchange = [&](int parent, const std::string& eptr) {
      const RecordedStage* ps = app_.executed_stage(parent);
      ImportedExchange ex;
      ex.id = NextId("e");
      ex.pointer = eptr;
      ex.read_stage_id = st->stage_id;
      ex.num_partitions = st->num_tasks;
      json node = {{"op", "exchange"}, {"id", ex.id}, {"numPartitions", st->num_tasks}};
      const size_t slot = out_->exchanges.size();  // pre-order, like the ids
      out_->exchanges.emplace_back();
      node["child"] = BuildStage(parent, eptr + "/child");
      if (ps == nullptr) {
        Estimated(eptr + "/sizes");
        out_->exchanges[slot] = ex;
        return node;
      }
      ex.map_stage_id = ps->stage_id;
      // One shuffle read: each reduce task's read bytes are its reducer's column sum.
      std::vector<int64_t> cols;
      if (n == 1) cols = ReadBytesByIndex(*st, {});
      node["sizes"] = Sizes(eptr, *ps, n == 1 ? &cols : nullptr, &ex);
      out_->exchanges[slot] = ex;
      return node;
    };
    if (n == 1) {
      json node = {{"op", "aggregate"}, {"id", NextId("a")}};
      node["child"] = exchange(st->parent_ids[0], ptr + "/child");
      return node;
    }
    if (n == 2) {
      ImportedJoin j;
      j.id = NextId("j");
      j.pointer = ptr;
      j.strategy = j.recorded_strategy = "SortMergeJoin";
      json node = {{"op", "join"}, {"id", j.id}, {"strategy", "SortMergeJoin"}, {"joinType", "Inner"}};
      Estimated(ptr + "/strategy");
      Estimated(ptr + "/joinType");
      node["left"] = exchange(st->parent_ids[0], ptr + "/left");
      node["right"] = exchange(st->parent_ids[1], ptr + "/right");
      out_->joins.push_back(j);
      return node;
    }
    json node = {{"op", "union"}, {"id", NextId("u")}};
    json children = json::array();
    for (size_t i = 0; i < n; ++i)
      children.push_back(exchange(st->parent_ids[i], ptr + "/children/" + std::to_string(i)));
    node["children"] = std::move(children);
    return node;
  }
};

/// Most executors (other than the driver) alive at once during [from_ms, to_ms]; 0 when none.
int MaxConcurrentExecutorsDuring(const RecordedApplication& app, int64_t from_ms, int64_t to_ms) {
  std::vector<std::pair<int64_t, int>> timeline;  // (time, +1/-1); removals first at ties
  for (const auto& ex : app.executors) {
    if (ex.executor_id == "driver" || ex.added_time_ms > to_ms) continue;
    if (ex.removed_time_ms && *ex.removed_time_ms < from_ms) continue;
    timeline.emplace_back(std::max(ex.added_time_ms, from_ms), +1);
    if (ex.removed_time_ms && *ex.removed_time_ms <= to_ms) timeline.emplace_back(*ex.removed_time_ms, -1);
  }
  std::sort(timeline.begin(), timeline.end());
  int live = 0, peak = 0;
  for (const auto& [t, d] : timeline) {
    live += d;
    peak = std::max(peak, live);
  }
  return peak;
}

std::optional<std::string> Property(const RecordedApplication& app, const char* key) {
  auto it = app.spark_properties.find(key);
  if (it == app.spark_properties.end()) return std::nullopt;
  return it->second;
}

/// True when `executor_id` finished a task at or before `ms` (its JVM is warm from then on).
bool RanTaskBefore(const RecordedApplication& app, const std::string& executor_id, int64_t ms) {
  for (const auto& [id, st] : app.stages) {
    for (const RecordedTask& t : st.tasks) {
      if (t.executor_id == executor_id && t.finish_time_ms <= ms) return true;
    }
  }
  return false;
}

/// Executors alive at `ms` (the driver in local mode) that had finished a task by then: the
/// scenario's `warmExecutors` for a static cluster. With `execution`, those that had finished
/// a task of an earlier run of the same query instead (`warmCodeExecutors`;
/// ExecutorsThatRanSameQuery).
int WarmExecutorsAt(const RecordedApplication& app, int64_t ms,
                    const RecordedSqlExecution* execution = nullptr) {
  const std::set<std::string> same_query =
      execution != nullptr ? ExecutorsThatRanSameQuery(app, *execution, ms) : std::set<std::string>();
  auto warm = [&](const std::string& id) {
    return execution != nullptr ? same_query.count(id) > 0 : RanTaskBefore(app, id, ms);
  };
  if (app.local_mode) return warm("driver") ? 1 : 0;
  int n = 0;
  for (const RecordedExecutor& ex : app.executors) {
    if (ex.executor_id == "driver" || ex.added_time_ms > ms ||
        (ex.removed_time_ms && *ex.removed_time_ms <= ms))
      continue;
    n += warm(ex.executor_id) ? 1 : 0;
  }
  return n;
}

/// The executors of [from_ms, to_ms] as a scenario `executorTimeline` (seconds from from_ms):
/// "add" = ExecutorAdded (0 when registered before the start), "remove" = when it stopped
/// taking tasks, dropped when after to_ms. Under dynamic allocation an executor "killed by
/// driver" stops taking tasks when ExecutorAllocationManager decides to remove it — idle for
/// spark.dynamicAllocation.executorIdleTimeout (default 60 s) after its last task — while
/// ExecutorRemoved is logged when the cluster manager confirms, often seconds later; that
/// earlier time is used and listed in `estimated` (an executor already pending removal at
/// from_ms is left out, though `executors` still counts it). "warm": true when the executor had finished
/// a task before from_ms; "warmCode": true when one of an earlier run of `execution`'s query
/// (ExecutorsThatRanSameQuery). Empty when nothing changes within the window (a static cluster).
json ExecutorTimeline(const RecordedApplication& app, int64_t from_ms, int64_t to_ms,
                      const RecordedSqlExecution* execution, std::vector<std::string>* estimated) {
  const std::set<std::string> same_query =
      execution != nullptr ? ExecutorsThatRanSameQuery(app, *execution, from_ms) : std::set<std::string>();
  json out = json::array();
  std::vector<size_t> estimated_remove;
  bool changes = false;
  for (const RecordedExecutor& ex : app.executors) {
    if (ex.executor_id == "driver" || ex.added_time_ms > to_ms) continue;
    bool remove_estimated = false;
    const std::optional<int64_t> until = app.OffersTasksUntilMs(ex, &remove_estimated);
    const int64_t remove = until ? *until - from_ms : 0;  // ms from from_ms
    if (until && remove <= 0) {
      // Gone before the start. An executor the driver had already decided to remove but whose
      // ExecutorRemoved comes later is still registered (its cores count in defaultParallelism:
      // `executors` keeps it) yet is offered no task (CoarseGrainedSchedulerBackend skips
      // executors pending removal): the timeline, which lists the executors offered tasks,
      // then differs from the static cluster.
      changes |= remove_estimated && ex.removed_time_ms && *ex.removed_time_ms > from_ms;
      continue;
    }
    const bool removed = until && remove <= to_ms - from_ms;
    json e = {{"add", std::max<int64_t>(ex.added_time_ms - from_ms, 0) / 1000.0}};
    if (RanTaskBefore(app, ex.executor_id, from_ms)) e["warm"] = true;
    if (same_query.count(ex.executor_id)) e["warmCode"] = true;
    changes |= ex.added_time_ms > from_ms;
    if (removed) {
      e["remove"] = static_cast<double>(remove) / 1000.0;
      changes = true;
      if (remove_estimated) estimated_remove.push_back(out.size());
    }
    out.push_back(std::move(e));
  }
  if (!changes || out.empty()) return json();
  // At least one executor must stay (the simulation may outlast the recorded window).
  bool one_stays = false;
  for (const json& e : out) one_stays |= !e.contains("remove");
  if (!one_stays) {
    size_t last = 0;
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i]["remove"].get<double>() >= out[last]["remove"].get<double>()) last = i;
    }
    out[last].erase("remove");
  }
  for (size_t i : estimated_remove) {
    if (out[i].contains("remove"))
      estimated->push_back("/cluster/executorTimeline/" + std::to_string(i) + "/remove");
  }
  return out;
}

/// Spark's default of spark.sql.adaptive.enabled for a version string ("3.2.1" -> true).
bool AdaptiveDefault(const std::optional<std::string>& version) {
  if (!version) return true;
  // "MAJOR.MINOR..." (the minor's digits end at the next non-digit: "3.2.1", "3.3-SNAPSHOT").
  const std::string_view v = *version;
  const size_t dot = v.find('.');
  if (dot == std::string_view::npos) return true;
  const std::string_view rest = v.substr(dot + 1);
  const std::optional<int> major = ParseInt(v.substr(0, dot));
  const std::optional<int> minor = ParseInt(rest.substr(0, rest.find_first_not_of("0123456789")));
  if (!major || !minor) return true;
  return *major > 3 || (*major == 3 && *minor >= 2);
}

}  // namespace

std::string JsonPointerToken(const std::string& token) {
  std::string out;
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string DefaultScenarioName(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  if (name.empty()) name = std::filesystem::path(path).parent_path().filename().string();
  for (const char* ext : {".inprogress", ".zstd", ".zst", ".gz", ".lz4", ".snappy", ".lzf", ".json"}) {
    const std::string e = ext;
    if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0)
      name.resize(name.size() - e.size());
  }
  return name;
}

ImportedScenario ImportScenario(const RecordedApplication& app, const ImportOptions& options,
                                std::vector<std::string>* warnings) {
  std::vector<std::string> local_warnings;
  if (warnings == nullptr) warnings = &local_warnings;
  ImportedScenario out;
  json plan;
  std::string what;

  // --- selection ---
  const RecordedSqlExecution* execution = nullptr;
  const RecordedJob* job = nullptr;
  if (options.job_id) {
    auto it = app.jobs.find(*options.job_id);
    if (it == app.jobs.end())
      throw EventLogError(app.path + ": no job " + std::to_string(*options.job_id) + " in the log");
    job = &it->second;
  } else if (options.execution_id) {
    auto it = app.executions.find(*options.execution_id);
    if (it == app.executions.end() || it->second.plans.empty()) {
      throw EventLogError(app.path + ": no SQL execution " + std::to_string(*options.execution_id) +
                          " with a plan in the log");
    }
    execution = &it->second;
  } else {
    int64_t best = -1;
    for (const auto& [id, ex] : app.executions) {
      if (ex.plans.empty()) continue;
      const int64_t bytes = app.ExecutionShuffleBytes(id);
      if (bytes > best) {
        best = bytes;
        execution = &ex;
      }
    }
    if (execution == nullptr) {
      for (const auto& [id, j] : app.jobs) {
        const int64_t bytes = app.JobShuffleBytes(id);
        if (bytes > best) {
          best = bytes;
          job = &j;
        }
      }
    }
    if (execution == nullptr && job == nullptr)
      throw EventLogError(app.path + ": no SQL execution and no job to import");
  }

  if (execution != nullptr) {
    out.execution_id = execution->execution_id;
    out.selection = "SQL execution " + std::to_string(execution->execution_id);
    SqlImporter importer(app, *execution, warnings, &out);
    plan = importer.Build();
    if (execution->start_time_ms && execution->end_time_ms) {
      out.recorded_duration_ms = *execution->end_time_ms - *execution->start_time_ms;
    }
    what = out.selection + (execution->description.empty() ? "" : " (\"" + execution->description + "\")");
  } else {
    out.job_id = job->job_id;
    out.selection = "job " + std::to_string(job->job_id);
    RddImporter importer(app, warnings, &out);
    plan = importer.Build(*job);
    if (job->submission_time_ms && job->completion_time_ms) {
      out.recorded_duration_ms = *job->completion_time_ms - *job->submission_time_ms;
    }
    const RecordedStage* last = out.stage_ids.empty() ? nullptr : app.stage(out.stage_ids.back());
    what = out.selection + (last != nullptr && !last->name.empty() ? " (\"" + last->name + "\")" : "");
  }

  // --- cluster ---
  json cluster;
  int executors = app.max_concurrent_executors;
  int cores = app.executor_cores;
  // Under dynamic allocation the application's peak may not be what this selection ran on:
  // use the peak within its own time window (Spark's defaultParallelism, and so AQE's
  // coalescing target, follows the cores registered at the time of the decision).
  std::optional<std::pair<int64_t, int64_t>> window;
  if (execution != nullptr && execution->start_time_ms && execution->end_time_ms) {
    window = {*execution->start_time_ms, *execution->end_time_ms};
  } else if (job != nullptr && job->submission_time_ms && job->completion_time_ms) {
    window = {*job->submission_time_ms, *job->completion_time_ms};
  }
  bool windowed = false;
  if (!app.local_mode && window) {
    const int during = MaxConcurrentExecutorsDuring(app, window->first, window->second);
    if (during > 0 && during != executors) {
      executors = during;
      windowed = true;
    }
  }
  if (executors == 0 || cores == 0) {
    auto parse = [](const std::optional<std::string>& s) -> int { return s ? ParseInt(*s).value_or(0) : 0; };
    if (executors == 0) {
      executors = std::max(parse(Property(app, "spark.executor.instances")), 1);
      out.estimated.push_back("/cluster/executors");
      warnings->push_back("no executors in the log; executors from spark.executor.instances or 1");
    }
    if (cores == 0) {
      cores = app.profile_executor_cores.value_or(parse(Property(app, "spark.executor.cores")));
      if (cores == 0) cores = 1;
      out.estimated.push_back("/cluster/executorCores");
    }
  }
  cluster["executors"] = executors;
  cluster["executorCores"] = cores;
  if (!app.local_mode && window) {
    json timeline = ExecutorTimeline(app, window->first, window->second, execution, &out.estimated);
    if (!timeline.is_null()) cluster["executorTimeline"] = std::move(timeline);
  }
  if (window && !cluster.contains("executorTimeline")) {
    // Fresh JVMs pay executorStartupSeconds on their first tasks; these already ran some.
    const int warm = std::min(WarmExecutorsAt(app, window->first), executors);
    if (warm > 0) cluster["warmExecutors"] = warm;
    // Those that also ran an earlier run of the same query have its code compiled.
    const int warm_code =
        execution != nullptr ? std::min(WarmExecutorsAt(app, window->first, execution), warm) : 0;
    if (warm_code > 0) cluster["warmCodeExecutors"] = warm_code;
  }
  std::optional<std::string> memory =
      Property(app, app.local_mode ? "spark.driver.memory" : "spark.executor.memory");
  if (!memory && app.profile_executor_memory_mib && !app.local_mode) {
    memory = std::to_string(*app.profile_executor_memory_mib) + "m";
  }
  if (!memory) {
    memory = "1g";  // Spark's default for both
    out.estimated.push_back("/cluster/executorMemory");
  }
  cluster["executorMemory"] = *memory;

  // --- conf ---
  json conf = json::object();
  for (const auto& [k, v] : app.spark_properties) {
    if (IsImportedConfKey(k)) conf[k] = v;
  }
  if (!conf.contains("spark.sql.adaptive.enabled")) {
    if (execution != nullptr) {
      conf["spark.sql.adaptive.enabled"] = execution->adaptive() ? "true" : "false";  // read from the plan
    } else {
      const bool on = AdaptiveDefault(app.spark_version) && app.spark_version &&
                      app.spark_version->rfind("1.", 0) != 0 && app.spark_version->rfind("2.", 0) != 0;
      conf["spark.sql.adaptive.enabled"] = on ? "true" : "false";
      out.estimated.push_back("/conf/" + JsonPointerToken("spark.sql.adaptive.enabled"));
    }
  }

  // --- description ---
  std::ostringstream desc;
  desc << "Imported from " << std::filesystem::path(app.path).filename().string() << ": app " << app.app_id;
  if (!app.app_name.empty()) desc << " (" << app.app_name << ")";
  desc << ", Spark " << app.spark_version.value_or("unknown") << ", " << what << ". ";
  desc << "Cluster " << executors << " x " << cores << " cores (max concurrent executors x cores"
       << (windowed ? " during the " + out.selection + "; application peak " +
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

  std::sort(out.estimated.begin(), out.estimated.end());
  out.estimated.erase(std::unique(out.estimated.begin(), out.estimated.end()), out.estimated.end());
  std::sort(out.stage_ids.begin(), out.stage_ids.end());

  json doc = json::object();
  doc["name"] = options.name.empty() ? DefaultScenarioName(app.path) : options.name;
  doc["description"] = desc.str();
  doc["cluster"] = std::move(cluster);
  doc["conf"] = std::move(conf);
  doc["plan"] = std::move(plan);
  doc["estimated"] = out.estimated;
  out.scenario = std::move(doc);
  return out;
}

}  // namespace aqesim::eventlog
