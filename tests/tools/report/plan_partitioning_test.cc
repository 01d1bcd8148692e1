#include "tools/report/plan_partitioning.h"

#include <catch2/catch.hpp>
#include <memory>

namespace aqesim::report {
namespace {

std::unique_ptr<PlanNode> Scan(const std::string& id) {
  auto n = std::make_unique<PlanNode>();
  n->op = PlanOp::kScan;
  n->id = id;
  return n;
}

std::unique_ptr<PlanNode> Exchange(const std::string& id, std::unique_ptr<PlanNode> child,
                                   std::optional<int> num_partitions = std::nullopt) {
  auto n = std::make_unique<PlanNode>();
  n->op = PlanOp::kExchange;
  n->id = id;
  n->num_partitions = num_partitions;
  n->children.push_back(std::move(child));
  return n;
}

std::unique_ptr<PlanNode> Join(const std::string& id, JoinStrategy strategy, std::unique_ptr<PlanNode> left,
                               std::unique_ptr<PlanNode> right) {
  auto n = std::make_unique<PlanNode>();
  n->op = PlanOp::kJoin;
  n->id = id;
  n->strategy = strategy;
  n->children.push_back(std::move(left));
  n->children.push_back(std::move(right));
  return n;
}

std::unique_ptr<PlanNode> Aggregate(std::unique_ptr<PlanNode> child) {
  auto n = std::make_unique<PlanNode>();
  n->op = PlanOp::kAggregate;
  n->id = "a1";
  n->children.push_back(std::move(child));
  return n;
}

TEST_CASE("PartitioningOfShuffles: a sort-merge join pins a configured side to a fixed one", "[report]") {
  const auto plan = Join("j1", JoinStrategy::kSortMerge, Exchange("e1", Scan("s1"), 200),
                         Aggregate(Exchange("e2", Scan("s2"))));
  const auto p = PartitioningOfShuffles(*plan);
  REQUIRE(p.size() == 2);
  CHECK(p.at("e1").fixed);
  CHECK(p.at("e1").pinned_by.empty());
  CHECK_FALSE(p.at("e2").fixed);
  CHECK(p.at("e2").pinned_by == "e1");
}

TEST_CASE("PartitioningOfShuffles: configured sides, broadcast joins and unions pin nothing", "[report]") {
  SECTION("both sides configured") {
    const auto plan =
        Join("j1", JoinStrategy::kSortMerge, Exchange("e1", Scan("s1")), Exchange("e2", Scan("s2")));
    const auto p = PartitioningOfShuffles(*plan);
    CHECK(p.at("e1").pinned_by.empty());
    CHECK(p.at("e2").pinned_by.empty());
  }
  SECTION("a broadcast hash join needs no co-partitioning") {
    const auto plan =
        Join("j1", JoinStrategy::kBroadcastHash, Exchange("e1", Scan("s1"), 50), Exchange("e2", Scan("s2")));
    const auto p = PartitioningOfShuffles(*plan);
    CHECK(p.at("e1").fixed);
    CHECK(p.at("e2").pinned_by.empty());
  }
  SECTION("a sort-merge join above a broadcast join takes its streamed side's count") {
    const auto plan = Join(
        "j2", JoinStrategy::kSortMerge,
        Join("j1", JoinStrategy::kBroadcastHash, Exchange("e1", Scan("s1"), 50), Exchange("e2", Scan("s2"))),
        Exchange("e3", Scan("s3")));
    const auto p = PartitioningOfShuffles(*plan);
    CHECK(p.at("e3").pinned_by == "e1");
    CHECK(p.at("e2").pinned_by.empty());
  }
}

}  // namespace
}  // namespace aqesim::report
