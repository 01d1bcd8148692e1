#include "models/conf/did_you_mean.h"

#include <algorithm>
#include <cctype>

#include "models/conf/property_value.h"

namespace aqesim {

int EditDistance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  // Three rolling rows: i-2, i-1, i.
  std::vector<int> prev2(m + 1), prev(m + 1), cur(m + 1);
  for (size_t j = 0; j <= m; ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= m; ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      int best = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        best = std::min(best, prev2[j - 2] + 1);
      cur[j] = best;
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[m];
}

int DefaultMaxEditDistance(size_t word_length) {
  if (word_length <= 5) return 1;
  if (word_length <= 8) return 2;
  if (word_length <= 24) return 3;
  return static_cast<int>(word_length / 8);
}

std::optional<std::string> DidYouMean(std::string_view word, const std::vector<std::string>& candidates,
                                      int max_distance) {
  if (max_distance < 0) max_distance = DefaultMaxEditDistance(word.size());
  const std::string lower_word = Lower(word);
  std::optional<std::string> best;
  int best_distance = max_distance + 1;
  for (const std::string& candidate : candidates) {
    const std::string lower_candidate = Lower(candidate);
    int d = EditDistance(lower_word, lower_candidate);
    // One a prefix of the other ("zipfian" / "zipf") counts as a match at the limit, when the
    // shorter is at least half the longer.
    const std::string& shorter = lower_word.size() < lower_candidate.size() ? lower_word : lower_candidate;
    const std::string& longer = lower_word.size() < lower_candidate.size() ? lower_candidate : lower_word;
    if (d > max_distance && shorter.size() >= 3 && 2 * shorter.size() >= longer.size() &&
        longer.compare(0, shorter.size(), shorter) == 0)
      d = max_distance;
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

std::string DidYouMeanSuffix(std::string_view word, const std::vector<std::string>& candidates) {
  if (auto s = DidYouMean(word, candidates)) return "; did you mean \"" + *s + "\"?";
  return "";
}

}  // namespace aqesim
