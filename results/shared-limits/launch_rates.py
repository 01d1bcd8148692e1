#!/usr/bin/env python3
"""How fast did the driver launch tasks in the shared event logs? (README "Shared limits").

For each log, the task set with the most tasks: its first wave (the first min(tasks, cores)
launches, cores = the executors' Total Cores added) and the span of their Launch Times, an upper
bound of the driver's time per task launch (the driver may launch a whole offer round at once);
and the median gap from a task's Finish Time to the next launch on the same executor (the
driver's reaction to a freed slot), over that stage's later tasks. Launch and Finish Times are
milliseconds. The held-out validation log is not read.

  python3 results/shared-limits/launch_rates.py EVENTLOG_DIR > results/shared-limits/launch_rates.md
Needs zstd for the .zstd logs.
"""
import collections
import glob
import json
import os
import statistics
import subprocess
import sys

LOGS = ["aqeshuffle_eventlog.zstd", "customshuffle_eventlog.zstd",
        "eventlog_4nodes_8cores_dynamic_alloc.zstd", "join_agg_on_yarn_eventlog.zstd",
        "application_1472176676028_407508_1", "corpus/dsAndDf_eventlog.zstd",
        "corpus/pandas_execs_eventlog.zstd", "corpus/rp_sql_eventlog.zstd",
        "corpus/tasks_executors_fail_compressed_eventlog.zstd", "corpus/xgboost_eventlog.zstd",
        "corpus/attempt_1_eventlog.zstd", "corpus/eventlog_v2_local-1623876083964"]


def lines(path):
    if os.path.isdir(path):
        for f in sorted(glob.glob(os.path.join(path, "*"))):
            yield from lines(f)
        return
    if path.endswith(".zstd"):
        text = subprocess.run(["zstd", "-dc", path], capture_output=True, check=True).stdout
    else:
        with open(path, "rb") as f:
            text = f.read()
    yield from text.decode("utf-8", "replace").splitlines()


def measure(path):
    tasks = collections.defaultdict(list)  # stage id -> (launch ms, finish ms, executor)
    cores = 0
    for line in lines(path):
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if e.get("Event") == "SparkListenerTaskEnd":
            t = e["Task Info"]
            tasks[e["Stage ID"]].append((t["Launch Time"], t["Finish Time"], t["Executor ID"]))
        elif e.get("Event") == "SparkListenerExecutorAdded":
            cores += e["Executor Info"]["Total Cores"]
    stage = max(tasks, key=lambda s: len(tasks[s]))
    ts = sorted(tasks[stage])
    wave = ts[:max(1, min(len(ts), cores))]
    span = wave[-1][0] - wave[0][0]
    finishes = collections.defaultdict(list)
    for launch, finish, ex in ts:
        finishes[ex].append(finish)
    gaps = []
    for launch, _, ex in ts:
        before = [f for f in finishes[ex] if f <= launch]
        if before:
            gaps.append(launch - max(before))
    gap = statistics.median(gaps) if gaps else None
    return stage, len(ts), cores, len(wave), span, gap


print("| log | largest stage | tasks | cores | first wave | its launches span ms | ms per launch (bound) "
      "| median finish → next launch on the executor, ms |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for log in LOGS:
    stage, n, cores, wave, span, gap = measure(os.path.join(sys.argv[1], log))
    per = span / max(1, wave - 1)
    print(f"| {os.path.basename(log)} | {stage} | {n} | {cores} | {wave} | {span} | {per:.2f} | "
          f"{'-' if gap is None else gap} |")
