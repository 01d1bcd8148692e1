#include "models/scenario/plan_reader.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "models/plan/planned_properties.h"
#include "models/scenario/bucketing_reader.h"
#include "models/scenario/plan_checks.h"
#include "models/scenario/range_reader.h"
#include "models/scenario/records_reader.h"

namespace aqesim {
namespace {

const std::vector<std::string> kOpNames = {"scan",   "exchange", "join", "aggregate", "union",
                                           "filter", "project",  "sort", "window"};
const std::vector<std::string> kOriginNames = {"ENSURE_REQUIREMENTS", "REPARTITION_BY_COL",
                                               "REPARTITION_BY_NUM", "REBALANCE_PARTITIONS_BY_NONE",
                                               "REBALANCE_PARTITIONS_BY_COL"};
const std::vector<std::string> kStrategyNames = {"SortMergeJoin", "ShuffledHashJoin", "BroadcastHashJoin",
                                                 "BroadcastNestedLoopJoin", "CartesianProduct"};
const std::vector<std::string> kJoinTypeNames = {"Inner",     "Cross",    "LeftOuter", "RightOuter",
                                                 "FullOuter", "LeftSemi", "LeftAnti"};
const std::vector<std::string> kBuildSideNames = {"BuildLeft", "BuildRight"};
const std::vector<std::string> kHintNames = {"NONE", "BROADCAST", "MERGE", "SHUFFLE_HASH",
                                             "SHUFFLE_REPLICATE_NL"};

// Fields each operator accepts (besides "op" and "id"), and which are required.
struct OpFields {
  std::vector<std::string> allowed;
  std::vector<std::string> required;
};

const OpFields& FieldsOf(PlanOp op) {
  static const std::map<PlanOp, OpFields> kFields = {
      {PlanOp::kScan,
       {{"op", "id", "bytes", "rows", "tasks", "taskBytes", "estimatedBytes", "bucketing", "keyDistribution"},
        {"bytes"}}},
      {PlanOp::kExchange,
       {{"op", "id", "child", "numPartitions", "origin", "sizes", "dataSizeBytes", "reportedSizeRatio",
         "advisoryPartitionSizeInBytes", "singlePartition", "estimatedBytes", "rows", "partitioning",
         "rowsByPartition"},
        {"child"}}},
      {PlanOp::kJoin,
       {{"op", "id", "strategy", "joinType", "buildSide", "hints", "left", "right", "selectivity",
         "estimatedBytes", "rows", "keys", "leftKeys", "rightKeys"},
        {"left", "right"}}},
      {PlanOp::kAggregate,
       {{"op", "id", "child", "grouped", "keys", "mode", "selectivity", "estimatedBytes", "rows"},
        {"child"}}},
      {PlanOp::kUnion, {{"op", "id", "children", "estimatedBytes"}, {"children"}}},
      {PlanOp::kFilter, {{"op", "id", "child", "selectivity", "estimatedBytes", "rows"}, {"child"}}},
      {PlanOp::kProject, {{"op", "id", "child", "selectivity", "estimatedBytes", "rows"}, {"child"}}},
      {PlanOp::kSort, {{"op", "id", "child", "estimatedBytes", "global"}, {"child"}}},
      {PlanOp::kWindow, {{"op", "id", "child", "keys", "selectivity", "estimatedBytes", "rows"}, {"child"}}},
  };
  return kFields.at(op);
}

// Whether Spark can build a hash table on `side` for this join type
// (JoinSelectionHelper.canBuildBroadcastLeft/Right, canBuildShuffledHashJoinLeft/Right).
bool CanBuild(JoinStrategy strategy, JoinType type, BuildSide side) {
  if (strategy == JoinStrategy::kBroadcastNestedLoop) return true;
  const bool shuffled = strategy == JoinStrategy::kShuffledHash;
  if (side == BuildSide::kLeft)
    return type == JoinType::kInner || type == JoinType::kCross || type == JoinType::kRightOuter ||
           (shuffled && type == JoinType::kFullOuter);
  return type == JoinType::kInner || type == JoinType::kCross || type == JoinType::kLeftOuter ||
         type == JoinType::kLeftSemi || type == JoinType::kLeftAnti ||
         (shuffled && type == JoinType::kFullOuter);
}

class PlanReader {
 public:
  PlanReader(const std::string& scenario_dir, DiagnosticSink* sink) : dir_(scenario_dir), sink_(sink) {}

