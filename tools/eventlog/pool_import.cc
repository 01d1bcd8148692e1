#include "tools/eventlog/pool_import.h"

#include <map>
#include <string>

#include "tools/eventlog/scheduling_pools.h"

namespace aqesim::eventlog {

void ImportPools(const RecordedApplication &app, const std::vector<int> &stage_ids, nlohmann::json *doc) {
  const RecordedScheduling scheduling = ReadScheduling(app);
  if (!scheduling.fair) return;
  std::map<std::string, int> stages_by_pool;
  for (int id : stage_ids) {
    const RecordedStage *st = app.stage(id);
    if (st == nullptr || !st->job_id) continue;
    auto job = app.jobs.find(*st->job_id);
    if (job != app.jobs.end()) ++stages_by_pool[RecordedScheduling::PoolOf(job->second)];
  }
  std::string pool = "default";
  int most = 0;
  for (const auto &[name, n] : stages_by_pool) {
    if (n > most) {
      pool = name;
      most = n;
    }
  }
  if (pool != "default") (*doc)["conf"]["spark.scheduler.pool"] = pool;
  auto it = scheduling.pools.find(pool);
  const bool fair = it != scheduling.pools.end() && it->second.fair_observed;
  (*doc)["driver"]["pools"][pool] = {{"schedulingMode", fair ? "FAIR" : "FIFO"}};
}

}  // namespace aqesim::eventlog
