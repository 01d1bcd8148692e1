#include "tools/eventlog/sql_plan_import.h"

#include <algorithm>
#include <vector>

#include "models/conf/property_value.h"
#include "tools/eventlog/aqe_read_import.h"
#include "tools/eventlog/collect_limit_import.h"
#include "tools/eventlog/exchange_sizes.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

constexpr int kDefaultShufflePartitions = 200;

}  // namespace

json SqlPlanImporter::Build() {
  ctx_.out->stage_ids.insert(ctx_.out->stage_ids.end(), index_.submitted_stages().begin(),
                             index_.submitted_stages().end());
  ScanPrepass(ex_.plans.front());
  // A session may set the count (spark.conf.set) where the properties do not show it: the
  // exchanges Spark counted from the configuration say what it was. The scenario's conf
  // carries it, so those exchanges stay unpinned and follow a what-if's count.
  session_partitions_ = SessionPartitions(ex_.plans.front());
  if (const auto [key, value] = PropertiesPartitions(); session_partitions_ && *session_partitions_ != value)
    ctx_.out->session_partitions = {key, *session_partitions_};
  if (const std::optional<RecordedCollectLimit> cl = FindCollectLimit(ex_.plans.front())) {
    collect_limit_ = true;
    json node = {{"op", "collectLimit"}, {"limit", cl->limit}};
    node["child"] = BuildNode(*cl->child, "/plan/child");
    const SqlPlanNode* rows = RowsNode(*cl->child);
    const SqlPlanNode* twin = rows != nullptr ? index_.Twin(*rows, "number of output rows") : nullptr;
    if (twin != nullptr) {
      const std::optional<int64_t> id = twin->MetricId("number of output rows");
      int64_t total = 0;
      for (int s : index_.submitted_stages()) total += index_.MetricTotal(id, s);
      if (id && index_.MetricRan(*id)) {
        if (auto r = CompleteChildRows(cl->limit, total)) node["rows"] = *r;
      }
    }
    return node;
  }
  return BuildNode(ex_.plans.front(), "/plan");
}

int SqlPlanImporter::ConfiguredPartitions() const {
  return session_partitions_.value_or(PropertiesPartitions().second);
}

std::pair<std::string, int> SqlPlanImporter::PropertiesPartitions() const {
  auto get = [&](const char* k) -> std::optional<int> {
    auto it = ctx_.app.spark_properties.find(k);
    if (it == ctx_.app.spark_properties.end()) return std::nullopt;
    return ParseInt(it->second);
  };
  if (ex_.adaptive()) {
    const char* initial = "spark.sql.adaptive.coalescePartitions.initialPartitionNum";
    if (auto n = get(initial)) return {initial, *n};
  }
  const char* key = "spark.sql.shuffle.partitions";
  return {key, get(key).value_or(kDefaultShufflePartitions)};
}

std::optional<int> SqlPlanImporter::SessionPartitions(const SqlPlanNode& root) const {
  std::vector<int> counts;  // pre-order
  std::vector<const SqlPlanNode*> todo = {&root};
  while (!todo.empty()) {
    const SqlPlanNode& n = *todo.back();
    todo.pop_back();
    const auto kids = MainChildren(n);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) todo.push_back(*it);
    if (!IsExchangeNode(BaseNodeName(n.node_name))) continue;
    const std::string& simple = n.simple_string;
    if (ParseOrigin(simple) == "REPARTITION_BY_NUM" || simple.find("SinglePartition") != std::string::npos)
      continue;
    if (const std::optional<int> c = ParsePartitionCount(simple)) counts.push_back(*c);
  }
  std::optional<int> best;
  long best_n = 0;
  for (int c : counts) {
    const long k = std::count(counts.begin(), counts.end(), c);
    if (k > best_n) {
      best = c;
      best_n = k;
    }
  }
  return best;
}

