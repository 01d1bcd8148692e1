"""Per-log replay features of the cost model's terms, extracted once (results/defaults/run.sh).

For each log, `aqesim validate LOG --no-profile --cost C --format json` is run with C = the base
cost (BASE.json) and with C = the base plus a step in one parameter at a time. Every matched
stage's simulated seconds and the makespan are then linear in the parameters near the base:

    D(theta) ~ D(base) + sum_j (D(base + step_j) - D(base)) / step_j * (theta_j - base_j)

so a fold of the leave-one-out is a fit over these numbers, with no simulation (fit.py); only
the final table replays the logs with each fold's cost.

Usage: features.py AQESIM BASE.json OUT.json name=LOG ...
"""
import json
import subprocess
import sys
import tempfile

# Parameter -> step (the probe): of the order of the values hardware gives.
STEPS = {
    "taskLaunchSeconds": 0.01,
    "executorStartupSeconds": 0.5,
    "executorStageWarmupSeconds": 0.05,
    "stageOverheadSeconds": 0.05,
    "replanSeconds": 0.05,
    "remoteFetchRequestSeconds": 0.002,
    "localFetchRequestSeconds": 0.0001,
    "scanSecondsPerByte": 1.0 / 150e6,
    "shuffleWriteSecondsPerByte": 1.0 / 200e6,
    "shuffleReadSecondsPerByte": 1.0 / 300e6,
    "sortSecondsPerByte": 1.0 / 100e6,
    "hashBuildSecondsPerByte": 1.0 / 150e6,
    "joinProbeSecondsPerByte": 1.0 / 400e6,
    "aggregateSecondsPerByte": 1.0 / 200e6,
    "streamSecondsPerByte": 1.0 / 1e9,
    "readSecondsPerRow": 1e-6,
    "writeSecondsPerRow": 1e-6,
    "joinSecondsPerOutputRow": 1e-6,
}


def replay(aqesim, log, cost):
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(cost, f)
        f.flush()
        out = subprocess.run([aqesim, "validate", "-q", log, "--no-profile", "--cost", f.name, "--format", "json"],
                             check=True, capture_output=True, text=True).stdout
    v = json.loads(out)
    stages = {}
    for s in v["stages"]:
        if s.get("simulatedSeconds") is None or not s.get("recordedSeconds"):
            continue
        stages[f"{s['selection']}|{s['stageId']}"] = (s["recordedSeconds"], s["simulatedSeconds"])
    m = v["makespan"]
    return {"makespan": (m["recordedSeconds"], m["simulatedSeconds"]), "stages": stages}


def main():
    aqesim, base_file, out = sys.argv[1:4]
    base = json.load(open(base_file))
    result = {"base": base, "steps": STEPS, "logs": {}}
    for arg in sys.argv[4:]:
        name, log = arg.split("=", 1)
        b = replay(aqesim, log, base)
        feats = {}
        for p, step in STEPS.items():
            c = dict(base)
            c[p] = base.get(p, 0.0) + step
            r = replay(aqesim, log, c)
            feats[p] = {
                "makespan": (r["makespan"][1] - b["makespan"][1]) / step,
                "stages": {k: (r["stages"][k][1] - v[1]) / step for k, v in b["stages"].items() if k in r["stages"]},
            }
        result["logs"][name] = {"base": b, "features": feats}
        print(name, "makespan", b["makespan"], "stages", len(b["stages"]), file=sys.stderr, flush=True)
        json.dump(result, open(out, "w"), indent=0)


if __name__ == "__main__":
    main()
