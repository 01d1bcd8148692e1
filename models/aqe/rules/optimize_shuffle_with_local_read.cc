#include "models/aqe/rules/optimize_shuffle_with_local_read.h"

#include <string>

#include "models/plan/join_selection_helper.h"
#include "models/plan/plan_queries.h"
#include "models/plan/stage_walk.h"
#include "models/shuffle/local_read_specs.h"

namespace aqesim {

namespace {

bool CanReadLocally(const ExecNode& n) {
  if (!IsMaterializedShuffle(n) || n.single_partition()) return false;
  const ShuffleOrigin o = n.origin();
  if (n.shuffle->read_specs) return o == ShuffleOrigin::kEnsureRequirements;
  return o == ShuffleOrigin::kEnsureRequirements || o == ShuffleOrigin::kRebalancePartitionsByNone;
}

Decision LocalRead(const RuleContext& ctx, ExecNode* read, std::string_view rule, const std::string& why) {
  ShuffleData& d = *read->shuffle->data;
  const int before = read->shuffle->num_read_tasks();
  const int mappers = d.actual.num_maps();
  read->shuffle->read_specs = LocalShuffleReadSpecs(mappers, d.num_reducers, before);
  const int after = static_cast<int>(read->shuffle->read_specs->size());
  Decision dec;
  dec.rule = std::string(rule);
  dec.message = read->id + ": local shuffle read (" + why + "), " + std::to_string(before) + " → " +
                Counted(after, "task") + " over " + Counted(mappers, "mapper");
  dec.at = ctx.now;
  dec.fields = {
      {"exchange", read->id}, {"partitionsBefore", before}, {"partitionsAfter", after}, {"mappers", mappers}};
  return dec;
}

NotApplied WhyNot(const RuleContext& ctx, std::string_view rule, const ExecNode& read, std::string reason,
                  std::string message, nlohmann::json numbers) {
  NotApplied n;
  n.rule = std::string(rule);
  n.target = read.id;
  n.reason = std::move(reason);
  n.message = std::move(message);
  n.at = ctx.now;
  n.numbers = std::move(numbers);
  return n;
}

}  // namespace

std::vector<NotApplied> OptimizeShuffleWithLocalRead::WhatDisabledSkips(const RuleContext& ctx,
                                                                        ExecNode* plan) const {
  std::vector<NotApplied> out;
  VisitStageOperators(plan, [&](ExecNode* n) {
    if (!n->is_join() || n->join->strategy != JoinStrategy::kBroadcastHash) return;
    const ExecNode* probe = &StreamedChild(*n);
    if (!CanReadLocally(*probe) || PartitioningRequiredAbove(*n)) return;
    const int mappers = probe->shuffle->data->actual.num_maps();
    out.push_back(
        WhyNot(ctx, name(), *probe, "localReadDisabled",
               probe->id + " (probe side of " + n->id +
                   "): spark.sql.adaptive.localShuffleReader.enabled=false: would read its " +
                   Counted(probe->shuffle->num_read_tasks(), "partition") + " locally over " +
                   Counted(mappers, "mapper"),
               {{"join", n->id}, {"partitions", probe->shuffle->num_read_tasks()}, {"mappers", mappers}}));
  });
  return out;
}

bool OptimizeShuffleWithLocalRead::Enabled(const SqlConf& conf) const {
  return conf.local_shuffle_reader_enabled;
}

RuleOutcome OptimizeShuffleWithLocalRead::Apply(const RuleContext& ctx, ExecNode* plan) const {
  RuleOutcome outcome;
  if (CanReadLocally(*plan)) {
    // The plan handed to the rule is itself the shuffle: the child of a broadcast exchange
    // (build side of a converted join) or a root rebalance.
    outcome.decisions.push_back(LocalRead(ctx, plan, name(), "whole stage input"));
    outcome.changed = true;
    return outcome;
  }
  VisitStageOperators(plan, [&](ExecNode* n) {
    if (!n->is_join() || n->join->strategy != JoinStrategy::kBroadcastHash) return;
    ExecNode* probe = &StreamedChild(*n);
    if (!CanReadLocally(*probe)) {
      if (!IsMaterializedShuffle(*probe) || probe->single_partition()) return;  // not a shuffle read
      const std::string origin(ShuffleOriginName(probe->origin()));
      outcome.not_applied.push_back(WhyNot(
          ctx, name(), *probe, "probeNotLocalReadable",
          probe->id + " (probe side of " + n->id + "): a " +
              (probe->shuffle->read_specs ? "coalesced " : "") + origin +
              " shuffle: a local read keeps only ENSURE_REQUIREMENTS shuffles " +
              "(or an uncoalesced REBALANCE_PARTITIONS_BY_NONE), the partitioning the user asked for stays",
          {{"join", n->id}, {"origin", origin}, {"coalesced", probe->shuffle->read_specs.has_value()}}));
      return;
    }
    // Validation: the local read drops the shuffle's hash partitioning; revert if an
    // operator above relies on it.
    if (PartitioningRequiredAbove(*n)) {
      outcome.not_applied.push_back(WhyNot(
          ctx, name(), *probe, "partitioningRequiredAbove",
          probe->id + " (probe side of " + n->id + "): an operator above " + n->id + " in the stage needs " +
              probe->id + "'s hash partitioning: a local read would need an extra shuffle",
          {{"join", n->id}}));
      return;
    }
    outcome.decisions.push_back(LocalRead(ctx, probe, name(), "probe side of " + n->id));
    outcome.changed = true;
  });
  return outcome;
}

}  // namespace aqesim
