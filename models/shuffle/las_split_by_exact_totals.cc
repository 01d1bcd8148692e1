#include "models/shuffle/las_split_by_exact_totals.h"

#include <algorithm>

namespace aqesim {

std::vector<int64_t> MapSizesFromExactTotal(const std::vector<int64_t>& reported, int64_t exact_total,
                                            int64_t accurate_threshold) {
  std::vector<int64_t> out = reported;
  int64_t known = 0;
  int64_t others = 0;
  for (int64_t s : reported) {
    if (s >= accurate_threshold && s > 0) {
      known += s;
    } else if (s > 0) {
      ++others;
    }
  }
  if (others == 0) return out;
  const int64_t rest = std::max<int64_t>(0, exact_total - known);
  const int64_t each = rest / others;
  int64_t extra = rest % others;
  for (int64_t& s : out) {
    if (s <= 0 || (s >= accurate_threshold)) continue;
    s = each + (extra > 0 ? 1 : 0);
    if (extra > 0) --extra;
  }
  return out;
}

}  // namespace aqesim
