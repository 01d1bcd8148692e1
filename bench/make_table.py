#!/usr/bin/env python3
"""Turns results/bench/*.json (written by bench/run.sh) into the markdown table of README-table.md.

Usage: make_table.py RESULTS_DIR > README-table.md
Every target is printed beside the measured value; a missing file prints "not measured".
"""
import json
import os
import statistics
import sys

OUT = sys.argv[1]


def load(name):
    path = os.path.join(OUT, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def gbench_times(doc, name):
    """Per-repetition real and CPU times (seconds) of one Google Benchmark."""
    real, cpu, counters = [], [], {}
    for b in (doc or {}).get("benchmarks", []):
        if b.get("run_type") == "iteration" and b["run_name"].startswith(name):
            scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
            real.append(b["real_time"] * scale)
            cpu.append(b["cpu_time"] * scale)
            counters = b
    return real, cpu, counters


def verdict(ok):
    return "met" if ok else "**missed**"


def gib(n):
    return f"{n / 2**30:.2f} GiB"


rows = []
machine = load("machine.json") or {}

# B1
b1 = load("b1.json")
plain_r, plain_c, _ = gbench_times(b1, "BM_B1_PlainColumnSum")
hcms_r, hcms_c, hcms_k = gbench_times(b1, "BM_B1_HighlyCompressedMapStatus")
comp_r, comp_c, _ = gbench_times(b1, "BM_B1_CompressedMapStatus")
ir = {op: (load(f"b1-callgrind-{op}.json") or {}).get("instructions") for op in ("plain", "hcms", "compressed")}
if plain_c and hcms_c:
    p, h, c = statistics.median(plain_c), statistics.median(hcms_c), statistics.median(comp_c)
    ir_text = ""
    if ir["plain"] and ir["hcms"]:
        ir_text = (f"; callgrind: plain {ir['plain'] / 1e6:.0f} M instr, HCMS {ir['hcms'] / 1e6:.0f} M "
                   f"({ir['hcms'] / ir['plain']:.2f}x), Compressed {ir['compressed'] / 1e6:.0f} M "
                   f"({ir['compressed'] / ir['plain']:.2f}x)")
    rows.append(("B1 driver statistics, 10^4 x 10^4 (HighlyCompressedMapStatus, Spark's choice)",
                 "<= 2.0x plain column sum",
                 f"{h / p:.2f}x (median CPU {h * 1e3:.0f} ms vs {p * 1e3:.0f} ms, {int(hcms_k.get('huge_blocks', 0))} huge blocks)"
                 + ir_text, verdict(h / p <= 2.0)))
    rows.append(("B1 with CompressedMapStatus forced (minNumPartitionsToHighlyCompress > 10^4)",
                 "none (informative: Spark encodes 10^4 reducers as HighlyCompressedMapStatus)",
                 f"{c / p:.2f}x (median CPU {c * 1e3:.0f} ms)", "informative"))

# B2
b2 = load("b2.json")
sg = load("b2-simgrid.json")
r2, c2, k2 = gbench_times(b2, "BM_B2_TaskScheduler")
if c2:
    t = statistics.median(c2)
    rate = 1e6 / t
    rows.append(("B2 scheduler: 10^6 tasks on 1,000 slots, one core", ">= 10^7 tasks/s",
                 f"{rate / 1e6:.1f} M tasks/s (median CPU {t * 1e3:.0f} ms)", verdict(rate >= 1e7)))
    if sg:
        same = abs(sg["makespan_seconds"] - k2["makespan_seconds"]) < 1e-6 and \
            int(sg["start_time_sum_seconds"]) == int(k2["start_time_sum_seconds"])
        rows.append((f"B2 vs {sg['simulator']} (same tasks, same slots)", "same makespan",
                     f"aqesim {k2['makespan_seconds']:.0f} s, SimGrid {sg['makespan_seconds']:.0f} s; "
                     f"sum of start times {int(k2['start_time_sum_seconds'])} vs {int(sg['start_time_sum_seconds'])}",
                     verdict(same)))
        ratio = sg["wall_seconds"] / statistics.median(r2)
        rows.append(("B2 speed vs SimGrid", ">= 20x faster",
                     f"{ratio:.0f}x (SimGrid {sg['wall_seconds']:.2f} s wall, aqesim {statistics.median(r2) * 1e3:.0f} ms wall)",
                     verdict(ratio >= 20)))

# B3
b3 = load("b3.json")
if b3:
    cg = load("b3-callgrind.json")
    cg_text = f"; callgrind {cg['instructions'] / 1e9:.2f} G instr" if cg and cg.get("instructions") else ""
    cpu = b3["user_seconds"] + b3["system_seconds"]
    rows.append(("B3 `aqesim run --aqe both`, SMJ of two 10^4 x 10^4 generated shuffles", "<= 5 s wall",
                 f"{b3['wall_seconds']:.1f} s wall (CPU {b3['user_seconds']:.1f} s user + {b3['system_seconds']:.1f} s sys)"
                 + cg_text, verdict(b3["wall_seconds"] <= 5)))
    rows.append(("B3 peak memory", "<= 2 GiB", gib(b3["max_rss_bytes"]), verdict(b3["max_rss_bytes"] <= 2 * 2**30)))

# B4
for t in (1, 2):
    b4 = load(f"b4-threads{t}.json")
    res = load(f"b4-threads{t}-result.json")
    if b4 and res:
        rows.append((f"B4 one 10^5 x 10^5 generated shuffle (10^10 cells), streamed statistics, {t} thread(s)",
                     "<= 120 s", f"{b4['wall_seconds']:.0f} s wall (CPU {b4['user_seconds'] + b4['system_seconds']:.0f} s); "
                     f"{res['map_status']}, {res['coalesced_partitions']} coalesced partitions",
                     verdict(b4["wall_seconds"] <= 120)))
        rows.append((f"B4 peak memory, {t} thread(s)", "<= 4 GiB", gib(b4["max_rss_bytes"]),
                     verdict(b4["max_rss_bytes"] <= 4 * 2**30)))

# B4b: the engine end to end on the same size of shuffle
b4r = load("b4-run.json")
if b4r:
    rows.append(("B4b `aqesim run --aqe both`, one generated 10^5 x 10^5 shuffle streamed through the engine",
                 "<= 120 s", f"{b4r['wall_seconds']:.0f} s wall (CPU {b4r['user_seconds']:.0f} s user + "
                 f"{b4r['system_seconds']:.1f} s sys)", verdict(b4r["wall_seconds"] <= 120)))
    rows.append(("B4b peak memory", "<= 4 GiB", gib(b4r["max_rss_bytes"]), verdict(b4r["max_rss_bytes"] <= 4 * 2**30)))

# B5
d5 = (load("b5-driver.json") or {}).get("driver", "?")
s1, s2 = load("b5-threads1.json"), load("b5-threads2.json")
if s1 and s2:
    rows.append((f"B5 1,000-point sweep, 2,000 x 2,000 scenario, 2 threads ({d5})", "<= 60 s",
                 f"{s2['wall_seconds']:.1f} s wall", verdict(s2["wall_seconds"] <= 60)))
    ratio = s2["wall_seconds"] / s1["wall_seconds"]
    rows.append(("B5 2 threads / 1 thread", "<= 0.6",
                 f"{ratio:.2f} ({s1['wall_seconds']:.1f} s with 1 thread; CPU {s2['user_seconds'] + s2['system_seconds']:.1f} s "
                 f"with 2 vs {s1['user_seconds'] + s1['system_seconds']:.1f} s with 1)",
                 verdict(ratio <= 0.6)))

print("| Benchmark | Target | Measured | |")
print("|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
print()
load_avg = machine.get("load_average_at_start")
print(f"Machine: {machine.get('cpu', '?')}, {machine.get('cores', '?')} cores, "
      f"{machine.get('memory_bytes', 0) / 2**30:.0f} GiB; kernel {machine.get('kernel', '?')}; "
      f"{machine.get('compiler', '?')}; libbenchmark {machine.get('libbenchmark', '?')}, "
      f"SimGrid {machine.get('simgrid', '?')}, valgrind {machine.get('valgrind', '?')}. "
      f"Load average when the run started: {', '.join(f'{x:.1f}' for x in load_avg) if load_avg else '?'} "
      "(wall times on a shared machine; CPU times and callgrind instruction counts are the stable figures).")
