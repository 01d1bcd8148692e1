// The importer's subqueries (tools/eventlog/subquery_import.cc) against the events of NDS q72's
// SQL execution 24 (tests/data/eventlogs/nds_q72_dataproc_2_2_execution24.zstd), read by hand:
// the initial plan's catalog_sales scan has a SubqueryAdaptiveBroadcast child
// (dynamicpruning#918 over date_dim's Project [d_date_sk, d_date, d_week_seq]) and its Filter two
// Subquery children over bloom_filter_agg (subquery#921: customer_demographics; #924:
// household_demographics). Stages, by the SQL metrics their tasks update: 31 ran #921's partial
// aggregate (its Exchange SinglePartition's "shuffle bytes written"), 44 its final
// ObjectHashAggregate; 32 and 42 the same for #924; 34 collected date_dim for the broadcast of
// the join on cs_sold_date_sk; 45 scanned catalog_sales.
// StageSubmitted / StageCompleted: 31 done 1751493960483, 44 submitted ...60492 (0.009 s after);
// 32 done ...60114, 42 submitted ...60144 (0.030 s); 42 done ...60628, 44 done ...60701, 34 done
// ...59959, 37 (item's broadcast) done ...60865, 45 submitted ...61008.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"
#include "tests/tools/eventlog/test_util.h"
#include "tools/eventlog/scenario_import.h"
#include "tools/eventlog/stage_profile_import.h"

namespace aqesim::eventlog {
namespace {

using nlohmann::json;

TEST_CASE("ImportScenario: q72's bloom filters and pruning subquery gate the catalog_sales scan",
          "[eventlog][subquery]") {
  const RecordedApplication app =
      ReadEventLog(testing::Fixture("nds_q72_dataproc_2_2_execution24.zstd"), nullptr);
  std::vector<std::string> warnings;
  const ImportedScenario imported = ImportScenario(app, ImportOptions{}, &warnings);
  REQUIRE(imported.execution_id == 24);
  const json& doc = imported.scenario;
  // s1 is the catalog_sales scan: the first scan in pre-order, read by stage 45.
  CHECK(doc.at("plan").dump().find("\"id\":\"s1\"") != std::string::npos);

  REQUIRE(imported.subqueries.size() == 3);
  const ImportedSubquery& cd = imported.subqueries[0];
  CHECK(cd.id == "sq1");
  CHECK(cd.kind == "bloomFilter");
  CHECK(cd.gates == std::vector<std::string>{"s1"});
  CHECK(cd.result_stage_id == 44);
  CHECK_FALSE(cd.reuses_broadcast);
  const ImportedSubquery& hd = imported.subqueries[1];
  CHECK(hd.kind == "bloomFilter");
  CHECK(hd.result_stage_id == 42);
  const ImportedSubquery& dpp = imported.subqueries[2];
  CHECK(dpp.kind == "dynamicPruning");
  CHECK(dpp.gates == std::vector<std::string>{"s1"});
  REQUIRE(dpp.reuses_broadcast);
  CHECK_FALSE(dpp.result_stage_id);
  // The join it reuses is the one whose build stage collected date_dim.
  bool found = false;
  for (const ImportedJoin& j : imported.joins)
    if (j.id == *dpp.reuses_broadcast) found = j.build_stage_id == 34;
  CHECK(found);

  // Each bloom filter's plan: a global aggregate over a single-partition exchange over its scan;
  // the exchange's map stage is the recorded one.
  const json& sq1 = doc.at("subqueries").at(0);
  CHECK(sq1.at("plan").at("op") == "aggregate");
  CHECK(sq1.at("plan").at("grouped") == false);
  const json& exchange = sq1.at("plan").at("child");
  CHECK(exchange.at("singlePartition") == true);
  for (const ImportedExchange& ex : imported.exchanges)
    if (ex.id == exchange.at("id").get<std::string>()) CHECK(ex.map_stage_id == 31);
  CHECK(doc.at("subqueries").at(2).at("reusesBroadcast") == *dpp.reuses_broadcast);
  CHECK_FALSE(doc.at("subqueries").at(2).contains("plan"));

  // Profiles: the final stages by name, their gaps after their map stages.
  const json& profiles = doc.at("profiles");
  CHECK(profiles.at("sq1 result").at("recordedStage") == 44);
  CHECK(profiles.at("sq1 result").at("submitGapSeconds").get<double>() == Approx(0.009));
  CHECK(profiles.at("sq2 result").at("recordedStage") == 42);
  CHECK(profiles.at("sq2 result").at("submitGapSeconds").get<double>() == Approx(0.030));
  // The scan's stage waits for both bloom filters and the broadcast (latest: 44 at ...60701);
  // the driver evidently also waited for item's broadcast (37 at ...60865): 0.143 s after it.
  const auto parents = ScenarioStageParents(doc);
  std::string scan_stage;
  for (const auto& [name, p] : profiles.items())
    if (p.at("recordedStage") == 45) scan_stage = name;
  REQUIRE(!scan_stage.empty());
  const std::vector<std::string>& waits = parents.at(scan_stage);
  for (const std::string& gate :
       {std::string("sq1 result"), std::string("sq2 result"), *dpp.reuses_broadcast + " broadcast"})
    CHECK(std::find(waits.begin(), waits.end(), gate) != waits.end());
  CHECK(profiles.at(scan_stage).at("submitGapSeconds").get<double>() == Approx(0.143));

  // The scenario loads.
  json loadable = doc;
  loadable.erase("estimated");
  const LoadResult loaded = LoadScenarioJson(loadable, "q72.json", {});
  for (const auto& e : loaded.errors) UNSCOPED_INFO(e.ToString());
  REQUIRE(loaded.errors.empty());
  REQUIRE(loaded.scenario->subqueries.size() == 3);
  CHECK(loaded.scenario->subqueries[2].kind == SubqueryKind::kDynamicPruning);
}

}  // namespace
}  // namespace aqesim::eventlog
