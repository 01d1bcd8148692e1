// Non-negative least squares: min ||A x - b||² subject to x >= 0 (Lawson & Hanson's
// active-set algorithm, "Solving Least Squares Problems", 1974, ch. 23). Used by
// calibration.h to fit cost parameters, which are all non-negative.
#ifndef AQESIM_TOOLS_VALIDATE_NNLS_H_
#define AQESIM_TOOLS_VALIDATE_NNLS_H_

#include <vector>

namespace aqesim::validate {

/// `a` is row-major: a[i] is row i, every row has the same number of columns n. Returns x
/// (size n, every entry >= 0). Columns that are all zero get 0. Small n (tens): the
/// unconstrained sub-problems are solved by normal equations with column scaling.
/// An empty `a` or rows of different lengths return an empty vector.
std::vector<double> NonNegativeLeastSquares(const std::vector<std::vector<double>>& a,
                                            const std::vector<double>& b);

}  // namespace aqesim::validate

#endif  // AQESIM_TOOLS_VALIDATE_NNLS_H_
