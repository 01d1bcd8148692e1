#include "models/scenario/bucketing_reader.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace aqesim {
namespace {

// A non-empty array of distinct, non-empty column names.
std::optional<std::vector<std::string>> ReadKeys(const Json& v, const std::string& pointer,
                                                 DiagnosticSink* sink) {
  if (!v.is_array() || v.empty() || v.size() > 1000) {
    sink->Error(pointer,
                "expected a non-empty array of column names (at most 1000), found " + DescribeJson(v));
    return std::nullopt;
  }
  std::vector<std::string> out;
  std::set<std::string> seen;
  bool ok = true;
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string p = PointerAppend(pointer, i);
    std::optional<std::string> k = ReadString(v[i], p, sink);
    if (!k) {
      ok = false;
    } else if (k->empty()) {
      sink->Error(p, "expected a non-empty column name, found \"\"");
      ok = false;
    } else if (!seen.insert(*k).second) {
      sink->Error(p, "expected distinct column names, found " + Json(*k).dump() + " twice");
      ok = false;
    } else {
      out.push_back(*k);
    }
  }
  if (!ok) return std::nullopt;
  return out;
}

void ReadBucketBytes(const Json& v, const std::string& pointer, BucketSpec* spec, int64_t scan_bytes,
                     DiagnosticSink* sink) {
  if (!v.is_array() || v.size() != static_cast<size_t>(spec->num_buckets)) {
    sink->Error(pointer, "expected an array of " + std::to_string(spec->num_buckets) +
                             " byte counts, one per bucket (numBuckets), found " + DescribeJson(v));
    return;
  }
  std::vector<int64_t> out;
  int64_t sum = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    std::optional<int64_t> b = ReadByteCount(v[i], PointerAppend(pointer, i), {}, sink);
    if (!b) return;
    if (__builtin_add_overflow(sum, *b, &sum)) {
      sink->Error(pointer, "expected byte counts whose sum fits in 63 bits, found a larger sum");
      return;
    }
    out.push_back(*b);
  }
  if (sum != scan_bytes) {
    sink->Error(pointer, "expected byte counts summing to the scan's bytes (" + std::to_string(scan_bytes) +
                             "), found a sum of " + std::to_string(sum));
    return;
  }
  spec->bucket_bytes = std::move(out);
}

}  // namespace

void ReadBucketing(const Json& v, PlanNode* scan, DiagnosticSink* sink) {
  const std::string pointer = PointerAppend(scan->pointer, "bucketing");
  if (!v.is_object()) {
    sink->Error(pointer, "expected an object {\"keys\": [...], \"numBuckets\": N}, found " + DescribeJson(v));
    return;
  }
  CheckFields(v, pointer, {"keys", "numBuckets", "sorted", "bucketBytes"}, "a scan's bucketing", sink);
  BucketSpec spec;
  bool ok = true;
  for (const char* f : {"keys", "numBuckets"}) {
    if (!v.contains(f)) {
      sink->Error(pointer, "missing field \"" + std::string(f) + "\" of a scan's bucketing");
      ok = false;
    }
  }
  if (v.contains("keys")) {
    if (auto k = ReadKeys(v["keys"], PointerAppend(pointer, "keys"), sink))
      spec.keys = std::move(*k);
    else
      ok = false;
  }
  if (v.contains("numBuckets")) {
    if (auto n = ReadInteger(v["numBuckets"], PointerAppend(pointer, "numBuckets"), 1, kMaxBuckets,
                             "a positive integer, at most " + std::to_string(kMaxBuckets) +
                                 " (spark.sql.sources.bucketing.maxBuckets)",
                             sink))
      spec.num_buckets = static_cast<int>(*n);
    else
      ok = false;
  }
  if (v.contains("sorted")) {
    if (auto s = ReadBool(v["sorted"], PointerAppend(pointer, "sorted"), sink))
      spec.sorted = *s;
    else
      ok = false;
  }
  if (ok && v.contains("bucketBytes"))
    ReadBucketBytes(v["bucketBytes"], PointerAppend(pointer, "bucketBytes"), &spec, scan->scan_bytes, sink);
  if (ok) scan->bucketing = std::move(spec);
}

void ReadJoinKeys(const Json& v, PlanNode* join, DiagnosticSink* sink) {
  const std::string& p = join->pointer;
  const bool both = v.contains("keys"), left = v.contains("leftKeys"), right = v.contains("rightKeys");
  if (both && (left || right)) {
    sink->Error(PointerAppend(p, left ? "leftKeys" : "rightKeys"),
                "expected either \"keys\" (both sides) or \"leftKeys\" with \"rightKeys\", found both");
    return;
  }
  if (both) {
    if (auto k = ReadKeys(v["keys"], PointerAppend(p, "keys"), sink)) join->left_keys = join->right_keys = *k;
    return;
  }
  if (left != right) {
    sink->Error(p, std::string("missing field \"") + (left ? "rightKeys" : "leftKeys") + "\" beside \"" +
                       (left ? "leftKeys" : "rightKeys") + "\" of a join node");
    return;
  }
  if (!left) return;
  auto l = ReadKeys(v["leftKeys"], PointerAppend(p, "leftKeys"), sink);
  auto r = ReadKeys(v["rightKeys"], PointerAppend(p, "rightKeys"), sink);
  if (!l || !r) return;
  if (l->size() != r->size()) {
    sink->Error(PointerAppend(p, "rightKeys"), "expected as many keys as \"leftKeys\" (" +
                                                   std::to_string(l->size()) + "), found " +
                                                   std::to_string(r->size()));
    return;
  }
  join->left_keys = std::move(*l);
  join->right_keys = std::move(*r);
}

void ReadAggregateMode(const Json& v, PlanNode* aggregate, DiagnosticSink* sink) {
  if (!v.contains("mode")) return;
  const std::string p = PointerAppend(aggregate->pointer, "mode");
  if (auto m = ReadString(v["mode"], p, sink)) {
    if (*m == "partial" || *m == "final") {
      aggregate->partial_aggregate = *m == "partial";
    } else {
      sink->Error(p, "expected \"partial\" or \"final\", found " + DescribeJson(v["mode"]));
    }
  }
}

void ReadGroupingKeys(const Json& v, PlanNode* aggregate, DiagnosticSink* sink) {
  if (!v.contains("keys")) return;
  const std::string p = PointerAppend(aggregate->pointer, "keys");
  if (!aggregate->grouped) {
    sink->Error(p, "expected no grouping keys on a global aggregate (\"grouped\": false), found " +
                       DescribeJson(v["keys"]));
    return;
  }
  if (auto k = ReadKeys(v["keys"], p, sink)) aggregate->grouping_keys = std::move(*k);
}

}  // namespace aqesim
