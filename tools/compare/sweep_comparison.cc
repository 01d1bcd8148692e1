#include "tools/compare/sweep_comparison.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "models/conf/property_value.h"
#include "tools/sweep/grid_value_key.h"
#include "tools/text/table_text.h"
#include "tools/text/terminal_text.h"

namespace aqesim::compare {
namespace {

std::string ValuesText(const std::vector<std::string>& keys, const std::vector<std::string>& values) {
  std::string out;
  for (size_t i = 0; i < keys.size() && i < values.size(); ++i)
    out += (i ? ", " : "") + keys[i] + "=" + values[i];
  return out;
}

std::string KeyList(std::vector<std::string> keys) {
  std::string out;
  for (const std::string& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

std::string SignedSeconds(double s) { return std::string(s >= 0 ? "+" : "") + Fixed(s, 3); }

std::string SignedPercent(double diff, double base) {
  if (base <= 0) return "";
  const double p = 100.0 * diff / base;
  return std::string(p >= 0 ? "+" : "") + Fixed(p, 1) + " %";
}

std::string Decisions(const sweep::SweepRow* r) {
  if (!r->metrics) return "failed";
  return std::to_string(r->metrics->coalescings) + "/" + std::to_string(r->metrics->skew_splits) + "/" +
         std::to_string(r->metrics->broadcast_conversions);
}

std::optional<size_t> Fastest(const std::vector<PointPair>& points, bool of_a) {
  std::optional<size_t> best;
  for (size_t i = 0; i < points.size(); ++i) {
    const sweep::SweepRow* r = of_a ? points[i].a : points[i].b;
    if (!r->metrics || r->metrics->failures > 0) continue;
    if (!best || r->metrics->makespan_seconds_aqe_on <
                     (of_a ? points[*best].a : points[*best].b)->metrics->makespan_seconds_aqe_on)
      best = i;
  }
  return best;
}

}  // namespace

std::optional<double> PointPair::difference_seconds() const {
  if (!a->metrics || !b->metrics) return std::nullopt;
  return b->metrics->makespan_seconds_aqe_on - a->metrics->makespan_seconds_aqe_on;
}

bool PointPair::decisions_differ() const { return Decisions(a) != Decisions(b); }

std::optional<SweepComparison> CompareSweeps(const sweep::SweepDocument& a, const std::string& a_path,
                                             const sweep::SweepDocument& b, const std::string& b_path,
                                             std::vector<std::string>* errors) {
  const size_t before = errors->size();
  SweepComparison c;
  for (const sweep::GridAxis& axis : a.info.grid) c.keys.push_back(axis.key);
  std::vector<std::string> b_keys;
  for (const sweep::GridAxis& axis : b.info.grid) b_keys.push_back(axis.key);
  std::vector<std::string> sa = c.keys, sb = b_keys;
  std::sort(sa.begin(), sa.end());
  std::sort(sb.begin(), sb.end());
  if (sa != sb) {
    errors->push_back(b_path + ": /sweep/grid: swept keys " + KeyList(b_keys) + ", not " + a_path + "'s " +
                      KeyList(c.keys) + " (compare matches points by their swept values)");
    return std::nullopt;
  }
  // B's values in A's key order.
  std::vector<size_t> b_index(c.keys.size());
  for (size_t i = 0; i < c.keys.size(); ++i)
    b_index[i] = static_cast<size_t>(std::find(b_keys.begin(), b_keys.end(), c.keys[i]) - b_keys.begin());
  auto b_values = [&](const sweep::SweepRow& r) {
    std::vector<std::string> v(c.keys.size());
    for (size_t i = 0; i < c.keys.size(); ++i) v[i] = r.values[b_index[i]];
    return v;
  };
  auto canonical = [](const std::vector<std::string>& values) {
    std::vector<std::string> out;
    for (const std::string& v : values) out.push_back(sweep::GridValueKey(v));
    return out;
  };
  std::map<std::vector<std::string>, size_t> in_b;  // canonical values -> row index
  for (size_t i = 0; i < b.rows.size(); ++i) {
    if (!in_b.emplace(canonical(b_values(b.rows[i])), i).second)
      errors->push_back(b_path + ": /rows/" + std::to_string(i) + ": point " +
                        std::to_string(b.rows[i].point) + " (" + ValuesText(c.keys, b_values(b.rows[i])) +
                        ") repeats an earlier point's values");
  }
  std::vector<bool> b_used(b.rows.size(), false);
  std::map<std::vector<std::string>, size_t> in_a;
  // At most this many unmatched points are named; the rest are counted.
  constexpr size_t kNamed = 5;
  size_t unmatched_a = 0, unmatched_b = 0;
  for (size_t i = 0; i < a.rows.size(); ++i) {
    const sweep::SweepRow& r = a.rows[i];
    const std::vector<std::string> key = canonical(r.values);
    if (!in_a.emplace(key, i).second) {
      errors->push_back(a_path + ": /rows/" + std::to_string(i) + ": point " + std::to_string(r.point) +
                        " (" + ValuesText(c.keys, r.values) + ") repeats an earlier point's values");
      continue;
    }
    auto it = in_b.find(key);
    if (it == in_b.end()) {
      if (unmatched_a++ < kNamed)
        errors->push_back(a_path + ": /rows/" + std::to_string(i) + ": point " + std::to_string(r.point) +
                          " (" + ValuesText(c.keys, r.values) + ") is not in " + b_path);
      continue;
    }
    b_used[it->second] = true;
    c.points.push_back({r.values, r.point, b.rows[it->second].point, &r, &b.rows[it->second]});
  }
  for (size_t i = 0; i < b.rows.size(); ++i) {
    if (b_used[i]) continue;
    if (unmatched_b++ < kNamed)
      errors->push_back(b_path + ": /rows/" + std::to_string(i) + ": point " +
                        std::to_string(b.rows[i].point) + " (" + ValuesText(c.keys, b_values(b.rows[i])) +
                        ") is not in " + a_path);
  }
  if (unmatched_a > kNamed)
    errors->push_back(a_path + ": " + std::to_string(unmatched_a - kNamed) + " more point(s) not in " +
                      b_path);
  if (unmatched_b > kNamed)
    errors->push_back(b_path + ": " + std::to_string(unmatched_b - kNamed) + " more point(s) not in " +
                      a_path);
  if (errors->size() > before) return std::nullopt;
  c.a_best = Fastest(c.points, true);
  c.b_best = Fastest(c.points, false);
  return c;
}

std::string SweepComparisonTable(const std::string& a_path, const std::string& b_path,
                                 const SweepComparison& c) {
  std::string out = "A: " + TerminalText(a_path) + "\nB: " + TerminalText(b_path) + "\n";
  out += WrapText(std::to_string(c.points.size()) + " points over " + TerminalText(KeyList(c.keys)) +
                      "; makespans with AQE on, modelled (a sweep's rows carry no band: `aqesim run` with a "
                      "point's values prints its own)",
                  160, 2) +
         "\n";
  std::vector<std::vector<std::string>> rows;
  size_t differ = 0;
  for (const PointPair& p : c.points) {
    std::string values;
    for (size_t i = 0; i < p.values.size(); ++i) values += (i ? ", " : "") + p.values[i];
    const std::optional<double> d = p.difference_seconds();
    differ += p.decisions_differ();
    rows.push_back(
        {TerminalText(values), p.a->metrics ? Fixed(p.a->metrics->makespan_seconds_aqe_on, 3) : "failed",
         p.b->metrics ? Fixed(p.b->metrics->makespan_seconds_aqe_on, 3) : "failed",
         d ? SignedSeconds(*d) : "", d ? SignedPercent(*d, p.a->metrics->makespan_seconds_aqe_on) : "",
         Decisions(p.a), Decisions(p.b), p.decisions_differ() ? "differ" : ""});
  }
  out +=
      TextTableWithin(160, 0, 16, {"values", "A s", "B s", "B − A s", "B − A", "A c/s/b", "B c/s/b", "AQE"},
                      std::move(rows), [](size_t i) { return i >= 1 && i <= 6; });
  out += "c/s/b: coalescings / skew splits / runtime broadcast conversions of the AQE-on run\n";
  auto best = [&](const char* label, const std::optional<size_t>& i, bool of_a) {
    if (!i) return std::string("fastest of ") + label + ": no point ran without failures\n";
    const PointPair& p = c.points[*i];
    const sweep::SweepRow* r = of_a ? p.a : p.b;
    return WrapText(std::string("fastest of ") + label + ": point " + std::to_string(r->point) + " (" +
                        TerminalText(ValuesText(c.keys, p.values)) + "), " +
                        Fixed(r->metrics->makespan_seconds_aqe_on, 3) + " s",
                    160, 4) +
           "\n";
  };
  out += best("A", c.a_best, true) + best("B", c.b_best, false);
  out += "AQE decisions differ at " + std::to_string(differ) + " of " + std::to_string(c.points.size()) +
         " points\n";
  return out;
}

nlohmann::json SweepComparisonJson(const std::string& a_path, const std::string& b_path,
                                   const SweepComparison& c) {
  using nlohmann::json;
  auto side = [](const sweep::SweepRow* r) {
    json s = {{"point", r->point}};
    if (r->metrics) {
      s["makespanSecondsAqeOn"] = r->metrics->makespan_seconds_aqe_on;
      s["makespanSecondsAqeOff"] = r->metrics->makespan_seconds_aqe_off;
      s["coalescings"] = r->metrics->coalescings;
      s["skewSplits"] = r->metrics->skew_splits;
      s["broadcastConversions"] = r->metrics->broadcast_conversions;
    } else {
      for (const char* k : {"makespanSecondsAqeOn", "makespanSecondsAqeOff", "coalescings", "skewSplits",
                            "broadcastConversions"})
        s[k] = nullptr;
      s["error"] = r->error;
    }
    return s;
  };
  auto values = [&](const std::vector<std::string>& v) {
    json o = json::object();
    for (size_t i = 0; i < c.keys.size() && i < v.size(); ++i) o[c.keys[i]] = v[i];
    return o;
  };
  json points = json::array();
  int differ = 0;
  for (const PointPair& p : c.points) {
    const std::optional<double> d = p.difference_seconds();
    differ += p.decisions_differ();
    points.push_back({{"values", values(p.values)},
                      {"a", side(p.a)},
                      {"b", side(p.b)},
                      {"differenceSeconds", d ? json(*d) : json(nullptr)},
                      {"decisionsDiffer", p.decisions_differ()}});
  }
  auto best = [&](const std::optional<size_t>& i, bool of_a) {
    if (!i) return json(nullptr);
    const PointPair& p = c.points[*i];
    const sweep::SweepRow* r = of_a ? p.a : p.b;
    return json{{"point", r->point},
                {"values", values(p.values)},
                {"makespanSeconds", r->metrics->makespan_seconds_aqe_on}};
  };
  return {{"a", a_path},
          {"b", b_path},
          {"keys", c.keys},
          {"band", nullptr},
          {"points", points},
          {"bestA", best(c.a_best, true)},
          {"bestB", best(c.b_best, false)},
          {"decisionsDiffer", differ}};
}

}  // namespace aqesim::compare