  // A child still to read: its JSON value and pointer.
  struct PendingChild {
    const Json* value;
    std::string pointer;
  };

  // Reads the tree. The recursion keeps a small frame (the per-node work is in ReadOneNode,
  // kept out of line), and stops at kMaxPlanDepth, so deep documents cannot exhaust the stack
  // even in sanitizer builds.
  std::unique_ptr<PlanNode> ReadNode(const Json& v, const std::string& pointer, int depth) {
    if (depth > kMaxPlanDepth) {
      sink_->Error(pointer, "expected a plan at most " + std::to_string(kMaxPlanDepth) +
                                " nodes deep, found deeper nesting");
      return nullptr;
    }
    if (++nodes_ > kMaxPlanNodes) {
      if (nodes_ == kMaxPlanNodes + 1)
        sink_->Error(pointer, "expected a plan of at most " + std::to_string(kMaxPlanNodes) +
                                  " nodes, found more from here on");
      return nullptr;
    }
    std::vector<PendingChild> children;
    std::unique_ptr<PlanNode> node = ReadOneNode(v, pointer, &children);
    for (const PendingChild& c : children) {
      std::unique_ptr<PlanNode> child = ReadNode(*c.value, c.pointer, depth + 1);
      if (node && child) node->children.push_back(std::move(child));
    }
    return node;
  }

