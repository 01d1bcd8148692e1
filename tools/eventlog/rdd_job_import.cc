#include "tools/eventlog/rdd_job_import.h"

#include <algorithm>
#include <set>
#include <vector>

#include "tools/eventlog/exchange_sizes.h"

namespace aqesim::eventlog {

using nlohmann::json;

json RddJobImporter::Build(const RecordedJob& job) {
  // The job's last stage: the one no other stage of the job names as a parent.
  std::set<int> parents;
  for (int s : job.stage_ids) {
    if (const RecordedStage* st = ctx_.app.stage(s))
      parents.insert(st->parent_ids.begin(), st->parent_ids.end());
  }
  int result = -1;
  for (int s : job.stage_ids) {
    if (!parents.count(s)) result = std::max(result, s);
  }
  if (result < 0) throw EventLogError("job " + std::to_string(job.job_id) + " has no result stage");
  for (int s : job.stage_ids) {
    const RecordedStage* st = ctx_.app.stage(s);
    if (st != nullptr && st->submitted) ctx_.out->stage_ids.push_back(s);
  }
  std::sort(ctx_.out->stage_ids.begin(), ctx_.out->stage_ids.end());
  return BuildStage(result, "/plan");
}

json RddJobImporter::BuildStage(int stage_id, const std::string& ptr) {
  const RecordedStage* st = ctx_.app.executed_stage(stage_id);
  if (st == nullptr) throw EventLogError("stage " + std::to_string(stage_id) + " never ran");
  if (st->parent_ids.empty()) {
    json node = {
        {"op", "scan"}, {"id", ctx_.NextId("s")}, {"bytes", st->input_bytes}, {"tasks", st->num_tasks}};
    if (st->input_bytes == 0) {  // generated input: what it wrote or returned (as in BuildScan)
      node["bytes"] = std::max(st->shuffle_write_bytes, st->result_bytes);
      ctx_.Estimated(ptr + "/bytes");
    } else {
      SetScanTaskBytes(*st, &node);
    }
    return node;
  }
  const size_t n = st->parent_ids.size();
  auto exchange = [&](int parent, const std::string& eptr) {
    const RecordedStage* ps = ctx_.app.executed_stage(parent);
    ImportedExchange ex;
    ex.id = ctx_.NextId("e");
    ex.pointer = eptr;
    ex.read_stage_id = st->stage_id;
    ex.num_partitions = st->num_tasks;
    json node = {{"op", "exchange"}, {"id", ex.id}, {"numPartitions", st->num_tasks}};
    const size_t slot = ctx_.out->exchanges.size();  // pre-order, like the ids
    ctx_.out->exchanges.emplace_back();
    node["child"] = BuildStage(parent, eptr + "/child");
    if (ps == nullptr) {
      ctx_.Estimated(eptr + "/sizes");
      ctx_.out->exchanges[slot] = ex;
      return node;
    }
    ex.map_stage_id = ps->stage_id;
    // One shuffle read: each reduce task's read bytes are its reducer's column sum.
    std::vector<int64_t> cols;
    if (n == 1) cols = ReadBytesByIndex(*st, {});
    node["sizes"] = ExchangeSizes(ctx_, eptr, *ps, n == 1 ? &cols : nullptr, &ex);
    ctx_.out->exchanges[slot] = ex;
    return node;
  };
  if (n == 1) {
    json node = {{"op", "aggregate"}, {"id", ctx_.NextId("a")}};
    node["child"] = exchange(st->parent_ids[0], ptr + "/child");
    return node;
  }
  if (n == 2) {
    ImportedJoin j;
    j.id = ctx_.NextId("j");
    j.pointer = ptr;
    j.strategy = j.recorded_strategy = "SortMergeJoin";
    json node = {{"op", "join"}, {"id", j.id}, {"strategy", "SortMergeJoin"}, {"joinType", "Inner"}};
    ctx_.Estimated(ptr + "/strategy");
    ctx_.Estimated(ptr + "/joinType");
    node["left"] = exchange(st->parent_ids[0], ptr + "/left");
    node["right"] = exchange(st->parent_ids[1], ptr + "/right");
    ctx_.out->joins.push_back(j);
    return node;
  }
  json node = {{"op", "union"}, {"id", ctx_.NextId("u")}};
  json children = json::array();
  for (size_t i = 0; i < n; ++i)
    children.push_back(exchange(st->parent_ids[i], ptr + "/children/" + std::to_string(i)));
  node["children"] = std::move(children);
  return node;
}

}  // namespace aqesim::eventlog