void SqlPlanImporter::ScanPrepass(const SqlPlanNode& n) {
  const auto kids = MainChildren(n);
  const std::string base = BaseNodeName(n.node_name);
  if (kids.empty() && base != "ReusedExchange") {
    const SqlPlanNode* twin = index_.Twin(n, "");
    std::optional<int64_t> id;
    if (twin != nullptr) {
      for (const auto& m : twin->metrics) {
        if (index_.MetricRan(m.accumulator_id)) {
          id = m.accumulator_id;
          break;
        }
      }
    }
    if (const RecordedStage* st = index_.StageOfMetric(id)) {
      scan_stage_[&n] = st->stage_id;
      ++scans_in_stage_[st->stage_id];
    }
  }
  for (const SqlPlanNode* c : kids) ScanPrepass(*c);
}

json SqlPlanImporter::BuildNode(const SqlPlanNode& n, const std::string& ptr) {
  const std::string base = BaseNodeName(n.node_name);
  const auto kids = MainChildren(n);
  NoteSubqueries(n);
  if (IsExchangeNode(base) && kids.size() == 1) {
    DropPendingSubqueries("an exchange");
    return BuildExchange(n, *kids[0], ptr);
  }
  if (base == "ReusedExchange") return BuildReusedExchange(n, ptr);
  if (IsJoinNode(base) && kids.size() == 2) {
    DropPendingSubqueries("a join");
    return BuildJoin(n, base, *kids[0], *kids[1], ptr);
  }
  if (kids.size() >= 2) DropPendingSubqueries("a union");
  if (base == "Union" && kids.size() >= 2) {
    json node = {{"op", "union"}, {"id", ctx_.NextId("u")}};
    json children = json::array();
    for (size_t i = 0; i < kids.size(); ++i) {
      children.push_back(BuildNode(*kids[i], ptr + "/children/" + std::to_string(i)));
    }
    node["children"] = std::move(children);
    return node;
  }
  if (kids.empty()) return BuildScan(n, ptr);
  if (IsAggregateNode(base) && kids.size() == 1) {
    // Keep the aggregate that reads a shuffle (the final one); partial aggregates fold
    // into their map stage.
    if (!LeadsToExchange(*kids[0])) return BuildNode(*kids[0], ptr);
    DropPendingSubqueries("an aggregate");
    json node = {{"op", "aggregate"}, {"id", ctx_.NextId("a")}};
    if (n.simple_string.find("keys=[]") != std::string::npos) node["grouped"] = false;
    node["child"] = BuildNode(*kids[0], ptr + "/child");
    SetOutputRows(n, &node);
    return node;
  }
  if (kids.size() == 1) {
    if (ptr == "/plan" && !IsPlanWrapper(base) && LeadsToExchange(*kids[0])) return BuildRootOperator(n, ptr);
    return BuildNode(*kids[0], ptr);
  }
  ctx_.warnings->push_back("plan node " + n.node_name + " with " + std::to_string(kids.size()) +
                           " children imported as a union");
  json node = {{"op", "union"}, {"id", ctx_.NextId("u")}};
  json children = json::array();
  for (size_t i = 0; i < kids.size(); ++i)
    children.push_back(BuildNode(*kids[i], ptr + "/children/" + std::to_string(i)));
  node["children"] = std::move(children);
  return node;
}

json SqlPlanImporter::BuildRootOperator(const SqlPlanNode& n, const std::string& ptr) {
  // The operators between the root and the exchange run in the final stage; Spark hands that
  // stage's whole plan to OptimizeShuffleWithLocalRead, which reads the shuffle locally only when
  // the plan *is* the shuffle (docs/aqe-behaviour.md §9). One node keeps that: "sort" when the
  // chain sorts (its cost is a sort's), "project" otherwise.
  bool sorts = false;
  const SqlPlanNode* below = &n;
  while (!IsExchangeNode(BaseNodeName(below->node_name)) &&
         BaseNodeName(below->node_name) != "ReusedExchange") {
    sorts = sorts || BaseNodeName(below->node_name) == "Sort";
    below = MainChildren(*below).front();
  }
  json node = {{"op", sorts ? "sort" : "project"}, {"id", ctx_.NextId(sorts ? "sort" : "project")}};
  node["child"] = BuildNode(*below, ptr + "/child");
  return node;
}

