#!/usr/bin/env python3
"""Dynamic allocation as a policy vs as recorded (issue 16, done-criterion 2).

For every SQL execution (or, without SQL, every job) of an event log that ran stages:
  timeline  the imported scenario as it is: the recorded executor timeline (aqesim validate's replay)
  policy    the same scenario with Spark's dynamic-allocation keys from the log's properties given as
            --conf (which replaces the recorded timeline by ExecutorAllocationManager's policy), the
            executors present at the selection's start as spark.executor.instances (the policy's
            starting target), and cluster.executorStartSeconds as the importer measured it
and writes, per log, the recorded and simulated executor curves side by side (CSV) and a summary
row (peak executors, makespan errors) to stdout as JSON lines.

usage: compare.py AQESIM LOG OUT_PREFIX
"""
import json
import os
import subprocess
import sys
import tempfile


def events(path):
    if path.endswith(".zstd"):
        text = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout.decode()
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    for line in text.splitlines():
        if line.strip():
            yield json.loads(line)


def selections(path):
    """(kind, id, start_ms, end_ms, properties) of the log's SQL executions, else its jobs."""
    props, sql, jobs, job_stages, stage_tasks = {}, {}, {}, {}, {}
    executors = {}  # id -> [added ms, removed ms or None]
    for e in events(path):
        ev = e["Event"]
        if ev == "SparkListenerExecutorAdded":
            executors[e["Executor ID"]] = [e["Timestamp"], None]
        elif ev == "SparkListenerExecutorRemoved" and e["Executor ID"] in executors:
            executors[e["Executor ID"]][1] = e["Timestamp"]
        elif ev == "SparkListenerEnvironmentUpdate":
            props = e["Spark Properties"]
            if isinstance(props, list):
                props = dict(props)
        elif ev.endswith("SQLExecutionStart"):
            sql[e["executionId"]] = [e["time"], None]
        elif ev.endswith("SQLExecutionEnd"):
            sql[e["executionId"]][1] = e["time"]
        elif ev == "SparkListenerJobStart":
            jobs[e["Job ID"]] = [e["Submission Time"], None, (e.get("Properties") or {}).get("spark.sql.execution.id")]
            job_stages[e["Job ID"]] = e.get("Stage IDs", [])
        elif ev == "SparkListenerJobEnd":
            jobs[e["Job ID"]][1] = e["Completion Time"]
        elif ev == "SparkListenerTaskEnd":
            stage_tasks[e["Stage ID"]] = stage_tasks.get(e["Stage ID"], 0) + 1
    ran = {j for j, st in job_stages.items() if any(stage_tasks.get(s) for s in st)}
    if sql:
        ids = sorted({int(jobs[j][2]) for j in ran if jobs[j][2] is not None})
        return [("execution", i, sql[i][0], sql[i][1], props, executors) for i in ids if sql.get(i) and sql[i][1]]
    return [("job", j, jobs[j][0], jobs[j][1], props, executors) for j in sorted(ran) if jobs[j][1]]


def aqesim(binary, *args):
    r = subprocess.run([binary, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"aqesim {' '.join(args)} failed ({r.returncode}): {r.stderr}")
    return r.stdout


def recorded_curve(executors, start, end):
    """(seconds from `start`, executors registered) at every change within [start, end], as the
    log's ExecutorAdded / ExecutorRemoved events say."""
    points = {start}
    for added, removed in executors.values():
        for t in (added, removed):
            if t is not None and start < t <= end:
                points.add(t)
    out = []
    for t in sorted(points):
        n = sum(1 for a, r in executors.values() if a <= t and (r is None or t < r))
        if not out or out[-1][1] != n:
            out.append(((t - start) / 1000.0, n))
    return out


def main():
    binary, log, prefix = sys.argv[1:4]
    rows, curve_rows = [], []
    total = {"recorded": 0.0, "timeline": 0.0, "policy": 0.0}
    peak = {"recorded": 0, "policy": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for kind, sid, start, end, props, executors in selections(log):
            scenario = os.path.join(tmp, f"{kind}{sid}.json")
            aqesim(binary, "import-eventlog", log, f"--{kind}", str(sid), "-o", scenario, "-q")
            with open(scenario, encoding="utf-8") as f:
                doc = json.load(f)
            adaptive = str(doc["conf"].get("spark.sql.adaptive.enabled", "false")).lower() == "true"
            aqe = "on" if adaptive else "off"
            timeline = doc["cluster"].get("executorTimeline", [])
            # The policy starts from the executors the replay has at the start: the recorded
            # timeline's entries present then (an idle executor past executorIdleTimeout is
            # already gone there, as ExecutorAllocationManager had decided).
            present = sum(1 for e in timeline if e.get("add", 0.0) <= 0 and e.get("remove", 1.0) > 0) \
                if timeline else int(doc["cluster"]["executors"])
            conf = [f"{k}={v}" for k, v in sorted(props.items())
                    if k.startswith("spark.dynamicAllocation.") or k == "spark.shuffle.service.enabled"]
            conf.append(f"spark.executor.instances={present}")
            args = ["run", scenario, "--aqe", aqe, "--format", "json"]
            base = json.loads(aqesim(binary, *args))["runs"][0]
            policy_args = args[:]
            for c in conf:
                policy_args += ["--conf", c]
            policy = json.loads(aqesim(binary, *policy_args))["runs"][0]
            recorded_s = (end - start) / 1000.0
            rec_curve = recorded_curve(executors, start, end)
            sim_curve = [(c["seconds"], c["executors"]) for c in policy.get("executors", [])]
            label = f"{'SQL execution' if kind == 'execution' else 'job'} {sid}"
            for t, n in rec_curve:
                curve_rows.append((label, "recorded", t, n))
            for t, n in sim_curve:
                curve_rows.append((label, "policy", t, n))
            rec_peak = max((n for _, n in rec_curve), default=0)
            sim_peak = max((n for _, n in sim_curve), default=0)
            peak["recorded"] = max(peak["recorded"], rec_peak)
            peak["policy"] = max(peak["policy"], sim_peak)
            total["recorded"] += recorded_s
            total["timeline"] += base["makespanSeconds"]
            total["policy"] += policy["makespanSeconds"]
            rows.append({"selection": label, "recordedSeconds": recorded_s,
                         "timelineSeconds": base["makespanSeconds"], "policySeconds": policy["makespanSeconds"],
                         "recordedPeakExecutors": rec_peak, "policyPeakExecutors": sim_peak,
                         "executorStartSeconds": doc["cluster"].get("executorStartSeconds"),
                         "startingExecutors": present, "conf": conf})
    with open(prefix + "-curves.csv", "w", encoding="utf-8") as f:
        f.write("selection,source,seconds,executors\n")
        for label, source, t, n in curve_rows:
            f.write(f"{label},{source},{t:.3f},{n}\n")
    err = lambda s: (s - total["recorded"]) / total["recorded"]
    summary = {"log": os.path.basename(log), "selections": rows,
               "recordedSeconds": total["recorded"], "timelineSeconds": total["timeline"],
               "policySeconds": total["policy"], "timelineError": err(total["timeline"]),
               "policyError": err(total["policy"]), "recordedPeakExecutors": peak["recorded"],
               "policyPeakExecutors": peak["policy"]}
    with open(prefix + "-summary.json", "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "selections"}))


if __name__ == "__main__":
    main()
