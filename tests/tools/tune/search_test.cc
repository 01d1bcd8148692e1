#include "tools/tune/search.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

namespace aqesim::tune {
namespace {

SpaceAxis Parse(const std::string& arg) {
  std::string error;
  return *ParseSpaceArg(arg, &error);
}

// A hand-made objective with its least value 0 at a=y, b=37 (values 1..50).
Evaluation Valley(const std::vector<std::string>& v) {
  Evaluation e;
  e.objective = std::fabs(std::stod(v[1]) - 37) + (v[0] == "y" ? 0 : 5);
  e.makespan_seconds = e.objective;
  return e;
}

TEST_CASE("Search finds the least point of an integer valley within the budget") {
  SearchSpec spec;
  spec.axes = {Parse("a=x,y,z"), Parse("b=1..50")};
  spec.budget = 40;  // of 150 points
  spec.threads = 1;
  const SearchResult r = Search(spec, Valley);
  REQUIRE(r.best >= 0);
  CHECK(r.evaluations[static_cast<size_t>(r.best)].values == std::vector<std::string>{"y", "37"});
  CHECK(r.evaluations[static_cast<size_t>(r.best)].objective == 0);
  CHECK(r.evaluations.size() <= 40);
  // Every evaluation is a distinct point.
  std::set<std::vector<std::string>> distinct;
  for (const Evaluation& e : r.evaluations) distinct.insert(e.values);
  CHECK(distinct.size() == r.evaluations.size());
}

TEST_CASE("Search gives the same trace for a seed at any thread count, another for another seed") {
  SearchSpec spec;
  spec.axes = {Parse("a=x,y,z"), Parse("b=1..50"), Parse("c=0.5..4")};
  spec.budget = 24;
  const auto trace = [&](int threads, uint64_t seed) {
    spec.threads = threads;
    spec.seed = seed;
    std::vector<std::vector<std::string>> points;
    for (const Evaluation& e : Search(spec, Valley).evaluations) points.push_back(e.values);
    return points;
  };
  const auto one = trace(1, 7);
  CHECK(one.size() == 24);
  CHECK(trace(3, 7) == one);
  CHECK(trace(8, 7) == one);
  CHECK(trace(1, 8) != one);
}

TEST_CASE("Search of a small space evaluates each point once and stops") {
  SearchSpec spec;
  spec.axes = {Parse("a=x,y"), Parse("b=36..38")};
  spec.budget = 100;
  std::atomic<int> calls{0};
  const SearchResult r = Search(spec, [&](const std::vector<std::string>& v) {
    ++calls;
    return Valley(v);
  });
  CHECK(calls == 6);
  CHECK(r.evaluations.size() == 6);
  CHECK(r.exhausted);
  CHECK(r.evaluations[static_cast<size_t>(r.best)].values == std::vector<std::string>{"y", "37"});
}

TEST_CASE("A point that fails is never the best; all failing gives no best") {
  SearchSpec spec;
  spec.axes = {Parse("a=x,y"), Parse("b=36..38")};
  const SearchResult r = Search(spec, [](const std::vector<std::string>& v) {
    Evaluation e = Valley(v);
    if (v[0] == "y") {
      e.objective = std::numeric_limits<double>::infinity();
      e.error = "fails";
    }
    return e;
  });
  CHECK(r.evaluations[static_cast<size_t>(r.best)].values == std::vector<std::string>{"x", "37"});
  const SearchResult none = Search(spec, [](const std::vector<std::string>&) {
    Evaluation e;
    e.error = "fails";
    return e;
  });
  CHECK(none.best == -1);
  CHECK(none.evaluations.size() == 6);
}

TEST_CASE("A space of fixed values is one evaluation") {
  SearchSpec spec;
  spec.axes = {Parse("a=y"), Parse("b=37")};
  const SearchResult r = Search(spec, Valley);
  REQUIRE(r.evaluations.size() == 1);
  CHECK(r.best == 0);
  CHECK(r.exhausted);
}

}  // namespace
}  // namespace aqesim::tune
