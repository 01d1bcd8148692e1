#!/usr/bin/env bash
# The one command that runs every benchmark of issue 6 (speed and scale):
#
#   bench/run.sh [--quick]
#
# Installs what it needs (Debian: libbenchmark-dev, valgrind, libsimgrid-dev, time), builds
# the project with -DAQESIM_BUILD_BENCH=ON in build-bench/ (override: AQESIM_BENCH_BUILD), runs
# B1-B5, and writes results/bench/*.json plus results/bench/README-table.md (each target
# beside the measured value, and the machine it ran on). --quick skips the two slowest
# measurements (callgrind of B3, the 1-thread half of B5 is kept) for a smoke run.
# Timing lives here only; tests check correctness.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${AQESIM_BENCH_BUILD:-$ROOT/build-bench}
OUT=$ROOT/results/bench
QUICK=0
[[ "${1:-}" == "--quick" ]] && QUICK=1
mkdir -p "$OUT"
log() { echo "[bench] $*" >&2; }

# ------------------------------------------------------------------ dependencies
need=()
for pkg in libbenchmark-dev valgrind libsimgrid-dev time python3 cmake g++ make; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if ((${#need[@]})); then
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  log "installing ${need[*]}"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi

# ------------------------------------------------------------------ build
log "building in $BUILD"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DAQESIM_BUILD_BENCH=ON >/dev/null
make -C "$BUILD" -j2 aqesim aqesim_bench_shuffle aqesim_bench_scheduler aqesim_bench_once aqesim_bench_stream \
  aqesim_bench_sweep aqesim_bench_simgrid >/dev/null
B=$BUILD/bench
AQESIM=$BUILD/tools/aqesim

# ------------------------------------------------------------------ helpers
# time_v OUT.json -- CMD...: runs CMD under /usr/bin/time -v, writes wall/cpu/peak RSS as JSON.
time_v() {
  local out=$1
  shift 2
  local tv
  tv=$(mktemp)
  /usr/bin/time -v "$@" >"$out.stdout" 2>"$tv" || { cat "$tv" >&2; rm -f "$tv"; return 1; }
  python3 - "$tv" "$out" "$*" <<'EOF'
import json, re, sys
text = open(sys.argv[1]).read()
def field(name):
    m = re.search(r"^\s*" + re.escape(name) + r": (.*)$", text, re.M)
    return m.group(1).strip() if m else None
wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
parts = [float(p) for p in wall.split(":")]
secs = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
command = sys.argv[3] if len(sys.argv[3]) <= 300 else sys.argv[3][:300] + " ..."
json.dump({"command": command, "wall_seconds": secs,
           "user_seconds": float(field("User time (seconds)")),
           "system_seconds": float(field("System time (seconds)")),
           "max_rss_bytes": int(field("Maximum resident set size (kbytes)")) * 1024},
          open(sys.argv[2], "w"), indent=1)
EOF
  rm -f "$tv"
}

# callgrind_ir OUT.json FUNCTION_GLOB -- CMD...: instructions executed inside FUNCTION_GLOB
# (all of the program when FUNCTION_GLOB is "-").
callgrind_ir() {
  local out=$1 fn=$2
  shift 3
  local cg
  cg=$(mktemp -d)
  local toggle=()
  [[ "$fn" != "-" ]] && toggle=(--collect-atstart=no "--toggle-collect=$fn")
  valgrind --tool=callgrind "${toggle[@]}" --callgrind-out-file="$cg/out" "$@" >/dev/null 2>"$cg/log"
  python3 - "$cg/out" "$out" "$fn" "$*" <<'EOF'
import json, sys
ir = None
for line in open(sys.argv[1]):
    if line.startswith("summary:") or line.startswith("totals:"):
        ir = int(line.split()[1])
json.dump({"command": sys.argv[4], "function": sys.argv[3], "instructions": ir}, open(sys.argv[2], "w"), indent=1)
EOF
  rm -rf "$cg"
}

# ------------------------------------------------------------------ machine
python3 - "$OUT/machine.json" <<'EOF'
import json, os, platform, re, subprocess, sys
cpu = ""
for line in open("/proc/cpuinfo"):
    if line.startswith("model name"):
        cpu = line.split(":", 1)[1].strip()
        break
mem = 0
for line in open("/proc/meminfo"):
    if line.startswith("MemTotal"):
        mem = int(line.split()[1]) * 1024
def pkg(name):
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", name], capture_output=True, text=True).stdout
    except OSError:
        return ""
json.dump({"cpu": cpu, "cores": os.cpu_count(), "memory_bytes": mem, "kernel": platform.release(),
           "load_average_at_start": os.getloadavg(),
           "compiler": subprocess.run(["c++", "--version"], capture_output=True, text=True).stdout.splitlines()[0],
           "libbenchmark": pkg("libbenchmark-dev"), "simgrid": pkg("libsimgrid-dev"), "valgrind": pkg("valgrind")},
          open(sys.argv[1], "w"), indent=1)
EOF

# ------------------------------------------------------------------ B1: driver statistics
log "B1: MapStatus + bytesByPartitionId vs plain column sum (10^4 x 10^4)"
"$B/aqesim_bench_shuffle" --benchmark_format=json --benchmark_out="$OUT/b1.json" \
  --benchmark_out_format=json >/dev/null
for op in plain hcms compressed; do
  case $op in
    plain) fn='aqesim::bench::PlainColumnSum*' ;;
    hcms) fn='aqesim::bench::DriverViewHighlyCompressed*' ;;
    compressed) fn='aqesim::bench::DriverViewCompressed*' ;;
  esac
  callgrind_ir "$OUT/b1-callgrind-$op.json" "$fn" -- "$B/aqesim_bench_once" "b1-$op"
