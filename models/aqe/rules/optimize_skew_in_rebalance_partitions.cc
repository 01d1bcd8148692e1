#include "models/aqe/rules/optimize_skew_in_rebalance_partitions.h"

#include <string>

#include "models/plan/plan_queries.h"
#include "models/plan/stage_walk.h"
#include "models/shuffle/shuffle_partitions_util.h"

namespace aqesim {

bool OptimizeSkewInRebalancePartitions::Enabled(const SqlConf& conf) const {
  return conf.optimize_skews_in_rebalance_partitions_enabled;
}

RuleOutcome OptimizeSkewInRebalancePartitions::Apply(const RuleContext& ctx, ExecNode* plan) const {
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
    bool any_large = false;
    for (int64_t b : bytes) any_large |= b > advisory;
    if (!any_large) continue;
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
    if (specs.size() == bytes.size()) continue;
    Decision dec;
    dec.rule = std::string(name());
    dec.message = read->id + ": " + std::to_string(split) + " partitions above " + FormatBytes(advisory) +
                  " split, " + std::to_string(bytes.size()) + " → " + std::to_string(specs.size()) +
                  " partitions";
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