 private:
  // Reads one node's own fields; lists its children (in the plan's order) in `children`.
  // Returns null when the node is unusable (not an object, no valid op); its likely
  // children are still listed so that one pass reports everything.
  [[gnu::noinline]] std::unique_ptr<PlanNode> ReadOneNode(const Json& v, const std::string& pointer,
                                                          std::vector<PendingChild>* children) {
    if (!v.is_object()) {
      sink_->Error(pointer, "expected a plan node (an object with \"op\"), found " + DescribeJson(v));
      return nullptr;
    }
    std::optional<PlanOp> op;
    if (!v.contains("op")) {
      sink_->Error(pointer, "missing field \"op\" (one of " + JoinNames(kOpNames) + ")");
    } else if (v["op"] == "collectLimit") {
      sink_->Error(PointerAppend(pointer, "op"),
                   "a collectLimit is read only as the plan's root (a collect, show() or take())");
    } else {
      op = ReadEnum<PlanOp>(
          v["op"], PointerAppend(pointer, "op"), [](const std::string& s) { return ParsePlanOp(s); },
          kOpNames, "an operator", sink_);
    }
    if (!op) {
      for (const char* f : {"child", "left", "right"})
        if (v.contains(f)) children->push_back({&v[f], PointerAppend(pointer, f)});
      if (v.contains("children") && v["children"].is_array())
        for (size_t i = 0; i < v["children"].size(); ++i)
          children->push_back({&v["children"][i], PointerAppend(PointerAppend(pointer, "children"), i)});
      return nullptr;
    }
    auto node = std::make_unique<PlanNode>();
    node->op = *op;
    node->pointer = pointer;
    const OpFields& fields = FieldsOf(*op);
    const std::string_view name = PlanOpName(*op);
    const bool vowel =
        !name.empty() && std::string_view("aeiou").find(name.front()) != std::string_view::npos;
    const std::string what = (vowel ? "an " : "a ") + std::string(name) + " node";
    CheckFields(v, pointer, fields.allowed, what, sink_);
    for (const std::string& f : fields.required)
      if (!v.contains(f)) sink_->Error(pointer, "missing field \"" + f + "\" of " + what);

    if (v.contains("id")) {
      if (auto id = ReadString(v["id"], PointerAppend(pointer, "id"), sink_)) {
        const bool control = std::any_of(
            id->begin(), id->end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
        if (id->empty())
          sink_->Error(PointerAppend(pointer, "id"), "expected a non-empty id, found \"\"");
        else if (control)  // ids are printed in tables and messages: a line break or ESC would forge them
          sink_->Error(PointerAppend(pointer, "id"),
                       "expected an id without control characters, found " + DescribeJson(v["id"]));
        else
          node->id = *id;
      }
    }
    if (v.contains("estimatedBytes"))
      node->estimated_bytes =
          ReadByteCount(v["estimatedBytes"], PointerAppend(pointer, "estimatedBytes"), {}, sink_);
    if (v.contains("rows"))
      node->rows = ReadInteger(v["rows"], PointerAppend(pointer, "rows"), 0, INT64_MAX,
                               "a non-negative integer", sink_);
    if (v.contains("selectivity")) {
      if (auto s = ReadNumber(
              v["selectivity"], PointerAppend(pointer, "selectivity"), [](double x) { return x >= 0; },
              "a number >= 0", sink_))
        node->selectivity = *s;
    }

    switch (*op) {
      case PlanOp::kScan:
        ReadScan(v, node.get());
        if (v.contains("bucketing")) ReadBucketing(v["bucketing"], node.get(), sink_);
        if (v.contains("keyDistribution")) ReadKeyDistribution(v["keyDistribution"], node.get(), sink_);
        break;
      case PlanOp::kExchange:
        ReadExchange(v, node.get());
        ReadExchangePartitioning(v, node.get(), sink_);
        if (v.contains("rowsByPartition")) ReadRowsByPartition(v["rowsByPartition"], node.get(), sink_);
        break;
      case PlanOp::kSort:
        ReadSortGlobal(v, node.get(), sink_);
        break;
      case PlanOp::kJoin:
        ReadJoin(v, node.get());
        ReadJoinKeys(v, node.get(), sink_);
        break;
      case PlanOp::kAggregate:
        if (v.contains("grouped")) {
          if (auto g = ReadBool(v["grouped"], PointerAppend(pointer, "grouped"), sink_)) node->grouped = *g;
        }
        ReadGroupingKeys(v, node.get(), sink_);
        ReadAggregateMode(v, node.get(), sink_);
        break;
      case PlanOp::kWindow:
        ReadGroupingKeys(v, node.get(), sink_);  // the window's partition keys
        break;
      default:
        break;
    }

    if (*op == PlanOp::kJoin) {
      for (const char* side : {"left", "right"})
        if (v.contains(side)) children->push_back({&v[side], PointerAppend(pointer, side)});
    } else if (*op == PlanOp::kUnion) {
      if (v.contains("children")) {
        const Json& list = v["children"];
        const std::string list_pointer = PointerAppend(pointer, "children");
        if (!list.is_array() || list.empty()) {
          sink_->Error(list_pointer, "expected a non-empty array of plan nodes, found " + DescribeJson(list));
        } else {
          for (size_t i = 0; i < list.size(); ++i)
            children->push_back({&list[i], PointerAppend(list_pointer, i)});
        }
      }
    } else if (*op != PlanOp::kScan) {
      if (v.contains("child")) children->push_back({&v["child"], PointerAppend(pointer, "child")});
    }
    return node;
  }

  void ReadScan(const Json& v, PlanNode* node) {
    const std::string& p = node->pointer;
    if (v.contains("bytes")) {
      if (auto b = ReadByteCount(v["bytes"], PointerAppend(p, "bytes"), {}, sink_)) node->scan_bytes = *b;
    }
    if (v.contains("tasks")) {
      if (auto t = ReadInteger(v["tasks"], PointerAppend(p, "tasks"), 1, kMaxPlannedTasks,
                               "a positive integer, at most " + std::to_string(kMaxPlannedTasks), sink_))
        node->tasks = static_cast<int>(*t);
    }
    if (v.contains("taskBytes")) ReadTaskBytes(v["taskBytes"], node);
  }

  // `taskBytes`: one byte count per scan task; its length is the task count (`tasks`, when
  // given, must agree) and its sum must be `bytes`.
  void ReadTaskBytes(const Json& v, PlanNode* node) {
    const std::string p = PointerAppend(node->pointer, "taskBytes");
    if (!v.is_array() || v.empty() || v.size() > static_cast<size_t>(INT32_MAX)) {
      sink_->Error(p,
                   "expected a non-empty array of byte counts, one per scan task, found " + DescribeJson(v));
      return;
    }
    std::vector<int64_t> out;
    out.reserve(v.size());
    bool ok = true;
    int64_t sum = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      const auto b = ReadByteCount(v[i], PointerAppend(p, i), {}, sink_);
      if (!b) {
        ok = false;
        continue;
      }
      if (__builtin_add_overflow(sum, *b, &sum)) {
        sink_->Error(p, "expected byte counts whose sum fits in 63 bits, found a larger sum");
        return;
      }
      out.push_back(*b);
    }
    if (!ok) return;
    if (node->tasks && *node->tasks != static_cast<int64_t>(out.size())) {
      sink_->Error(p, "expected one byte count per scan task (tasks = " + std::to_string(*node->tasks) +
                          "), found " + std::to_string(out.size()));
      return;
    }
    if (sum != node->scan_bytes) {
      sink_->Error(p, "expected byte counts summing to the scan's bytes (" +
                          std::to_string(node->scan_bytes) + "), found a sum of " + std::to_string(sum));
      return;
    }
    node->tasks = static_cast<int>(out.size());
    node->task_bytes = std::move(out);
  }

