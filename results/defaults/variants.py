"""The variants of the fit tried before adopting fit.py's (results/defaults.md "Variants"):
every subset of eight rates (remoteFetchRequestSeconds always fitted) under two objectives
(relative least squares, squared log-ratio) and two makespan weights, each cross-validated
leaving one group out, on the linearised replays of features.py (no simulation). Prints the
variants by median |makespan error| + median |stage error| over the left-out logs.

Usage: variants.py FEATURES.json DIR name:group ...   (DIR holds measured-GROUP.json)
"""
import contextlib
import io
import itertools
import sys

import fit

CANDIDATES = ["scanSecondsPerByte", "shuffleReadSecondsPerByte", "shuffleWriteSecondsPerByte", "sortSecondsPerByte",
              "joinProbeSecondsPerByte", "aggregateSecondsPerByte", "readSecondsPerRow", "writeSecondsPerRow"]


def main():
    data = fit.load(sys.argv[1])
    pairs = [tuple(a.split(":")) for a in sys.argv[3:]]
    results = []
    for objective in ("rel", "log"):
        for weight in (0.0, 1.0, 3.0):
            fit.MAKESPAN_WEIGHT = weight
            for r in range(1, len(CANDIDATES) + 1):
                for subset in itertools.combinations(CANDIDATES, r):
                    fitted = ["remoteFetchRequestSeconds"] + list(subset)
                    with contextlib.redirect_stdout(io.StringIO()):
                        out = fit.loo(data, sys.argv[2], pairs, fitted, objective, quiet=True)
                    mk = fit.median([abs(x[0]) for x in out.values()])
                    st = fit.median([x[1] for x in out.values()])
                    results.append((mk + st, mk, st, objective, weight, subset))
    results.sort()
    print("median |makespan| | median |stage| | objective | makespan weight | rates besides remoteFetchRequestSeconds")
    for _, mk, st, objective, weight, subset in results:
        print(f"{mk * 100:.1f}% | {st * 100:.1f}% | {objective} | {weight:g} | {', '.join(subset)}")


if __name__ == "__main__":
    main()
