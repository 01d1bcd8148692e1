"""Writes results/defaults.md from results/defaults/run.sh's outputs (see run.sh)."""
import json
import math
import sys

out, md, held_out = sys.argv[1], sys.argv[2], sys.argv[3]
logs = [a.split(":") for a in sys.argv[4:]]  # name:group


def load(f):
    try:
        v = json.load(open(f"{out}/{f}.json"))
    except FileNotFoundError:  # not replayed (yet)
        return None, None
    return v["makespan"], v["summary"]["medianAbsStageError"]


def pct(x, sign=True):
    return "-" if x is None else (f"{x * 100:+.1f}%" if sign else f"{x * 100:.1f}%")


def quantile(xs, q):  # linear interpolation between order statistics (type 7)
    xs = sorted(xs)
    h = (len(xs) - 1) * q
    lo = math.floor(h)
    return xs[lo] + (h - lo) * (xs[min(lo + 1, len(xs) - 1)] - xs[lo])


def percentile(xs, q):  # the band's: the inverse empirical distribution (type 1), an observed ratio
    xs = sorted(xs)
    return xs[max(math.ceil(len(xs) * q) - 1, 0)]


def sec(x):  # seconds as the tables print them: 3 significant digits, no exponent
    return f"{x:.0f}" if x >= 100 else f"{x:.3g}"


def median(xs):
    return quantile(xs, 0.5)


rows, ratios = [], []
for name, group in logs:
    m, stage = load(f"loo-{name}")
    d, dstage = load(f"defaults-{name}")
    rows.append((name, group, m, stage, d, dstage))
    ratios.append(m["recordedSeconds"] / m["simulatedSeconds"])
lo, hi = percentile(ratios, 0.1), percentile(ratios, 0.9)
q, qstage = load(f"defaults-{held_out}")

lines = [
    "| log | left out with | recorded s | LOO simulated s | LOO makespan | LOO median stage | LOO band | inside | "
    "all-17 fit makespan | all-17 fit median stage |",
    "|---|---|---|---|---|---|---|---|---|---|",
]
inside = 0
for name, group, m, stage, d, dstage in rows:
    low, high = m["simulatedSeconds"] * lo, m["simulatedSeconds"] * hi
    ok = low <= m["recordedSeconds"] <= high
    inside += ok
    lines.append(
        f"| {name} | {group} | {m['recordedSeconds']:.3f} | {m['simulatedSeconds']:.3f} | {pct(m['relativeError'])} | "
        f"{pct(stage, False)} | {sec(low)}–{sec(high)} s | {'yes' if ok else 'no'} | {pct(d and d['relativeError'])} | "
        f"{pct(dstage, False)} |")
dm = [abs(r[4]["relativeError"]) for r in rows if r[4]]
ds = [r[5] for r in rows if r[5] is not None]
summary = (
    f"Median over the {len(rows)} logs: |makespan error| {pct(median([abs(r[2]['relativeError']) for r in rows]), False)}, "
    f"median |stage error| {pct(median([r[3] for r in rows if r[3] is not None]), False)} (leave-one-out); "
    f"with the fit on all of them (fit-all.json, in-sample): {pct(median(dm), False) if dm else '-'} / "
    f"{pct(median(ds), False) if ds else '-'}.\n\n"
    f"Band: recorded ÷ simulated makespan over the leave-one-out replays, 10th percentile {lo:.3f}, "
    f"90th {hi:.3f}; the recorded makespan lies inside [simulated × {lo:.3f}, simulated × {hi:.3f}] for "
    f"{inside} of {len(rows)} logs.\n\n")
if q:
    low, high = q["simulatedSeconds"] * lo, q["simulatedSeconds"] * hi
    summary += (
        f"Held out ({held_out}, never fitted), the fit on all 17 (fit-all.json): recorded {q['recordedSeconds']:.3f} s, simulated "
        f"{q['simulatedSeconds']:.3f} s, makespan {pct(q['relativeError'])}, median |stage error| {pct(qstage, False)}; "
        f"band {sec(low)}–{sec(high)} s: {'inside' if low <= q['recordedSeconds'] <= high else 'outside'}.\n")
else:
    summary += f"Held out ({held_out}): not replayed yet.\n"
table = "\n".join(lines) + "\n\n" + summary
marker = "<!-- table: results/defaults/run.sh -->"
try:
    doc = open(md).read()
    head, _, rest = doc.partition(marker)
    tail = rest.partition("<!-- end table -->")[2]
    doc = head + marker + "\n\n" + table + "\n<!-- end table -->" + tail
except FileNotFoundError:
    doc = marker + "\n\n" + table + "\n<!-- end table -->\n"
open(md, "w").write(doc)
print(table)