  void ReadExchange(const Json& v, PlanNode* node) {
    const std::string& p = node->pointer;
    if (v.contains("numPartitions")) {
      if (auto n = ReadInteger(v["numPartitions"], PointerAppend(p, "numPartitions"), 1, INT32_MAX,
                               "a positive integer", sink_))
        node->num_partitions = static_cast<int>(*n);
    }
    if (v.contains("origin")) {
      if (auto o = ReadEnum<ShuffleOrigin>(
              v["origin"], PointerAppend(p, "origin"),
              [](const std::string& s) { return ParseShuffleOrigin(s); }, kOriginNames, "a shuffle origin",
              sink_))
        node->origin = *o;
    }
    if (v.contains("sizes")) node->sizes = ReadSizes(v["sizes"], PointerAppend(p, "sizes"), dir_, sink_);
    if (v.contains("dataSizeBytes"))
      node->data_size_bytes = ReadByteCount(v["dataSizeBytes"], PointerAppend(p, "dataSizeBytes"), {}, sink_);
    if (v.contains("reportedSizeRatio")) {
      if (auto r = ReadNumber(
              v["reportedSizeRatio"], PointerAppend(p, "reportedSizeRatio"),
              [](double x) { return x >= 1e-6 && x <= 1e6; }, "a number from 1e-6 to 1e6", sink_))
        node->reported_size_ratio = *r;
    }
    if (v.contains("advisoryPartitionSizeInBytes"))
      node->advisory_partition_size_bytes =
          ReadByteCount(v["advisoryPartitionSizeInBytes"], PointerAppend(p, "advisoryPartitionSizeInBytes"),
                        {.allow_string = true, .positive = true}, sink_);
    if (v.contains("singlePartition")) {
      if (auto s = ReadBool(v["singlePartition"], PointerAppend(p, "singlePartition"), sink_))
        node->single_partition = *s;
    }
  }

