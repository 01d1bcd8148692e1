#include "models/plan/plan.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

namespace aqesim {
namespace {

template <typename Enum, size_t N>
std::optional<Enum> Lookup(const std::pair<std::string_view, Enum> (&table)[N], std::string_view s) {
  for (const auto& [name, value] : table)
    if (name == s) return value;
  return std::nullopt;
}

template <typename Enum, size_t N>
std::string_view NameOf(const std::pair<std::string_view, Enum> (&table)[N], Enum e) {
  for (const auto& [name, value] : table)
    if (value == e) return name;
  return "?";
}

constexpr std::pair<std::string_view, PlanOp> kOps[] = {
    {"scan", PlanOp::kScan},           {"exchange", PlanOp::kExchange}, {"join", PlanOp::kJoin},
    {"aggregate", PlanOp::kAggregate}, {"union", PlanOp::kUnion},       {"filter", PlanOp::kFilter},
    {"project", PlanOp::kProject},     {"sort", PlanOp::kSort},         {"window", PlanOp::kWindow},
};
constexpr std::pair<std::string_view, ShuffleOrigin> kOrigins[] = {
    {"ENSURE_REQUIREMENTS", ShuffleOrigin::kEnsureRequirements},
    {"REPARTITION_BY_COL", ShuffleOrigin::kRepartitionByCol},
    {"REPARTITION_BY_NUM", ShuffleOrigin::kRepartitionByNum},
    {"REBALANCE_PARTITIONS_BY_NONE", ShuffleOrigin::kRebalancePartitionsByNone},
    {"REBALANCE_PARTITIONS_BY_COL", ShuffleOrigin::kRebalancePartitionsByCol},
};
constexpr std::pair<std::string_view, JoinStrategy> kStrategies[] = {
    {"SortMergeJoin", JoinStrategy::kSortMerge},
    {"ShuffledHashJoin", JoinStrategy::kShuffledHash},
    {"BroadcastHashJoin", JoinStrategy::kBroadcastHash},
    {"BroadcastNestedLoopJoin", JoinStrategy::kBroadcastNestedLoop},
    {"CartesianProduct", JoinStrategy::kCartesianProduct},
};
constexpr std::pair<std::string_view, JoinType> kJoinTypes[] = {
    {"Inner", JoinType::kInner},         {"Cross", JoinType::kCross},
    {"LeftOuter", JoinType::kLeftOuter}, {"RightOuter", JoinType::kRightOuter},
    {"FullOuter", JoinType::kFullOuter}, {"LeftSemi", JoinType::kLeftSemi},
    {"LeftAnti", JoinType::kLeftAnti},
};
// Spark's JoinType.apply aliases (lowercase, underscores removed).
constexpr std::pair<std::string_view, JoinType> kJoinTypeAliases[] = {
    {"inner", JoinType::kInner},         {"cross", JoinType::kCross},
    {"outer", JoinType::kFullOuter},     {"full", JoinType::kFullOuter},
    {"fullouter", JoinType::kFullOuter}, {"leftouter", JoinType::kLeftOuter},
    {"left", JoinType::kLeftOuter},      {"rightouter", JoinType::kRightOuter},
    {"right", JoinType::kRightOuter},    {"leftsemi", JoinType::kLeftSemi},
    {"semi", JoinType::kLeftSemi},       {"leftanti", JoinType::kLeftAnti},
    {"anti", JoinType::kLeftAnti},
};
constexpr std::pair<std::string_view, BuildSide> kBuildSides[] = {
    {"BuildLeft", BuildSide::kLeft},
    {"BuildRight", BuildSide::kRight},
};
constexpr std::pair<std::string_view, JoinHint> kHints[] = {
    {"NONE", JoinHint::kNone},
    {"BROADCAST", JoinHint::kBroadcast},
    {"MERGE", JoinHint::kMerge},
    {"SHUFFLE_HASH", JoinHint::kShuffleHash},
    {"SHUFFLE_REPLICATE_NL", JoinHint::kShuffleReplicateNl},
};
// Spark's hint names (JoinStrategyHint.hintAliases), matched case-insensitively.
constexpr std::pair<std::string_view, JoinHint> kHintAliases[] = {
    {"NONE", JoinHint::kNone},
    {"BROADCAST", JoinHint::kBroadcast},
    {"BROADCASTJOIN", JoinHint::kBroadcast},
    {"MAPJOIN", JoinHint::kBroadcast},
    {"MERGE", JoinHint::kMerge},
    {"SHUFFLE_MERGE", JoinHint::kMerge},
    {"MERGEJOIN", JoinHint::kMerge},
    {"SHUFFLE_HASH", JoinHint::kShuffleHash},
    {"SHUFFLE_REPLICATE_NL", JoinHint::kShuffleReplicateNl},
};

}  // namespace

std::string_view PlanOpName(PlanOp op) { return NameOf(kOps, op); }
std::string_view ShuffleOriginName(ShuffleOrigin o) { return NameOf(kOrigins, o); }
std::string_view JoinStrategyName(JoinStrategy s) { return NameOf(kStrategies, s); }
std::string_view JoinTypeName(JoinType t) { return NameOf(kJoinTypes, t); }
std::string_view BuildSideName(BuildSide b) { return NameOf(kBuildSides, b); }
std::string_view JoinHintName(JoinHint h) { return NameOf(kHints, h); }

std::optional<PlanOp> ParsePlanOp(std::string_view s) { return Lookup(kOps, s); }
std::optional<ShuffleOrigin> ParseShuffleOrigin(std::string_view s) { return Lookup(kOrigins, s); }
std::optional<JoinStrategy> ParseJoinStrategy(std::string_view s) { return Lookup(kStrategies, s); }

std::optional<JoinType> ParseJoinType(std::string_view s) {
  if (auto t = Lookup(kJoinTypes, s)) return t;
  std::string key;
  for (char c : s)
    if (c != '_') key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return Lookup(kJoinTypeAliases, key);
}

std::optional<BuildSide> ParseBuildSide(std::string_view s) { return Lookup(kBuildSides, s); }

std::optional<JoinHint> ParseJoinHint(std::string_view s) {
  std::string upper(s);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return Lookup(kHintAliases, upper);
}

std::unique_ptr<PlanNode> ClonePlan(const PlanNode& node) {
  auto copy = std::make_unique<PlanNode>();
  // Copy every field but the children, then clone those.
  copy->op = node.op;
  copy->id = node.id;
  copy->pointer = node.pointer;
  copy->scan_bytes = node.scan_bytes;
  copy->rows = node.rows;
  copy->tasks = node.tasks;
  copy->task_bytes = node.task_bytes;
  copy->bucketing = node.bucketing;
  copy->key_distribution = node.key_distribution;
  copy->partitioning = node.partitioning;
  copy->global_sort = node.global_sort;
  copy->selectivity = node.selectivity;
  copy->estimated_bytes = node.estimated_bytes;
  copy->num_partitions = node.num_partitions;
  copy->origin = node.origin;
  copy->sizes = node.sizes;
  copy->rows_by_partition = node.rows_by_partition;
  copy->data_size_bytes = node.data_size_bytes;
  copy->reported_size_ratio = node.reported_size_ratio;
  copy->advisory_partition_size_bytes = node.advisory_partition_size_bytes;
  copy->single_partition = node.single_partition;
  copy->strategy = node.strategy;
  copy->join_type = node.join_type;
  copy->build_side = node.build_side;
  copy->left_hint = node.left_hint;
  copy->right_hint = node.right_hint;
  copy->left_keys = node.left_keys;
  copy->right_keys = node.right_keys;
  copy->grouped = node.grouped;
  copy->grouping_keys = node.grouping_keys;
  copy->partial_aggregate = node.partial_aggregate;
  copy->children.reserve(node.children.size());
  for (const auto& child : node.children) copy->children.push_back(ClonePlan(*child));
  return copy;
}

}  // namespace aqesim
