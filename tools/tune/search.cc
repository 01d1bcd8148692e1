#include "tools/tune/search.h"

#include <dlib/global_optimization/global_function_search.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <thread>

namespace aqesim::tune {

namespace {

std::string PointKey(const std::vector<std::string>& values) {
  std::string key;
  for (const std::string& v : values) key += v + '\x1f';
  return key;
}

// Points of the space, or 0 when a decimal axis makes it uncountable (saturating).
uint64_t SpaceSize(const std::vector<SpaceAxis>& axes) {
  uint64_t n = 1;
  for (const SpaceAxis& a : axes) {
    const uint64_t c = a.Cardinality();
    if (c == 0) return 0;
    if (n > UINT64_MAX / c) return UINT64_MAX;
    n *= c;
  }
  return n;
}

// Evaluates `points` on up to `threads` threads; results in the order of `points`.
std::vector<Evaluation> EvaluateAll(const std::vector<std::vector<std::string>>& points, int threads,
                                    const Objective& objective) {
  std::vector<Evaluation> out(points.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < points.size();) {
      out[i] = objective(points[i]);
      out[i].values = points[i];
    }
  };
  const int n = std::max(1, std::min<int>(threads, static_cast<int>(points.size())));
  std::vector<std::thread> pool;
  for (int t = 1; t < n; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  return out;
}

// Index of the best evaluation (least objective, earliest on a tie), -1 when none is finite.
int BestIndex(const std::vector<Evaluation>& evaluations) {
  int best = -1;
  for (size_t i = 0; i < evaluations.size(); ++i) {
    const double y = evaluations[i].objective;
    if (std::isfinite(y) && (best < 0 || y < evaluations[static_cast<size_t>(best)].objective))
      best = static_cast<int>(i);
  }
  return best;
}

// The neighbourhood phase (file comment): from the best point, every searched variable one step
// down and up, all evaluated as one batch; move to the best neighbour when it is better, else
// halve the steps of the variables that are not choices, until no step changes a value or the
// budget is spent.
void Neighbourhood(const SearchSpec& spec, const SpaceEncoding& enc, int budget, uint64_t space_size,
                   const Objective& objective, std::map<std::string, size_t>* seen, SearchResult* result) {
  int best = BestIndex(result->evaluations);
  if (best < 0) return;
  const size_t n = enc.lower.size();
  std::vector<double> step(n);
  for (size_t v = 0; v < n; ++v) {
    const double width = enc.upper[v] - enc.lower[v];
    step[v] = enc.is_integer[v] ? std::max(1.0, std::round(width / kInitialStepDivisions))
                                : width / kInitialStepDivisions;
  }
  const auto is_choice = [&](size_t v) {
    for (size_t a = 0; a < spec.axes.size(); ++a)
      if (enc.variable_of_axis[a] == static_cast<int>(v))
        return spec.axes[a].kind == SpaceAxis::Kind::kChoice;
    return false;
  };
  while (static_cast<int>(result->evaluations.size()) < budget) {
    if (space_size != 0 && seen->size() >= space_size) return;
    const std::vector<std::string>& centre = result->evaluations[static_cast<size_t>(best)].values;
    const std::vector<double> x = EncodeValues(spec.axes, enc, centre);
    std::vector<std::vector<std::string>> neighbours;
    for (size_t v = 0; v < n; ++v) {
      for (const double sign : {-1.0, 1.0}) {
        std::vector<double> y = x;
        y[v] = std::clamp(y[v] + sign * step[v], enc.lower[v], enc.upper[v]);
        std::vector<std::string> values = Decode(spec.axes, enc, y);
        if (values != centre && std::find(neighbours.begin(), neighbours.end(), values) == neighbours.end())
          neighbours.push_back(std::move(values));
      }
    }
    if (neighbours.empty()) return;  // every step is below a value's resolution
    std::vector<std::vector<std::string>> fresh;
    for (const auto& values : neighbours)
      if (!seen->count(PointKey(values))) fresh.push_back(values);
    const size_t room = static_cast<size_t>(budget) - result->evaluations.size();
    if (fresh.size() > room) fresh.resize(room);
    for (Evaluation& e : EvaluateAll(fresh, spec.threads, objective)) {
      seen->emplace(PointKey(e.values), result->evaluations.size());
      result->evaluations.push_back(std::move(e));
    }
    ++result->requests;
    const int now = BestIndex(result->evaluations);
    if (result->evaluations[static_cast<size_t>(now)].objective <
        result->evaluations[static_cast<size_t>(best)].objective) {
      best = now;
      continue;
    }
    bool refined = false;
    for (size_t v = 0; v < n; ++v) {
      if (is_choice(v)) continue;
      const double half = enc.is_integer[v] ? std::floor(step[v] / 2) : step[v] / 2;
      if (half >= (enc.is_integer[v] ? 1.0 : 1e-9 * (enc.upper[v] - enc.lower[v]))) {
        step[v] = half;
        refined = true;
      }
    }
    if (!refined) return;
  }
}

// The optimiser's phase: a global_function_search told every evaluation made so far (its seed
// the given one plus the round, so a second round does not repeat the first's random points),
// asked for kBatch points at a time until `target` evaluations or `max_requests` proposals.
void GlobalPhase(const SearchSpec& spec, const SpaceEncoding& enc, int target, int64_t max_requests,
                 uint64_t round, uint64_t space_size, const Objective& objective,
                 std::map<std::string, size_t>* seen, SearchResult* result) {
  const long n = static_cast<long>(enc.lower.size());
  dlib::matrix<double, 0, 1> lower(n);
  dlib::matrix<double, 0, 1> upper(n);
  for (long i = 0; i < n; ++i) {
    lower(i) = enc.lower[static_cast<size_t>(i)];
    upper(i) = enc.upper[static_cast<size_t>(i)];
  }
  // Failed points count as twice the worst value seen: dlib's model needs finite values.
  const auto penalty = [&] {
    double worst = 0;
    bool any = false;
    for (const Evaluation& e : result->evaluations) {
      if (!std::isfinite(e.objective)) continue;
      worst = any ? std::max(worst, e.objective) : e.objective;
      any = true;
    }
    return any ? 2 * std::fabs(worst) + 1 : 1e6;
  };
  const auto told = [&](const Evaluation& e) {
    return -(std::isfinite(e.objective) ? e.objective : penalty());
  };
  std::vector<dlib::function_evaluation> known;
  for (const Evaluation& e : result->evaluations) {
    const std::vector<double> x = EncodeValues(spec.axes, enc, e.values);
    dlib::matrix<double, 0, 1> xm(n);
    for (long i = 0; i < n; ++i) xm(i) = x[static_cast<size_t>(i)];
    known.emplace_back(xm, told(e));  // dlib maximises
  }
  dlib::global_function_search optimiser({dlib::function_spec(lower, upper, enc.is_integer)}, {known});
  optimiser.set_seed(static_cast<time_t>(spec.seed + round));
  while (static_cast<int>(result->evaluations.size()) < target && result->requests < max_requests) {
    if (space_size != 0 && seen->size() >= space_size) return;
    const int want = std::min(kBatch, target - static_cast<int>(result->evaluations.size()));
    std::vector<dlib::function_evaluation_request> requests;
    std::vector<std::vector<std::string>> request_values;
    std::vector<std::vector<std::string>> fresh;
    for (int k = 0; k < want; ++k) {
      requests.push_back(optimiser.get_next_x());
      ++result->requests;
      const dlib::matrix<double, 0, 1>& x = requests.back().x();
      std::vector<std::string> values = Decode(spec.axes, enc, std::vector<double>(x.begin(), x.end()));
      if (!seen->count(PointKey(values)) && std::find(fresh.begin(), fresh.end(), values) == fresh.end())
        fresh.push_back(values);
      request_values.push_back(std::move(values));
    }
    for (Evaluation& e : EvaluateAll(fresh, spec.threads, objective)) {
      seen->emplace(PointKey(e.values), result->evaluations.size());
      result->evaluations.push_back(std::move(e));
    }
    for (size_t k = 0; k < requests.size(); ++k)
      requests[k].set(told(result->evaluations[seen->at(PointKey(request_values[k]))]));
    if (spec.progress) spec.progress(static_cast<int>(result->evaluations.size()), spec.budget);
  }
}

}  // namespace

SearchResult Search(const SearchSpec& spec, const Objective& objective) {
  SearchResult result;
  const SpaceEncoding enc = Encode(spec.axes);
  const uint64_t space_size = SpaceSize(spec.axes);
  const int budget = std::max(1, spec.budget);
  std::map<std::string, size_t> seen;  // point → index in result.evaluations

  if (enc.lower.empty()) {  // nothing to search: the one point
    result.evaluations = EvaluateAll({Decode(spec.axes, enc, {})}, 1, objective);
    result.requests = 1;
    result.exhausted = true;
    result.best = std::isfinite(result.evaluations[0].objective) ? 0 : -1;
    return result;
  }

  const int64_t max_requests = static_cast<int64_t>(kMaxRequestsPerEvaluation) * budget;
  int target = std::max(1, static_cast<int>(std::ceil(budget * kGlobalShare)));
  for (uint64_t round = 0;; ++round) {
    GlobalPhase(spec, enc, target, max_requests, round, space_size, objective, &seen, &result);
    Neighbourhood(spec, enc, budget, space_size, objective, &seen, &result);
    const int done = static_cast<int>(result.evaluations.size());
    if (done >= budget || (space_size != 0 && seen.size() >= space_size) || result.requests >= max_requests)
      break;
    // Stuck in a basin with budget left: the optimiser again, told every point evaluated so far.
    target = std::min(budget, done + std::max(kBatch, (budget - done + 1) / 2));
  }
  if (space_size != 0 && seen.size() >= space_size) result.exhausted = true;
  result.best = BestIndex(result.evaluations);
  return result;
}

}  // namespace aqesim::tune