bool SqlPlanImporter::IsPlanWrapper(const std::string& base) {
  // Nodes that run nothing of their own: the adaptive root, code-generation stages and the
  // row/columnar adapters.
  for (const char* w :
       {"AdaptiveSparkPlan", "WholeStageCodegen", "InputAdapter", "ColumnarToRow", "RowToColumnar"})
    if (base.rfind(w, 0) == 0) return true;
  return false;
}

bool SqlPlanImporter::LeadsToExchange(const SqlPlanNode& n) {
  const std::string base = BaseNodeName(n.node_name);
  if (IsExchangeNode(base) || base == "ReusedExchange") return true;
  const auto kids = MainChildren(n);
  if (kids.size() != 1 || IsJoinNode(base) || base == "Union" || IsAggregateNode(base)) return false;
  return LeadsToExchange(*kids[0]);
}

json SqlPlanImporter::BuildScan(const SqlPlanNode& n, const std::string& ptr) {
  json node = {{"op", "scan"}, {"id", ctx_.NextId("s")}};
  for (const SqlPlanNode* q : pending_subqueries_)
    gated_scans_.emplace_back(q, node["id"].get<std::string>());
  pending_subqueries_.clear();
  auto it = scan_stage_.find(&n);
  if (it == scan_stage_.end()) {
    ctx_.warnings->push_back("scan \"" + n.simple_string + "\": no stage ran it; bytes and tasks estimated");
    node["bytes"] = 0;
    ctx_.Estimated(ptr + "/bytes");
    return node;
  }
  const RecordedStage& st = *ctx_.app.stage(it->second);
  const int scans = scans_in_stage_[st.stage_id];
  int64_t bytes = st.input_bytes / std::max(scans, 1);
  if (scans > 1) ctx_.Estimated(ptr + "/bytes");
  if (st.input_bytes == 0) {
    // In-memory or generated input: no Input Metrics. Use what the stage wrote, or what its
    // tasks returned to the driver (a broadcast build's collected rows).
    bytes = std::max({st.shuffle_write_bytes, st.shuffle_read_bytes, st.result_bytes}) / std::max(scans, 1);
    if (scans <= 1) ctx_.Estimated(ptr + "/bytes");
  }
  node["bytes"] = bytes;
  node["tasks"] = st.num_tasks;
  if (scans == 1 && st.input_bytes > 0) SetScanTaskBytes(st, &node);
  const SqlPlanNode* twin = index_.Twin(n, "number of output rows");
  if (twin != nullptr) {
    if (auto rows_id = twin->MetricId("number of output rows")) {
      node["rows"] = index_.MetricTotal(rows_id, st.stage_id);
    }
  }
  return node;
}

