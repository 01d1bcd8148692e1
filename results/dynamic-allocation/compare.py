#!/usr/bin/env python3
"""Dynamic allocation as a policy vs as recorded (issue 16, done-criterion 2).

For every SQL execution (or, without SQL, every job) of an event log that ran stages:
  timeline  the imported scenario as it is: the recorded executor timeline (aqesim validate's replay)
  policy    the same scenario with Spark's dynamic-allocation keys from the log's properties given as
            --conf (which replaces the recorded timeline by ExecutorAllocationManager's policy,
            started where the application's manager stood at the selection's start: the executors
            registered then, warm or fresh, with their idle times; a selection that starts the
            application from the log's initial executors), cluster.executorStartSeconds as the
            importer measured it (and, when the log shows them, cluster.executorStartSecondsByRequest,
            each request's own, cluster.executorGrantSeconds, and cluster.executorRemoveSecondsByKill,
            each idle-timeout kill's own removal lag, in order of kill over the whole application, from
            cluster.executorKillsBeforeStart, the kills the log shows before the selection): each
            selection on its own
  chained   the same, but the application's one allocation manager carried from selection to
            selection: cluster.executorRemoveSeconds (measured from the log: removal_lag_seconds; the
            kills past executorRemoveSecondsByKill take it; the allocationAtEnd carried gives killsMade,
            so the gap's kills and the next selection's continue the application's count),
            cluster.executorCapacity (the most containers the log shows at once: most_held), and
              the first selection: as policy starts it;
              every later one: the previous selection's chained run's allocationAtEnd as
                cluster.allocationAtStart, with gapSeconds the recorded gap between the two
                selections (the executors, the requests not registered yet, the executors killed
                whose removal is not reported yet, the target)
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
    executors = {}  # id -> [added ms, removed ms or None, removal reason, killed ms or None (killed_at)]
    busy = {}  # id -> [(task launch ms, task finish ms)]
    for e in events(path):
        ev = e["Event"]
        if ev == "SparkListenerExecutorAdded":
            executors[e["Executor ID"]] = [e["Timestamp"], None, ""]
        elif ev == "SparkListenerExecutorRemoved" and e["Executor ID"] in executors:
            executors[e["Executor ID"]][1] = e["Timestamp"]
            executors[e["Executor ID"]][2] = e.get("Removed Reason", "")
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
            info = e["Task Info"]
            busy.setdefault(info["Executor ID"], []).append((info["Launch Time"], info["Finish Time"]))
    ran = {j for j, st in job_stages.items() if any(stage_tasks.get(s) for s in st)}
    timeout_ms = 1000 * seconds(props.get("spark.dynamicAllocation.executorIdleTimeout", "60s"))
    for eid, entry in executors.items():
        entry.append(killed_at(entry, busy.get(eid, []), timeout_ms))
    if sql:
        ids = sorted({int(jobs[j][2]) for j in ran if jobs[j][2] is not None})
        return [("execution", i, sql[i][0], sql[i][1], props, executors) for i in ids if sql.get(i) and sql[i][1]]
    return [("job", j, jobs[j][0], jobs[j][1], props, executors) for j in sorted(ran) if jobs[j][1]]


def seconds(text):
    """A Spark time string ("10s", "2min", "500ms", bare seconds) in seconds."""
    text = str(text).strip().lower()
    for suffix, scale in (("ms", 0.001), ("min", 60), ("s", 1), ("m", 60), ("h", 3600)):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * scale
    return float(text)


def killed_at(entry, busy, timeout_ms):
    """When the driver decided to remove an executor the log says it killed ("Executor killed by
    driver"): the first moment it had been idle executorIdleTimeout after registering or after its
    last task (the allocation manager's decision). The log's ExecutorRemoved comes when the cluster
    manager reports the container gone, later (12-34 s on the dynamic_alloc log's YARN cluster);
    the executor takes no task in between. None when not killed by the driver."""
    added, removed = entry[0], entry[1]
    if removed is None or "killed by driver" not in entry[2].lower():
        return None
    idle_from = added
    for launch, finish in sorted(busy):
        if launch - idle_from >= timeout_ms:
            break
        idle_from = max(idle_from, finish)
    return min(removed, idle_from + timeout_ms)


def removal_lag_seconds(executors):
    """cluster.executorRemoveSeconds as the log shows it: the median, over the executors the
    driver killed, of ExecutorRemoved − the allocation manager's decision (killed_at); None when
    no executor was killed."""
    lags = sorted((e[1] - e[3]) / 1000.0 for e in executors.values() if e[3] is not None)
    return lags[len(lags) // 2] if lags else None


def most_held(executors):
    """cluster.executorCapacity as far as the log shows it: the most executors registered at once,
    each from its ExecutorAdded to its ExecutorRemoved (a killed executor's container runs until
    the cluster manager reports it gone, and holds its place until then). A lower bound of what
    the cluster could hold for the application; None when no executor was added."""
    changes = sorted([(e[0], 1) for e in executors.values()] +
                     [(e[1], -1) for e in executors.values() if e[1] is not None])  # a removal first
    held, most = 0, None
    for _, d in changes:
        held += d
        most = held if most is None else max(most, held)
    return most


def aqesim(binary, *args):
    r = subprocess.run([binary, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"aqesim {' '.join(args)} failed ({r.returncode}): {r.stderr}")
    return r.stdout


def recorded_curve(executors, start, end, until_killed=False):
    """(seconds from `start`, executors registered) at every change within [start, end], as the
    log's ExecutorAdded / ExecutorRemoved events say; `until_killed`: an executor the driver killed
    counts until the allocation manager removed it (killed_at), as the simulated curve counts."""
    spans = [(e[0], (e[3] if until_killed and e[3] is not None else e[1])) for e in executors.values()]
    points = {start}
    for added, removed in spans:
        for t in (added, removed):
            if t is not None and start < t <= end:
                points.add(t)
    out = []
    for t in sorted(points):
        n = sum(1 for a, r in spans if a <= t and (r is None or t < r))
        if not out or out[-1][1] != n:
            out.append(((t - start) / 1000.0, n))
    return out


def main():
    binary, log, prefix = sys.argv[1:4]
    rows, curve_rows = [], []
    total = {"recorded": 0.0, "timeline": 0.0, "policy": 0.0, "chained": 0.0}
    peak = {"recorded": 0, "live": 0, "policy": 0, "chained": 0}
    carried = None  # the previous selection's chained run's allocationAtEnd, and its recorded end (ms)
    remove_seconds = removal_lag_seconds(selections(log)[0][5]) if selections(log) else None
    capacity = most_held(selections(log)[0][5]) if selections(log) else None
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
            args = ["run", scenario, "--aqe", aqe, "--format", "json"]
            base = json.loads(aqesim(binary, *args))["runs"][0]

            def run_policy(name, cluster_extra, conf_extra):
                policy_doc = json.loads(json.dumps(doc))
                policy_doc["cluster"].update(cluster_extra)
                path = os.path.join(tmp, f"{kind}{sid}-{name}.json")
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(policy_doc, f)
                policy_args = ["run", path, "--aqe", aqe, "--format", "json"]
                for c in conf + conf_extra:
                    policy_args += ["--conf", c]
                return json.loads(aqesim(binary, *policy_args))["runs"][0]

            # policy: this selection alone, from the executors registered at its start.
            policy = run_policy("policy", {}, [])
            # chained: the application's one allocation manager, carried from the selection before.
            chained_cluster = {}
            if remove_seconds is not None:
                chained_cluster["executorRemoveSeconds"] = remove_seconds
            # Per-request latencies, where the importer measured them, already hold each
            # container's wait for a place (a killed container's exit): a capacity on top would
            # count that wait twice.
            if capacity is not None and "executorStartSecondsByRequest" not in doc["cluster"]:
                chained_cluster["executorCapacity"] = capacity
            if carried is None:
                chained = run_policy("chained", chained_cluster, [])
            else:
                state, previous_end = carried
                chained_cluster["allocationAtStart"] = dict(state, gapSeconds=max(0.0, (start - previous_end) / 1000.0))
                chained = run_policy("chained", chained_cluster, [])
            carried = (chained["allocationAtEnd"], end) if "allocationAtEnd" in chained else None
            recorded_s = (end - start) / 1000.0
            rec_curve = recorded_curve(executors, start, end)
            live_curve = recorded_curve(executors, start, end, until_killed=True)
            label = f"{'SQL execution' if kind == 'execution' else 'job'} {sid}"
            for t, n in rec_curve:
                curve_rows.append((label, "recorded", t, n))
            for t, n in live_curve:
                curve_rows.append((label, "recorded until killed", t, n))
            sim_peaks = {}
            for name, run in (("policy", policy), ("chained", chained)):
                # Within the run, as the recorded curve is within the selection (an executor
                # requested during the query may register after its end).
                curve = [(c["seconds"], c["executors"]) for c in run.get("executors", [])
                         if c["seconds"] <= run["makespanSeconds"]]
                for t, n in curve:
                    curve_rows.append((label, name, t, n))
                sim_peaks[name] = max((n for _, n in curve), default=0)
                sim_peaks[name + "Start"] = curve[0][1] if curve else present
                peak[name] = max(peak[name], sim_peaks[name])
                total[name] += run["makespanSeconds"]
            rec_peak = max((n for _, n in rec_curve), default=0)
            live_peak = max((n for _, n in live_curve), default=0)
            peak["live"] = max(peak["live"], live_peak)
            peak["recorded"] = max(peak["recorded"], rec_peak)
            total["recorded"] += recorded_s
            total["timeline"] += base["makespanSeconds"]
            rows.append({"selection": label, "recordedSeconds": recorded_s,
                         "timelineSeconds": base["makespanSeconds"], "policySeconds": policy["makespanSeconds"],
                         "chainedSeconds": chained["makespanSeconds"],
                         "recordedPeakExecutors": rec_peak, "recordedLivePeakExecutors": live_peak,
                         "policyPeakExecutors": sim_peaks["policy"], "chainedPeakExecutors": sim_peaks["chained"],
                         "executorStartSeconds": doc["cluster"].get("executorStartSeconds"),
                         "executorRemoveSeconds": remove_seconds,
                         "executorCapacity": capacity,
                         "startingExecutors": sim_peaks["policyStart"],
                         "chainedStartingExecutors": sim_peaks["chainedStart"], "conf": conf})
    with open(prefix + "-curves.csv", "w", encoding="utf-8") as f:
        f.write("selection,source,seconds,executors\n")
        for label, source, t, n in curve_rows:
            f.write(f"{label},{source},{t:.3f},{n}\n")
    err = lambda s: (s - total["recorded"]) / total["recorded"]
    summary = {"log": os.path.basename(log), "selections": rows,
               "recordedSeconds": total["recorded"], "timelineSeconds": total["timeline"],
               "policySeconds": total["policy"], "timelineError": err(total["timeline"]),
               "policyError": err(total["policy"]), "chainedSeconds": total["chained"],
               "chainedError": err(total["chained"]), "recordedPeakExecutors": peak["recorded"],
               "recordedLivePeakExecutors": peak["live"],
               "policyPeakExecutors": peak["policy"], "chainedPeakExecutors": peak["chained"]}
    with open(prefix + "-summary.json", "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "selections"}))


if __name__ == "__main__":
    main()
