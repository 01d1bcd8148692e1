#!/usr/bin/env python3
"""tools/k8s/sweep-job.yaml, checked without a cluster (no Kubernetes runs here):

1. Schema: every document, parsed by a YAML parser (PyYAML), is deserialized into the
   Kubernetes API type of its kind by the official Python client's models (generated from the
   Kubernetes OpenAPI spec; Debian's python3-kubernetes) and serialized back: a misspelt or
   unknown field, a wrong type or a missing required field makes the round trip differ or fail.
   (No Debian package holds kubeconform or kubeval.)
2. The fields the sweep relies on: the sweep Job is Indexed with completions = parallelism =
   the N of `--shard auto/N`; its pods retry (backoffLimit) and write under a ReadWriteMany
   claim that the merge Job mounts too, and the merge reads the folder the sweep writes, with
   --wait (Kubernetes cannot make a Job wait for another).
3. The commands, run here as the Jobs would run them: the merge first (it waits), then every
   index of the sweep with JOB_COMPLETION_INDEX set, the volumes mapped to local folders; the
   merged output equals the unsharded sweep's byte for byte.

usage: sweep_job_test.py AQESIM_BINARY [MANIFEST]   (exit 77 = skipped: PyYAML or the client missing)
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tests", "support"))
from job_commands import argument_after, environment, fail, local_command, run, same_bytes  # noqa: E402

try:
    import kubernetes.client
    import yaml
except ImportError as error:
    print("SKIPPED: %s (tools/setup.sh --tests installs python3-yaml and python3-kubernetes)" % error)
    sys.exit(77)

MANIFEST = os.path.join(REPO, "tools", "k8s", "sweep-job.yaml")
MODELS = {
    ("v1", "PersistentVolumeClaim"): "V1PersistentVolumeClaim",
    ("v1", "ConfigMap"): "V1ConfigMap",
    ("batch/v1", "Job"): "V1Job",
}


def differences(given, back, path):
    """Where the round trip lost or changed something of `given`."""
    if isinstance(given, dict) and isinstance(back, dict):
        for key, value in given.items():
            if key not in back:
                yield "%s/%s: not a field of the type (misspelt, or of another API version?)" % (path, key)
            else:
                yield from differences(value, back[key], "%s/%s" % (path, key))
    elif isinstance(given, list) and isinstance(back, list) and len(given) == len(back):
        for i, (a, b) in enumerate(zip(given, back)):
            yield from differences(a, b, "%s/%d" % (path, i))
    elif given != back or type(given) is not type(back):
        yield "%s: %r reads back as %r (wrong type?)" % (path, given, back)


def check_schema(doc, where):
    key = (doc.get("apiVersion"), doc.get("kind"))
    if key not in MODELS:
        fail("%s: apiVersion/kind %s/%s: not one this test knows" % (where, key[0], key[1]))
    client = kubernetes.client.ApiClient()

    class Response:  # what ApiClient.deserialize reads: the body of an API server's answer
        data = json.dumps(doc)

    try:
        model = client.deserialize(Response, MODELS[key])
    except (ValueError, TypeError) as error:
        fail("%s: not a valid %s: %s" % (where, MODELS[key], error))
    problems = list(differences(doc, client.sanitize_for_serialization(model), ""))
    if problems:
        fail("%s (%s): %s" % (where, MODELS[key], "; ".join(problems)))


def container(job):
    containers = job["spec"]["template"]["spec"]["containers"]
    if len(containers) != 1:
        fail("Job %s: expected one container, found %d" % (job["metadata"]["name"], len(containers)))
    return containers[0]


def claim_path(job, path):
    """(claim name, path inside the claim) of a container path on a PVC volume, else None."""
    pod = job["spec"]["template"]["spec"]
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    for mount in container(job).get("volumeMounts", []):
        root = mount["mountPath"].rstrip("/")
        if path == root or path.startswith(root + "/"):
            claim = volumes[mount["name"]].get("persistentVolumeClaim")
            return (claim["claimName"], path[len(root):].strip("/")) if claim else None
    return None


def local_mounts(job, folders):
    """Container mount path -> the local folder standing for its volume."""
    return {m["mountPath"]: folders[m["name"]] for m in container(job).get("volumeMounts", [])}


def main():
    global MANIFEST
    if len(sys.argv) not in (2, 3):
        fail("usage: sweep_job_test.py AQESIM_BINARY [MANIFEST]")
    aqesim = os.path.abspath(sys.argv[1])
    if len(sys.argv) == 3:
        MANIFEST = os.path.abspath(sys.argv[2])
    with open(MANIFEST, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    shown = os.path.relpath(MANIFEST, REPO) if MANIFEST.startswith(REPO + os.sep) else MANIFEST
    for i, doc in enumerate(docs):
        check_schema(doc, "%s: document %d" % (shown, i + 1))

    # ---- the fields the sweep relies on --------------------------------------------------
    claims = [d for d in docs if d["kind"] == "PersistentVolumeClaim"]
    jobs = [d for d in docs if d["kind"] == "Job"]
    sweeps = [j for j in jobs if j["spec"].get("completionMode") == "Indexed"]
    merges = [j for j in jobs if j["spec"].get("completionMode") != "Indexed"]
    if len(claims) != 1 or len(sweeps) != 1 or len(merges) != 1:
        fail("expected one PersistentVolumeClaim, one Indexed Job and one merge Job; found %d, %d, %d"
             % (len(claims), len(sweeps), len(merges)))
    claim, sweep, merge = claims[0], sweeps[0], merges[0]
    if "ReadWriteMany" not in claim["spec"]["accessModes"]:
        fail("the claim must be ReadWriteMany: every pod of the sweep writes to it")
    sweep_cmd, merge_cmd = container(sweep)["command"], container(merge)["command"]
    if sweep_cmd[:2] != ["aqesim", "sweep"] or merge_cmd[:2] != ["aqesim", "merge"]:
        fail("expected `aqesim sweep ...` and `aqesim merge ...`, found %r and %r" % (sweep_cmd[:2], merge_cmd[:2]))
    shard = argument_after(sweep_cmd, "--shard") or ""
    if not shard.startswith("auto/") or not shard[5:].isdigit():
        fail("the sweep's --shard must be auto/N (Kubernetes does not tell a pod the completions), found %r"
             % shard)
    shards = int(shard[5:])
    spec = sweep["spec"]
    if spec.get("completions") != shards or spec.get("parallelism") != shards:
        fail("completions (%s) and parallelism (%s) must both be the N of --shard auto/%d"
             % (spec.get("completions"), spec.get("parallelism"), shards))
    if spec.get("backoffLimit", 6) < 1 or sweep["spec"]["template"]["spec"]["restartPolicy"] not in ("Never",
                                                                                                   "OnFailure"):
        fail("a failed sweep pod must be retried (backoffLimit >= 1, restartPolicy Never or OnFailure)")
    out = argument_after(sweep_cmd, "-o")
    if not out or not out.endswith("/"):
        fail("the sweep's -o must be a folder (ending in /), found %r" % out)
    folder = merge_cmd[2]
    written, read = claim_path(sweep, out), claim_path(merge, folder)
    if written is None or written[0] != claim["metadata"]["name"]:
        fail("the sweep writes %s, which is not on the claim %s" % (out, claim["metadata"]["name"]))
    if read != written:
        fail("the merge reads %s = %s on its volumes, the sweep writes %s = %s" % (folder, read, out, written))
    if argument_after(merge_cmd, "--wait") is None:
        fail("the merge Job starts with the sweep: it needs --wait to wait for the shards")
    merged = argument_after(merge_cmd, "-o")
    if claim_path(merge, merged) is None:
        fail("the merge writes %s, which is not on the shared claim" % merged)

    # ---- the commands, as the Jobs run them ------------------------------------------------
    scratch = tempfile.mkdtemp(prefix="aqesim_k8s_")
    try:
        pod_volumes = {v["name"]: v for v in sweep["spec"]["template"]["spec"]["volumes"]}
        folders = {}
        for name, volume in pod_volumes.items():
            folders[name] = os.path.join(scratch, name)
            os.makedirs(folders[name])
            if "configMap" in volume:  # kubectl create configmap ... --from-file=scenario.json=...
                shutil.copy(os.path.join(REPO, "scenarios", "demo.json"), os.path.join(folders[name], "scenario.json"))
        merge_argv = local_command(merge_cmd, aqesim, local_mounts(merge, folders))
        waiting = subprocess.Popen(merge_argv, env=environment({}), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        try:
            sweep_argv = local_command(sweep_cmd, aqesim, local_mounts(sweep, folders))
            for index in range(shards):
                run(sweep_argv, {"JOB_COMPLETION_INDEX": str(index)}, "pod %d of the sweep" % index)
            _, err = waiting.communicate(timeout=120)
        finally:
            if waiting.poll() is None:
                waiting.kill()
                waiting.wait()
        if waiting.returncode != 0:
            fail("the merge Job's command exited %d: %s" % (waiting.returncode, err.strip()))
        whole = sweep_argv[:]
        i = whole.index("--shard")
        del whole[i:i + 2]
        whole[whole.index("-o") + 1] = os.path.join(scratch, "unsharded.csv")
        run(whole, {}, "the unsharded sweep")
        merged_local = local_command(["aqesim", merged], aqesim, local_mounts(merge, folders))[1]
        if not same_bytes(merged_local, os.path.join(scratch, "unsharded.csv")):
            fail("the merge Job's output differs from the unsharded sweep's")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("ok: %s: %d documents valid as Kubernetes API types (python3-kubernetes %s); Indexed Job of %d pods "
          "= --shard auto/%d; the merged output of its commands = the unsharded sweep's, byte for byte"
          % (shown, len(docs), kubernetes.__version__, shards, shards))


if __name__ == "__main__":
    main()