json SqlPlanImporter::BuildExchange(const SqlPlanNode& n, const SqlPlanNode& child, const std::string& ptr) {
  ImportedExchange ex;
  ex.id = ctx_.NextId("e");
  ex.pointer = ptr;
  json node = {{"op", "exchange"}, {"id", ex.id}};
  // Exchanges are listed in pre-order (the order of their ids): reserve this one's slot.
  const size_t slot = ctx_.out->exchanges.size();
  ctx_.out->exchanges.emplace_back();
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
  const SqlPlanNode* twin = index_.Twin(n, "shuffle bytes written");
  const RecordedStage* map_stage =
      twin ? index_.StageOfMetric(twin->MetricId("shuffle bytes written")) : nullptr;
  if (map_stage == nullptr) {
    ctx_.warnings->push_back("exchange " + ex.id + " (\"" + NormalizeSimpleString(n.simple_string) +
                             "\"): no stage wrote it; sizes follow the child");
    ctx_.Estimated(ptr + "/sizes");
    ctx_.out->exchanges[slot] = std::move(ex);
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
    if ((read_stage = index_.StageOfMetric(id, map_stage->stage_id)) != nullptr) break;
  }
  if (read_stage == nullptr)
    read_stage = index_.StageOfMetric(twin->MetricId("records read"), map_stage->stage_id);
  if (read_stage != nullptr) ex.read_stage_id = read_stage->stage_id;
  // AQE reader over it in the final plan?
  const RecordedShuffleRead* reader =
      RecordedReadOf(ctx_.app, ex_.execution_id, twin->MetricId("shuffle bytes written"));
  if (reader != nullptr) {
    ex.recorded_read_partitions = reader->num_partitions;
    ex.recorded_read_kind = RecordedReadKind(*reader);
  }
  std::vector<int64_t> cols;
  bool observable =
      partitions == 1 || (reader == nullptr && read_stage != nullptr && read_stage->num_tasks == partitions);
  if (observable) {
    if (partitions == 1) {
      cols = {Sum(map_stage->map_output_bytes)};
    } else {
      cols = ReadBytesByIndex(*read_stage, read_ids);
    }
  } else if (collect_limit_ && reader == nullptr && partitions > 1) {
    // Under a collectLimit executeTake's jobs read the partitions in order, a few per job: when
    // their tasks add up to every partition, their reads side by side are the columns.
    // (A task reading nothing reports no metric update: the jobs are the execution's stages
    // after the map stage that write no shuffle.)
    std::set<int> readers;
    for (int j : ex_.job_ids) {
      auto job = ctx_.app.jobs.find(j);
      if (job == ctx_.app.jobs.end()) continue;
      for (int s : job->second.stage_ids) {
        const RecordedStage* st = ctx_.app.stage(s);
        if (s > map_stage->stage_id && st != nullptr && st->submitted && st->shuffle_write_bytes == 0)
          readers.insert(s);
      }
    }
    int tasks = 0;
    for (int s : readers) tasks += ctx_.app.stage(s)->num_tasks;
    if (readers.size() > 1 && tasks == partitions) {
      for (int s : readers) {
        const std::vector<int64_t> part = ReadBytesByIndex(*ctx_.app.stage(s), read_ids);
        cols.insert(cols.end(), part.begin(), part.end());
      }
      observable = static_cast<int>(cols.size()) == partitions;
      if (!observable) cols.clear();
    }
  }
  // Rows are the map tasks as planned without AQE: a stage whose input was coalesced by an
  // AQE reader ran fewer tasks than the input exchange's partitions.
  int planned_map_tasks = 0;
  for (size_t i = first_child_exchange; i < ctx_.out->exchanges.size(); ++i) {
    const ImportedExchange& below = ctx_.out->exchanges[i];
    if (below.read_stage_id == map_stage->stage_id && below.recorded_read_partitions &&
        below.num_partitions != map_stage->num_tasks) {
      planned_map_tasks = below.num_partitions;
    }
  }
  std::optional<CoalescedRead> coalesced;
  if (!observable && reader != nullptr)
    coalesced = CoalescedReadOf(ctx_.app, index_, *reader, partitions, map_stage->stage_id, read_ids);
  node["sizes"] = ExchangeSizes(ctx_, ptr, *map_stage, observable ? &cols : nullptr, &ex, planned_map_tasks,
                                coalesced ? &*coalesced : nullptr);
  if (ex.reported_size_ratio != 1.0) {
    node["reportedSizeRatio"] = ex.reported_size_ratio;
    ctx_.Estimated(ptr + "/reportedSizeRatio");
  }
  // Records written: the exchange's SQL metric, else the map stage's Shuffle Records Written.
  if (auto rows = index_.MetricTotalAllStages(twin->MetricId("shuffle records written"))) {
    node["rows"] = *rows;
  } else if (map_stage->shuffle_records_written > 0) {
    node["rows"] = map_stage->shuffle_records_written;
  }
  if (auto ds = twin->MetricId("data size")) {
    const int64_t data_size = index_.MetricTotal(ds, map_stage->stage_id);
    if (data_size > 0) {
      node["dataSizeBytes"] = data_size;
      ex.data_size_bytes = data_size;
    }
  }
  ctx_.out->exchanges[slot] = std::move(ex);
  return node;
}

