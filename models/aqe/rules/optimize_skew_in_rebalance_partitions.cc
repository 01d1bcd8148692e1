#include "models/aqe/rules/optimize_skew_in_rebalance_partitions.h"

#include <algorithm>
#include <memory>
#include <string>

#include "models/plan/plan_queries.h"
#include "models/plan/stage_walk.h"
#include "models/shuffle/shuffle_partitions_util.h"

namespace aqesim {

bool OptimizeSkewInRebalancePartitions::Enabled(const SqlConf& conf) const {
  return conf.optimize_skews_in_rebalance_partitions_enabled;
}

namespace {

NotApplied Entry(const RuleContext& ctx, const ExecNode& read, std::string reason, std::string message,
                 nlohmann::json numbers) {
  NotApplied n;
  n.rule = "OptimizeSkewInRebalancePartitions";
  n.target = read.id;
  n.reason = std::move(reason);
  n.message = read.id + ": " + std::move(message);
  n.at = ctx.now;
  n.numbers = std::move(numbers);
  return n;
}

}  // namespace

std::vector<NotApplied> OptimizeSkewInRebalancePartitions::WhatDisabledSkips(const RuleContext& ctx,
                                                                             ExecNode* plan) const {
  // What Apply would split, on a copy of the reads' specs (the plan is not modified).
  std::unique_ptr<ExecNode> copy = ClonePlan(*plan);
  const RuleOutcome would = Run(ctx, copy.get());
  std::vector<NotApplied> out;
  for (const Decision& d : would.decisions) {
    NotApplied n;
    n.rule = std::string(name());
    n.target = d.fields.value("exchange", "");
    n.reason = "rebalanceSkewDisabled";
    n.message = n.target +
                ": spark.sql.adaptive.optimizeSkewsInRebalancePartitions.enabled=false: would split " +
                Counted(d.fields.value("skewedPartitions", 0), "partition") + " above the advisory size, " +
                std::to_string(d.fields.value("partitionsBefore", 0)) + " → " +
                Counted(d.fields.value("partitionsAfter", 0), "partition");
    n.at = ctx.now;
    n.numbers = {{"skewedPartitions", d.fields.value("skewedPartitions", 0)},
                 {"partitionsBefore", d.fields.value("partitionsBefore", 0)},
                 {"partitionsAfter", d.fields.value("partitionsAfter", 0)}};
    out.push_back(std::move(n));
  }
  return out;
}

RuleOutcome OptimizeSkewInRebalancePartitions::Apply(const RuleContext& ctx, ExecNode* plan) const {
  return Run(ctx, plan);
}

RuleOutcome OptimizeSkewInRebalancePartitions::Run(const RuleContext& ctx, ExecNode* plan) const {
  RuleOutcome outcome;
  for (ExecNode* read : StageReads(plan)) {
    const ShuffleOrigin o = read->origin();
    if (o != ShuffleOrigin::kRebalancePartitionsByNone && o != ShuffleOrigin::kRebalancePartitionsByCol)
      continue;
    if (!IsMaterializedShuffle(*read) || read->shuffle->read_specs) continue;
    const ShuffleData& d = *read->shuffle->data;
    const int64_t advisory = read->source && read->source->advisory_partition_size_bytes
                                 ? *read->source->advisory_partition_size_bytes
                                 : ctx.conf.advisory_partition_size_bytes;
    const std::vector<int64_t>& bytes = d.reported->BytesByPartitionId();
    if (bytes.empty()) continue;
    const size_t largest = static_cast<size_t>(std::max_element(bytes.begin(), bytes.end()) - bytes.begin());
    if (bytes[largest] <= advisory) {
      outcome.not_applied.push_back(Entry(
          ctx, *read, "belowAdvisorySize",
          "no partition above the advisory size: the largest, " + std::to_string(largest) + ", is " +
              FormatBytes(bytes[largest]) + " <= " + FormatBytes(advisory),
          {{"partition", largest}, {"bytes", bytes[largest]}, {"advisoryPartitionSizeBytes", advisory}}));
      continue;
    }
    std::vector<ShufflePartitionSpec> specs;
    int split = 0;
    for (int r = 0; r < static_cast<int>(bytes.size()); ++r) {
      if (bytes[r] > advisory) {
        const std::vector<int64_t> map_sizes = d.reported->MapSizesForReducer(r);
        auto s = CreateSkewPartitionSpecs(r, map_sizes, advisory,
                                          ctx.conf.rebalance_partitions_small_partition_factor);
        if (s) {
          for (auto& p : *s) specs.push_back(p);
          ++split;
          continue;
        }
      }
      specs.push_back(CoalescedPartitionSpec{r, r + 1, bytes[r]});
    }
    if (specs.size() == bytes.size()) {
      outcome.not_applied.push_back(Entry(ctx, *read, "singleMapPartition",
                                          "partition " + std::to_string(largest) + " (" +
                                              FormatBytes(bytes[largest]) + ") is above the advisory size " +
                                              FormatBytes(advisory) +
                                              " but its map outputs do not split into more than one range (" +
                                              Counted(d.reported->num_maps(), "map task") + ")",
                                          {{"partition", largest},
                                           {"bytes", bytes[largest]},
                                           {"advisoryPartitionSizeBytes", advisory},
                                           {"mapTasks", d.reported->num_maps()}}));
      continue;
    }
    Decision dec;
    dec.rule = std::string(name());
    dec.message = read->id + ": " + Counted(split, "partition") + " above " + FormatBytes(advisory) +
                  " split, " + std::to_string(bytes.size()) + " → " +
                  Counted(static_cast<int64_t>(specs.size()), "partition");
    dec.at = ctx.now;
    dec.fields = {{"exchange", read->id},
                  {"skewedPartitions", split},
                  {"partitionsBefore", bytes.size()},
                  {"partitionsAfter", specs.size()}};
    read->shuffle->read_specs = std::move(specs);
    outcome.decisions.push_back(std::move(dec));
    outcome.changed = true;
  }
  return outcome;
}

}  // namespace aqesim
