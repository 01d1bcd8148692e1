// The search space of `aqesim tune`: one axis per `--space` argument, and its encoding as the
// bounded, partly integer variables dlib's global_function_search optimises
// (dlib/global_optimization/global_function_search.h).
//
//   KEY=V1,V2,...           a choice among the values as given (a Spark key, `cluster.FIELD`,
//                           `cost.PARAM` or `simulation.FIELD`, like a sweep's --grid); encoded as
//                           the integer index 0..n-1
//   KEY=LOW..HIGH           a range: integers (LOW and HIGH integers, e.g. 100..2000), sizes (a
//                           Spark size suffix on either: 16m..1g is whole MiB from 16 to 1024, in
//                           the smaller unit of the two), or decimals (either has a '.', e.g.
//                           2.0..10); an integer or size range is an integer variable in its unit
//   KEY=LOW..HIGH:log       the same, searched on a log scale (the variable is ln(value), rounded
//                           back to a whole unit, or to 3 significant digits for decimals)
//
// A value is the text a simulation gets (`64m`, `400`, `2.5`): two encodings that decode to the
// same text are the same point, simulated once. An axis of one value is not searched; it is
// applied to every point.
#ifndef AQESIM_TOOLS_TUNE_SEARCH_SPACE_H_
#define AQESIM_TOOLS_TUNE_SEARCH_SPACE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace aqesim::tune {

struct SpaceAxis {
  enum class Kind { kChoice, kInteger, kDecimal };
  std::string key;
  Kind kind = Kind::kChoice;
  std::vector<std::string> choices;  // kChoice: the values, in the order given
  double low = 0;                    // kInteger / kDecimal: bounds, in `unit`s
  double high = 0;
  bool log_scale = false;
  /// kInteger: the Spark size suffix both bounds had ("m" for 16m..512m), "" for plain integers.
  std::string unit;

  /// The axis as written on the command line ("KEY=16m..512m:log").
  std::string ToString() const;
  /// Points of the axis when enumerated (choices, or whole units of a range); decimals: 0.
  uint64_t Cardinality() const;
};

/// Parses one `--space` argument; nullopt with one sentence in `*error` (it names the argument).
std::optional<SpaceAxis> ParseSpaceArg(const std::string& arg, std::string* error);

/// The variables of the axes that are searched (an axis of one value is not): lower and upper
/// bounds and whether each is an integer, in axis order; `searched[i]` is axis i's variable or
/// -1.
struct SpaceEncoding {
  std::vector<double> lower;
  std::vector<double> upper;
  std::vector<bool> is_integer;
  std::vector<int> variable_of_axis;
};
SpaceEncoding Encode(const std::vector<SpaceAxis>& axes);

/// The values (one per axis, as a simulation gets them) of the variables `x` (the optimiser's
/// point, one entry per searched axis; clamped into the bounds).
std::vector<std::string> Decode(const std::vector<SpaceAxis>& axes, const SpaceEncoding& encoding,
                                const std::vector<double>& x);

/// The variables of `values` (Decode's inverse up to rounding), for telling the optimiser the
/// point it was given back when two requests decode to the same values.
std::vector<double> EncodeValues(const std::vector<SpaceAxis>& axes, const SpaceEncoding& encoding,
                                 const std::vector<std::string>& values);

/// Every point of the space in grid order (first axis slowest), as a sweep would enumerate it;
/// nullopt when a decimal axis makes it uncountable or it has more than `limit` points.
std::optional<std::vector<std::vector<std::string>>> Enumerate(const std::vector<SpaceAxis>& axes,
                                                               uint64_t limit);

}  // namespace aqesim::tune

#endif  // AQESIM_TOOLS_TUNE_SEARCH_SPACE_H_