json SqlPlanImporter::BuildReusedExchange(const SqlPlanNode& n, const std::string& ptr) {
  // "ReusedExchange [a#1], Exchange hashpartitioning(...)": import the reused exchange again.
  const std::string simple = NormalizeSimpleString(n.simple_string);
  const size_t pos = simple.find("], Exchange ");
  if (pos != std::string::npos) {
    const std::string target = simple.substr(pos + 3);
    auto it = index_.initial_plan_index().find(target);
    if (it != index_.initial_plan_index().end() && !it->second.empty()) {
      ctx_.warnings->push_back("ReusedExchange of \"" + target +
                               "\" imported as a second copy (Spark ran it once)");
      const auto kids = MainChildren(*it->second.front());
      if (kids.size() == 1) return BuildExchange(*it->second.front(), *kids[0], ptr);
    }
  }
  ctx_.warnings->push_back("ReusedExchange \"" + simple + "\": original not found; imported as a scan");
  return BuildScan(n, ptr);
}

json SqlPlanImporter::BuildJoin(const SqlPlanNode& n, const std::string& base, const SqlPlanNode& left,
                                const SqlPlanNode& right, const std::string& ptr) {
  ImportedJoin j;
  j.id = ctx_.NextId("j");
  j.pointer = ptr;
  j.strategy = base;
  std::vector<std::string> notes;
  json node = {
      {"op", "join"}, {"id", j.id}, {"strategy", base}, {"joinType", JoinTypeOf(n.simple_string, &notes)}};
  for (const auto& note : notes) ctx_.warnings->push_back("join " + j.id + ": " + note);
  if (base == "BroadcastHashJoin" || base == "ShuffledHashJoin" || base == "BroadcastNestedLoopJoin") {
    if (n.simple_string.find("BuildLeft") != std::string::npos) node["buildSide"] = "BuildLeft";
    if (n.simple_string.find("BuildRight") != std::string::npos) node["buildSide"] = "BuildRight";
  }
  node["left"] = BuildNode(left, ptr + "/left");
  node["right"] = BuildNode(right, ptr + "/right");
  SetOutputRows(n, &node);
  if (base == "BroadcastHashJoin" || base == "BroadcastNestedLoopJoin") {
    const SqlPlanNode& build = node.value("buildSide", "BuildRight") == "BuildLeft" ? left : right;
    j.build_stage_id = StageOfScanBelow(build);
    broadcast_builds_.emplace(BuildPlanKey(build), j.id);
  }
  j.recorded_strategy = base;
  // The recorded final strategy: the join with the same keys in the final plan.
  const std::string key_prefix = NormalizeSimpleString(n.simple_string);
  for (const auto& rj : ctx_.app.joins) {
    if (rj.execution_id != ex_.execution_id || rj.initial_strategy != base) continue;
    if (key_prefix.find(rj.key) == std::string::npos || used_joins_.count(&rj)) continue;
    used_joins_.insert(&rj);
    j.recorded_strategy = rj.final_strategy;
    j.recorded_skew_join = rj.is_skew_join;
    break;
  }
  ctx_.out->joins.push_back(std::move(j));
  return node;
}

void SqlPlanImporter::SetOutputRows(const SqlPlanNode& n, json* node) const {
  const SqlPlanNode* twin = index_.Twin(n, "number of output rows");
  if (twin == nullptr) return;
  if (auto rows = index_.MetricTotalAllStages(twin->MetricId("number of output rows")))
    (*node)["rows"] = *rows;
}

std::optional<int> SqlPlanImporter::StageOfScanBelow(const SqlPlanNode& n) const {
  if (IsExchangeNode(BaseNodeName(n.node_name))) return std::nullopt;
  if (auto it = scan_stage_.find(&n); it != scan_stage_.end()) return it->second;
  for (const SqlPlanNode* kid : MainChildren(n)) {
    if (auto s = StageOfScanBelow(*kid)) return s;
  }
  return std::nullopt;
}

}  // namespace aqesim::eventlog
