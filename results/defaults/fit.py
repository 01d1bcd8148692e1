"""Fits the cost model's per-task rates on the features of features.py, and cross-validates the fit
leaving one group of logs out at a time (results/defaults/run.sh).

A fit chooses the rates theta >= 0 of the parameters FITTED (the others: the measured driver and
start-up terms of the fold, given; every other rate 0) that minimise, over the fold's logs,

    sum_log [ 1/n_log * sum_stage log(sim_stage / rec_stage)^2 + MAKESPAN_WEIGHT * log(sim_mk / rec_mk)^2 ]

with sim linear in theta (features.py): squared log-ratios, since the band is a ratio and a
stage 2x too slow is as wrong as one 2x too fast; each log weighs the same (its stages share its
weight). The adopted MAKESPAN_WEIGHT is 0 (stages only; variants.py tried 1 and 3). Solved by
Gauss-Newton steps, each a non-negative least squares problem.

Usage:
  fit.py FEATURES.json fold MEASURED.json TRAIN_NAME...  -> prints the cost (JSON)
  fit.py FEATURES.json loo  DIR name:group ...            -> DIR/loo-cost-GROUP.json, each fold's
     rates on the other groups with DIR/measured-GROUP.json's terms; prints the linearised errors
"""
import json
import math
import sys

# The adopted variant (results/defaults.md "Method").
FITTED = ["remoteFetchRequestSeconds", "joinProbeSecondsPerByte", "aggregateSecondsPerByte", "sortSecondsPerByte"]
MEASURED = ["taskLaunchSeconds", "executorStartupSeconds", "executorStageWarmupSeconds", "stageOverheadSeconds",
            "replanSeconds"]
MAKESPAN_WEIGHT = 0.0
OBJECTIVE = "log"
# Upper bounds: no fitted rate may be slower than Spark's operators plausibly run. Unbounded, the
# logs' unmodelled time (Python workers, JVM start-up, tiny tasks) drives the per-byte rates to
# 12 MB/s (join probe) and 1.7 MB/s (aggregate) a core and a fetch round to 22 ms: rates that
# fit the small public logs and charge a TPC-DS join chain 2-3x its time (results/defaults.md
# "Bounds"). A bound of 30 MB/s a core (3.3e-8 s/B) of compressed shuffle or scan bytes is a
# conservative floor for Tungsten's hash join probe, hash aggregate and sort (about 100 MB/s a
# core of uncompressed rows at a 3x compression ratio); 10 ms a round of fetch requests is a disk
# seek plus a datacenter round trip with margin.
UPPER = {"remoteFetchRequestSeconds": 0.01, "joinProbeSecondsPerByte": 3.3e-8, "aggregateSecondsPerByte": 3.3e-8,
         "sortSecondsPerByte": 3.3e-8}


