#include "sim/fair_order.h"

#include <algorithm>
#include <limits>

namespace aqesim {

bool FairFirst(const FairKey& a, const FairKey& b) {
  const bool a_needy = a.running < a.min_share, b_needy = b.running < b.min_share;
  if (a_needy != b_needy) return a_needy;
  auto ratio = [](int running, int denominator) {
    return denominator > 0 ? static_cast<double>(running) / denominator
                           : (running > 0 ? std::numeric_limits<double>::infinity() : 0.0);
  };
  const double ra = a_needy ? ratio(a.running, std::max(a.min_share, 1)) : ratio(a.running, a.weight);
  const double rb = b_needy ? ratio(b.running, std::max(b.min_share, 1)) : ratio(b.running, b.weight);
  if (ra != rb) return ra < rb;
  if (a.name != b.name) return a.name < b.name;
  return a.order < b.order;
}

}  // namespace aqesim