  void ReadJoin(const Json& v, PlanNode* node) {
    const std::string& p = node->pointer;
    if (v.contains("strategy")) {
      if (auto s = ReadEnum<JoinStrategy>(
              v["strategy"], PointerAppend(p, "strategy"),
              [](const std::string& name) { return ParseJoinStrategy(name); }, kStrategyNames,
              "a join strategy", sink_))
        node->strategy = *s;
    }
    if (v.contains("joinType")) {
      if (auto t = ReadEnum<JoinType>(
              v["joinType"], PointerAppend(p, "joinType"),
              [](const std::string& s) { return ParseJoinType(s); }, kJoinTypeNames, "a join type", sink_))
        node->join_type = *t;
    }
    if (v.contains("buildSide")) {
      const std::string bp = PointerAppend(p, "buildSide");
      if (auto b = ReadEnum<BuildSide>(
              v["buildSide"], bp, [](const std::string& s) { return ParseBuildSide(s); }, kBuildSideNames,
              "a build side", sink_)) {
        const bool hashed = node->strategy == JoinStrategy::kBroadcastHash ||
                            node->strategy == JoinStrategy::kShuffledHash ||
                            node->strategy == JoinStrategy::kBroadcastNestedLoop;
        if (!hashed) {
          sink_->Error(
              bp,
              "expected no build side for a " + std::string(JoinStrategyName(node->strategy)) +
                  " (only BroadcastHashJoin, ShuffledHashJoin and BroadcastNestedLoopJoin build), found " +
                  DescribeJson(v["buildSide"]));
        } else if (!CanBuild(node->strategy, node->join_type, *b)) {
          sink_->Error(bp, "expected a side Spark can build for a " +
                               std::string(JoinTypeName(node->join_type)) + " " +
                               std::string(JoinStrategyName(node->strategy)) + ", found " +
                               DescribeJson(v["buildSide"]));
        } else {
          node->build_side = *b;
        }
      }
    }
    if (node->strategy == JoinStrategy::kBroadcastHash && !v.contains("buildSide") &&
        !CanBuild(node->strategy, node->join_type, BuildSide::kRight) &&
        !CanBuild(node->strategy, node->join_type, BuildSide::kLeft)) {
      sink_->Error(PointerAppend(p, "strategy"), "expected a strategy that supports a " +
                                                     std::string(JoinTypeName(node->join_type)) +
                                                     " join, found \"BroadcastHashJoin\"");
    }
    if (v.contains("hints")) {
      const Json& hints = v["hints"];
      const std::string hp = PointerAppend(p, "hints");
      if (!hints.is_object()) {
        sink_->Error(hp, "expected an object with \"left\" and/or \"right\", found " + DescribeJson(hints));
      } else {
        CheckFields(hints, hp, {"left", "right"}, "join hints", sink_);
        for (const char* side : {"left", "right"}) {
          if (!hints.contains(side)) continue;
          if (auto h = ReadEnum<JoinHint>(
                  hints[side], PointerAppend(hp, side), [](const std::string& s) { return ParseJoinHint(s); },
                  kHintNames, "a join hint", sink_))
            (std::string(side) == "left" ? node->left_hint : node->right_hint) = *h;
        }
      }
    }
  }

  std::string dir_;
  int nodes_ = 0;
  DiagnosticSink* sink_;
};

}  // namespace

std::unique_ptr<PlanNode> ReadPlan(const Json& v, const std::string& pointer, const std::string& scenario_dir,
                                   DiagnosticSink* sink,
                                   const std::map<std::string, std::string>* ids_in_use) {
  PlanReader reader(scenario_dir, sink);
  std::unique_ptr<PlanNode> root = reader.ReadNode(v, pointer, 1);
  if (!root) return nullptr;
  AssignIds(root.get(), sink, ids_in_use);
  CheckCounts(root.get(), sink);
  return root;
}

}  // namespace aqesim