def solve(M, v):
    """Gaussian elimination with partial pivoting; M square (lists), returns x or None."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(M)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        if abs(a[p][c]) < 1e-14:
            return None
        a[c], a[p] = a[p], a[c]
        for r in range(n):
            if r != c:
                f = a[r][c] / a[c][c]
                for k in range(c, n + 1):
                    a[r][k] -= f * a[c][k]
    return [a[i][n] / a[i][i] for i in range(n)]


def nnls(A, b):
    """Lawson-Hanson on the normal equations (columns scaled to unit norm first)."""
    k = len(A[0]) if A else 0
    norms = [math.sqrt(sum(r[j] ** 2 for r in A)) or 1.0 for j in range(k)]
    As = [[r[j] / norms[j] for j in range(k)] for r in A]
    G = [[sum(r[i] * r[j] for r in As) + (1e-10 if i == j else 0) for j in range(k)] for i in range(k)]
    h = [sum(r[i] * bb for r, bb in zip(As, b)) for i in range(k)]
    x = [0.0] * k
    P = set()
    for _ in range(3 * k + 10):
        w = [h[i] - sum(G[i][j] * x[j] for j in range(k)) for i in range(k)]
        cand = [i for i in range(k) if i not in P and w[i] > 1e-12]
        if not cand:
            break
        P.add(max(cand, key=lambda i: w[i]))
        while True:
            idx = sorted(P)
            z = solve([[G[i][j] for j in idx] for i in idx], [h[i] for i in idx]) or [0.0] * len(idx)
            if all(zz > 0 for zz in z):
                for i in range(k):
                    x[i] = 0.0
                for i, zz in zip(idx, z):
                    x[i] = zz
                break
            alpha = min(x[i] / (x[i] - zz) for i, zz in zip(idx, z) if zz <= 0)
            for i, zz in zip(idx, z):
                x[i] += alpha * (zz - x[i])
            P = {i for i in P if x[i] > 1e-15}
    return [x[j] / norms[j] for j in range(k)]


def rows_of(log, fixed, fitted):
    """Rows (recorded, constant, features over `fitted`, weight) of a log's stages and makespan."""
    base, feats, theta0 = log["base"], log["features"], log["theta0"]

    def row(rec, d0, key):
        c = d0
        for p, f in feats.items():
            val = feats[p]["makespan"] if key is None else f["stages"].get(key, 0.0)
            if p in fitted:
                c -= val * theta0.get(p, 0.0)
            else:
                c += val * (fixed.get(p, 0.0) - theta0.get(p, 0.0))
        fs = [feats[p]["makespan"] if key is None else feats[p]["stages"].get(key, 0.0) for p in fitted]
        return rec, c, fs

    stages = [row(r, s, k) for k, (r, s) in base["stages"].items()]
    out = [(r, c, fs, 1.0 / len(stages)) for r, c, fs in stages]
    rec, sim = base["makespan"]
    out.append((*row(rec, sim, None), MAKESPAN_WEIGHT))
    return out


def predict(row, theta):
    rec, c, fs, _ = row
    return max(c + sum(f * t for f, t in zip(fs, theta)), 1e-6)


def fit(logs, fixed, fitted, objective=OBJECTIVE, upper=None):
    """The rates of `fitted` (same order), each within [0, upper[p]] (UPPER by default): the
    unbounded fit, then the rate furthest over its bound pinned at it (a given term from then on)
    and the others fitted again, until none is over."""
    upper = UPPER if upper is None else upper
    pinned = {}
    while True:
        free = [p for p in fitted if p not in pinned]
        theta = fit_unbounded(logs, {**fixed, **pinned}, free, objective) if free else []
        values = dict(zip(free, theta))
        over = [p for p in free if p in upper and values[p] > upper[p]]
        if not over:
            values.update(pinned)
            return [values[p] for p in fitted]
        worst = max(over, key=lambda p: values[p] / upper[p])
        pinned[worst] = upper[worst]


def fit_unbounded(logs, fixed, fitted, objective=OBJECTIVE):
    rows = [r for log in logs for r in rows_of(log, fixed, fitted)]
    # Relative least squares first: also the start of the log-ratio iterations.
    A = [[f * math.sqrt(w) / rec for f in fs] for rec, c, fs, w in rows]
    b = [(rec - c) * math.sqrt(w) / rec for rec, c, fs, w in rows]
    theta = nnls(A, b)
    if objective != "log":
        return theta

    def loss(t):
        return sum(w * math.log(predict(r, t) / r[0]) ** 2 for r in rows for w in [r[3]])

    cur = loss(theta)
    for _ in range(60):
        # log p ~ log p_k + (p - p_k) / p_k: a weighted relative least squares around p_k.
        A, b = [], []
        for r in rows:
            rec, c, fs, w = r
            p = predict(r, theta)
            s = math.sqrt(w) / p
            A.append([f * s for f in fs])
            b.append((math.log(rec / p) * p + p - c) * s)
        new = nnls(A, b)
        step = 1.0
        while step > 1e-3:
            t = [a + step * (n - a) for a, n in zip(theta, new)]
            lt = loss(t)
            if lt < cur - 1e-12:
                break
            step /= 2
        if step <= 1e-3:
            break
        converged = cur - lt < 1e-9 * max(cur, 1e-12)
        theta, cur = t, lt
        if converged:
            break
    return theta


