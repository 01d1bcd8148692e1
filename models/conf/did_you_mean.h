// "Did you mean ...?" suggestions for misspelled names (configuration keys, scenario fields,
// operator and enum names), in the manner of ninja's SpellcheckString.
#ifndef AQESIM_MODELS_CONF_DID_YOU_MEAN_H_
#define AQESIM_MODELS_CONF_DID_YOU_MEAN_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aqesim {

/// Damerau–Levenshtein distance (optimal string alignment: insertions, deletions,
/// substitutions and transpositions of adjacent characters each cost 1). Case-sensitive.
int EditDistance(std::string_view a, std::string_view b);

/// The largest distance at which DidYouMean suggests a candidate for a word of this length:
/// 1 up to 5 characters, 2 up to 8, 3 up to 24, then one per 8 characters (long Spark keys).
int DefaultMaxEditDistance(size_t word_length);

/// The candidate closest to `word` (compared case-insensitively, so a difference of case
/// alone always matches), or nullopt when none is within `max_distance` (negative: the
/// default for the word's length). A candidate that is a prefix of the word or the other way
/// round ("zipfian" / "zipf", the shorter at least half the longer) counts as at the limit.
/// Ties go to the earliest candidate. An exact match is not
/// a suggestion: callers only ask for names that did not match.
std::optional<std::string> DidYouMean(std::string_view word, const std::vector<std::string>& candidates,
                                      int max_distance = -1);

/// "; did you mean \"X\"?" when there is a suggestion, else "".
std::string DidYouMeanSuffix(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace aqesim

#endif  // AQESIM_MODELS_CONF_DID_YOU_MEAN_H_
