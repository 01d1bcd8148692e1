#include "models/shuffle/fetch_requests.h"

#include <algorithm>
#include <deque>
#include <map>

namespace aqesim {

int64_t FetchLimits::TargetRequestBytes() const { return std::max<int64_t>(max_bytes_in_flight / 5, 1); }

namespace {

/// Consecutive blocks of one map merged into one (batch fetch), else the blocks as they are.
std::vector<FetchBlock> Merged(const std::vector<FetchBlock>& blocks, bool batch) {
  if (!batch) return blocks;
  std::vector<FetchBlock> out;
  for (const FetchBlock& b : blocks) {
    if (!out.empty() && out.back().map == b.map) {
      out.back().bytes += b.bytes;
    } else {
      out.push_back(b);
    }
  }
  return out;
}

void Emit(int address, const std::vector<FetchBlock>& blocks, std::vector<FetchRequest>* out) {
  FetchRequest r{address, 0, static_cast<int64_t>(blocks.size())};
  for (const FetchBlock& b : blocks) r.bytes += b.bytes;
  out->push_back(r);
}

/// createFetchRequests: the request(s) of `cur`; returns the blocks put back (a short last
/// group of a request cut at maxBlocksInFlightPerAddress, when not the address's last).
std::vector<FetchBlock> Create(int address, const std::vector<FetchBlock>& cur, bool is_last,
                               const FetchLimits& limits, std::vector<FetchRequest>* out) {
  const std::vector<FetchBlock> merged = Merged(cur, limits.batch);
  const size_t group = static_cast<size_t>(std::max<int64_t>(limits.max_blocks_per_address, 1));
  std::vector<FetchBlock> back;
  if (merged.size() <= group) {
    Emit(address, merged, out);
    return back;
  }
  for (size_t i = 0; i < merged.size(); i += group) {
    const std::vector<FetchBlock> g(
        merged.begin() + static_cast<std::ptrdiff_t>(i),
        merged.begin() + static_cast<std::ptrdiff_t>(std::min(merged.size(), i + group)));
    if (g.size() == group || is_last) {
      Emit(address, g, out);
    } else {
      back.insert(back.end(), g.begin(), g.end());
    }
  }
  return back;
}

}  // namespace

void GroupAddressBlocks(int address, const std::vector<FetchBlock>& blocks, const FetchLimits& limits,
                        std::vector<FetchRequest>* out) {
  const int64_t target = limits.TargetRequestBytes();
  std::vector<FetchBlock> cur;
  int64_t cur_bytes = 0;
  for (const FetchBlock& b : blocks) {
    cur.push_back(b);
    cur_bytes += b.bytes;
    const bool may_exceed_max_blocks =
        !limits.batch && static_cast<int64_t>(cur.size()) >= limits.max_blocks_per_address;
    if (cur_bytes >= target || may_exceed_max_blocks) {
      cur = Create(address, cur, /*is_last=*/false, limits, out);
      cur_bytes = 0;
      for (const FetchBlock& c : cur) cur_bytes += c.bytes;
    }
  }
  if (!cur.empty()) Create(address, cur, /*is_last=*/true, limits, out);
}

int64_t FetchRounds(const std::vector<FetchRequest>& requests, const FetchLimits& limits) {
  std::deque<FetchRequest> queue(requests.begin(), requests.end());
  std::map<int, std::deque<FetchRequest>> deferred;  // per address, in address order
  int64_t rounds = 0;
  while (!queue.empty() || !deferred.empty()) {
    ++rounds;
    int64_t bytes_in_flight = 0, reqs_in_flight = 0;
    std::map<int, int64_t> blocks_in_flight;
    auto fetchable = [&](const FetchRequest& r) {
      return bytes_in_flight == 0 || (reqs_in_flight + 1 <= limits.max_reqs_in_flight &&
                                      bytes_in_flight + r.bytes <= limits.max_bytes_in_flight);
    };
    auto maxed_out = [&](const FetchRequest& r) {
      return blocks_in_flight[r.address] + r.blocks > limits.max_blocks_per_address;
    };
    auto send = [&](const FetchRequest& r) {
      bytes_in_flight += r.bytes;
      ++reqs_in_flight;
      blocks_in_flight[r.address] += r.blocks;
    };
    const int64_t sent_before = reqs_in_flight;
    for (auto it = deferred.begin(); it != deferred.end();) {
      std::deque<FetchRequest>& q = it->second;
      while (!q.empty() && fetchable(q.front()) && !maxed_out(q.front())) {
        send(q.front());
        q.pop_front();
      }
      it = q.empty() ? deferred.erase(it) : std::next(it);
    }
    while (!queue.empty() && fetchable(queue.front())) {
      const FetchRequest r = queue.front();
      queue.pop_front();
      if (maxed_out(r)) {
        deferred[r.address].push_back(r);
      } else {
        send(r);
      }
    }
    if (reqs_in_flight == sent_before) {
      // Nothing could go out (a request of more blocks than an address may have in flight:
      // not formed by the grouping above); it goes alone, as Spark would once it is alone.
      std::deque<FetchRequest>& q = deferred.begin()->second;
      q.pop_front();
      if (q.empty()) deferred.erase(deferred.begin());
    }
  }
  return rounds;
}

FetchPlan PlanRemoteFetch(const std::vector<AddressFetch>& addresses, const FetchLimits& limits) {
  const int64_t target = limits.TargetRequestBytes();
  const int64_t max_blocks = std::max<int64_t>(limits.max_blocks_per_address, 1);
  // Per address its requests, as GroupAddressBlocks forms them from alike blocks: k blocks a
  // request (the fewest whose bytes reach target, at most maxBlocksInFlightPerAddress), the
  // rest in the last.
  std::vector<std::vector<FetchRequest>> per_address;
  for (size_t a = 0; a < addresses.size(); ++a) {
    const AddressFetch& f = addresses[a];
    if (f.blocks <= 0 || f.bytes <= 0) continue;
    const int64_t each = std::max<int64_t>(f.bytes / f.blocks, 1);
    const int64_t extra = f.bytes > f.blocks ? f.bytes % f.blocks : 0;  // the first `extra` blocks: +1 B
    const int64_t k = std::min(max_blocks, std::max<int64_t>((target + each - 1) / each, 1));
    std::vector<FetchRequest> reqs;
    for (int64_t first = 0; first < f.blocks; first += k) {
      const int64_t n = std::min(k, f.blocks - first);
      const int64_t plus = std::clamp<int64_t>(extra - first, 0, n);
      reqs.push_back({static_cast<int>(a), n * each + plus, n});
    }
    per_address.push_back(std::move(reqs));
  }
  std::vector<FetchRequest> order;
  for (size_t i = 0;; ++i) {
    bool any = false;
    for (const auto& reqs : per_address) {
      if (i < reqs.size()) {
        order.push_back(reqs[i]);
        any = true;
      }
    }
    if (!any) break;
  }
  return {static_cast<int64_t>(order.size()), FetchRounds(order, limits)};
}

}  // namespace aqesim