def evaluate(log, fixed, fitted, theta):
    rows = rows_of(log, fixed, fitted)
    stage_err = sorted(abs(predict(r, theta) / r[0] - 1) for r in rows[:-1])
    n = len(stage_err)
    med = (stage_err[(n - 1) // 2] + stage_err[n // 2]) / 2 if n else None
    mk = rows[-1]
    return predict(mk, theta) / mk[0] - 1, med, mk[0], predict(mk, theta)


def load(features_file):
    data = json.load(open(features_file))
    for log in data["logs"].values():
        log["theta0"] = data["base"]
    return data


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[(n - 1) // 2] + xs[n // 2]) / 2


def cost_of(fixed, fitted, theta, base):
    c = {k: v for k, v in base.items()}
    for p in MEASURED:
        c[p] = fixed[p]
    for p in list(c):
        if p.endswith("PerByte") or p.endswith("PerRow") or p.endswith("RequestSeconds"):
            c[p] = 0.0
    for p, t in zip(fitted, theta):
        c[p] = t
    for p in ("readSecondsPerRow", "writeSecondsPerRow", "joinSecondsPerOutputRow"):
        c.setdefault(p, 0.0)
    return c


def loo(data, measured_dir, pairs, fitted, objective, out_dir=None, quiet=False):
    groups = {}
    for name, g in pairs:
        groups.setdefault(g, []).append(name)
    res = {}
    for g, members in groups.items():
        fixed = json.load(open(f"{measured_dir}/measured-{g}.json"))
        train = [data["logs"][n] for n, gg in pairs if gg != g]
        theta = fit(train, fixed, fitted, objective)
        if out_dir:
            json.dump(cost_of(fixed, fitted, theta, data["base"]), open(f"{out_dir}/loo-cost-{g}.json", "w"),
                      indent=2, sort_keys=True)
        for n in members:
            res[n] = evaluate(data["logs"][n], fixed, fitted, theta) + (theta,)
    mk = [abs(r[0]) for r in res.values()]
    st = [r[1] for r in res.values() if r[1] is not None]
    ratios = [r[2] / r[3] for r in res.values()]
    srt = sorted(ratios)
    lo, hi = srt[max(math.ceil(len(srt) * 0.1) - 1, 0)], srt[max(math.ceil(len(srt) * 0.9) - 1, 0)]
    inside = sum(lo <= r <= hi for r in ratios)
    if not quiet:
        for n, _ in pairs:
            r = res[n]
            print(f"  {n:22s} mk {r[0] * 100:+7.1f}%  stage {r[1] * 100 if r[1] is not None else -1:6.1f}%  "
                  + " ".join(f"{t:.3g}" for t in r[4]))
    print(f"{objective} {','.join(fitted)} w={MAKESPAN_WEIGHT}: median |mk| {median(mk) * 100:.1f}%, "
          f"median stage {median(st) * 100:.1f}%, band {lo:.3f}-{hi:.3f} inside {inside}/{len(ratios)}")
    return res


def main():
    data = load(sys.argv[1])
    mode = sys.argv[2]
    if mode == "fold":
        fixed = json.load(open(sys.argv[3]))
        train = [data["logs"][n] for n in sys.argv[4:]]
        theta = fit(train, fixed, FITTED)
        print(json.dumps(cost_of(fixed, FITTED, theta, data["base"]), indent=2, sort_keys=True))
    elif mode == "loo":
        pairs = [tuple(a.split(":")) for a in sys.argv[4:]]
        loo(data, sys.argv[3], pairs, FITTED, OBJECTIVE, out_dir=sys.argv[3])


if __name__ == "__main__":
    main()
