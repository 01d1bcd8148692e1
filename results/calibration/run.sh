#!/usr/bin/env bash
# Regenerates cost/calibrated-*.json and results/calibration/*: calibrates on each log that is
# not held out (and on all of them together), then validates every log with every cost file.
# Usage: results/calibration/run.sh [AQESIM_BINARY] [LOG_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
aqesim="${1:-${root}/build/tools/aqesim}"
logs="${2:-${root}/../shared/eventlogs}"  # the shared logs beside the checkout
out="${root}/results/calibration"
fit_logs=(aqeshuffle_eventlog.zstd customshuffle_eventlog.zstd eventlog_4nodes_8cores_dynamic_alloc.zstd
          join_agg_on_yarn_eventlog.zstd application_1472176676028_407508_1)
all_logs=("${fit_logs[@]}" nds_q72_dataproc_2_2.zstd)  # the last one is held out: validated, never fitted
short() { local n="${1%.zstd}"; echo "${n%_eventlog}"; }
costs=(default)
for log in "${fit_logs[@]}"; do
  name="$(short "${log}")"
  "${aqesim}" calibrate -q "${logs}/${log}" -o "${root}/cost/calibrated-${name}.json" > "${out}/fit-${name}.txt"
  costs+=("${name}")
done
paths=(); for log in "${fit_logs[@]}"; do paths+=("${logs}/${log}"); done
"${aqesim}" calibrate -q "${paths[@]}" -o "${root}/cost/calibrated-all.json" > "${out}/fit-all.txt"
costs+=(all)
for cost in "${costs[@]}"; do
  for log in "${all_logs[@]}"; do
    args=(); [[ "${cost}" != default ]] && args=(--cost "${root}/cost/calibrated-${cost}.json")
    "${aqesim}" validate -q "${logs}/${log}" --format json "${args[@]}" > "${out}/validate-${cost}--$(short "${log}").json"
  done
done
python3 - "${out}" "${costs[@]}" -- "${all_logs[@]}" <<'PY'
import json, sys
out = sys.argv[1]; rest = sys.argv[2:]; sep = rest.index('--')
costs, logs = rest[:sep], rest[sep + 1:]
short = lambda n: n.removesuffix('.zstd').removesuffix('_eventlog')
def cell(c, l):
    v = json.load(open(f"{out}/validate-{c}--{short(l)}.json"))
    m, e = v["summary"]["medianAbsStageError"], v["makespan"]["relativeError"]
    f = lambda x: "-" if x is None else f"{x*100:+.1f}%"
    return f"{f(m).lstrip('+')} / {f(e)}", v
lines = ["| calibrated on ↓ / validated on → | " + " | ".join(short(l) + (" (held out)" if l.startswith("nds") else "") for l in logs) + " |",
         "|---" * (len(logs) + 1) + "|"]
for c in costs:
    lines.append(f"| {c} | " + " | ".join(cell(c, l)[0] for l in logs) + " |")
dec = ["| log | decisions matched (default cost) |", "|---|---|"]
for l in logs:
    v = cell("default", l)[1]
    dec.append(f"| {short(l)} | {v['summary']['decisionsMatched']} of {v['summary']['decisions']} |")
open(f"{out}/cross_table.md", "w").write("Cells: median |stage error| / makespan error.\n\n" + "\n".join(lines) + "\n\n" + "\n".join(dec) + "\n")
print(open(f"{out}/cross_table.md").read())
PY