done

# ------------------------------------------------------------------ B2: scheduler vs SimGrid
log "B2: 10^6 tasks on 1,000 slots, aqesim vs SimGrid"
"$B/aqesim_bench_scheduler" --benchmark_format=json --benchmark_out="$OUT/b2.json" \
  --benchmark_out_format=json >/dev/null
"$B/aqesim_bench_simgrid" >"$OUT/b2-simgrid.json"

# ------------------------------------------------------------------ B3: end to end
log "B3: aqesim run --aqe both, SMJ of two 10^4 x 10^4 shuffles"
B3_SCENARIO=$ROOT/bench/scenarios/b3-smj-1e4.json
time_v "$OUT/b3.json" -- "$AQESIM" run "$B3_SCENARIO" --aqe both --format json -o "$OUT/b3-run-output.json"
rm -f "$OUT/b3.json.stdout"
if ((QUICK == 0)); then
  log "B3: callgrind (slow)"
  callgrind_ir "$OUT/b3-callgrind.json" - -- "$AQESIM" run "$B3_SCENARIO" --aqe both --format json -o /dev/null
fi

# ------------------------------------------------------------------ B4: streamed 10^10 cells
log "B4: one generated 10^5 x 10^5 shuffle, streamed statistics"
for t in 1 2; do
  time_v "$OUT/b4-threads$t.json" -- "$B/aqesim_bench_stream" 100000 100000 zipf 0 "$t"
  mv "$OUT/b4-threads$t.json.stdout" "$OUT/b4-threads$t-result.json"
done

# B4b: the same size of shuffle through the whole engine (aqesim run, AQE off and on), streamed.
log "B4b: aqesim run --aqe both on one generated 10^5 x 10^5 shuffle (streamed end to end)"
B4_SCENARIO=$ROOT/bench/scenarios/b4-agg-1e5.json
time_v "$OUT/b4-run.json" -- "$AQESIM" run "$B4_SCENARIO" --aqe both --format json -o "$OUT/b4-run-output.json"
rm -f "$OUT/b4-run.json.stdout"

# ------------------------------------------------------------------ B5: sweep
log "B5: 1,000-point sweep of a 2,000 x 2,000 scenario, 1 and 2 threads"
B5_SCENARIO=$ROOT/bench/scenarios/b5-agg-2000.json
values=$(python3 -c 'print(",".join(f"{i}m" for i in range(1, 1001)))')
tmp=$(mktemp -d)
if "$AQESIM" sweep --help >/dev/null 2>&1; then
  echo '{"driver": "aqesim sweep"}' >"$OUT/b5-driver.json"
  for t in 1 2; do
    time_v "$OUT/b5-threads$t.json" -- "$AQESIM" sweep "$B5_SCENARIO" \
      --grid "spark.sql.adaptive.advisoryPartitionSizeInBytes=$values" --threads "$t" -o "$tmp/sweep$t.csv"
    rm -f "$OUT/b5-threads$t.json.stdout"
  done
else
  echo '{"driver": "bench/sweep_driver.cc (aqesim sweep not available)"}' >"$OUT/b5-driver.json"
  for t in 1 2; do
    time_v "$OUT/b5-threads$t.json" -- "$B/aqesim_bench_sweep" "$B5_SCENARIO" "$t" 1000
    rm -f "$OUT/b5-threads$t.json.stdout"
  done
fi
rm -rf "$tmp"

# ------------------------------------------------------------------ B7: report, local read under a shuffle
# aqesim report simulates its scenario some 40 times; a local shuffle read feeding another shuffle
# makes each AQE-on run apportion tasks x rows x reducers cells (models/engine/map_output.h).
log "B7: aqesim report on a star join read locally (4,096 x 500; 16,384 x 2,000 unless --quick)"
tmp=$(mktemp -d)
sizes=(4096x500)
((QUICK == 0)) && sizes+=(16384x2000)
for size in "${sizes[@]}"; do
  time_v "$OUT/b7-report-$size.json" -- "$AQESIM" report "$ROOT/bench/scenarios/b7-star-join-$size.json" \
    -o "$tmp/report.md"
  rm -f "$OUT/b7-report-$size.json.stdout"
done
rm -rf "$tmp"

# ------------------------------------------------------------------ table
python3 "$ROOT/bench/make_table.py" "$OUT" >"$OUT/README-table.md"
log "wrote $OUT/README-table.md"
# The README's Benchmarks section shows the same table, between its markers.
python3 "$ROOT/bench/update_readme.py" "$ROOT/README.md" "$OUT/README-table.md" && log "updated the table in README.md"
cat "$OUT/README-table.md"
