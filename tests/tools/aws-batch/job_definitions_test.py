#!/usr/bin/env python3
"""tools/aws-batch/*-job-definition.json, checked without AWS (no Batch runs here):

1. Schema: each file is validated as a RegisterJobDefinition request against the AWS Batch API
   model that botocore ships (Debian's python3-botocore), offline: unknown or misspelt members,
   wrong types, missing required members fail.
2. The fields the sweep relies on: the sweep's command takes its shard from the array
   (`--shard Ref::shard`, default parameter `auto`) and writes a folder on an EFS volume that
   the merge reads at the same place; a failed child is retried (it resumes from its journal).
3. The commands, run here as Batch would run them: parameters substituted (Ref::NAME), each
   child of an array of 3 with AWS_BATCH_JOB_ARRAY_INDEX / AWS_BATCH_JOB_ARRAY_SIZE set, the EFS
   volume mapped to a local folder, then the merge; the merged output equals the unsharded
   sweep's byte for byte. The README's re-run of one shard (--parameters shard=K/N) too.

usage: job_definitions_test.py AQESIM_BINARY   (exit 77 = skipped: botocore missing)
"""

import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "tests", "support"))
from job_commands import argument_after, fail, local_command, run, same_bytes  # noqa: E402

try:
    import botocore
    import botocore.session
    import botocore.validate
except ImportError as error:
    print("SKIPPED: %s (tools/setup.sh --tests installs python3-botocore)" % error)
    sys.exit(77)

FOLDER = os.path.join(REPO, "tools", "aws-batch")
ARRAY_SIZE = 3


def load(name):
    path = os.path.join(FOLDER, name)
    with open(path, encoding="utf-8") as f:
        definition = json.load(f)
    shape = botocore.session.get_session().get_service_model("batch").operation_model(
        "RegisterJobDefinition").input_shape
    report = botocore.validate.ParamValidator().validate(definition, shape)
    if report.has_errors():
        fail("tools/aws-batch/%s: not a valid RegisterJobDefinition request: %s" % (name, report.generate_report()))
    return definition


def command_of(definition, parameters=None):
    """The container command with Ref::NAME replaced as Batch does (submit-time parameters win
    over the definition's defaults)."""
    values = dict(definition.get("parameters", {}))
    values.update(parameters or {})
    command = []
    for arg in definition["containerProperties"]["command"]:
        if arg.startswith("Ref::"):
            if arg[5:] not in values:
                fail("%s: %s has no default in the definition's parameters" % (definition["jobDefinitionName"], arg))
            arg = values[arg[5:]]
        command.append(arg)
    return command


def efs_mounts(definition):
    """Container path -> (file system, root directory) of each EFS mount point."""
    props = definition["containerProperties"]
    volumes = {v["name"]: v.get("efsVolumeConfiguration") for v in props.get("volumes", [])}
    return {m["containerPath"]: (volumes[m["sourceVolume"]]["fileSystemId"],
                                 volumes[m["sourceVolume"]].get("rootDirectory", "/"))
            for m in props.get("mountPoints", []) if volumes.get(m["sourceVolume"])}


def on_efs(definition, path):
    """(file system, root, path inside the volume) of a container path on EFS, else None."""
    for container_path, (fs_id, root) in efs_mounts(definition).items():
        base = container_path.rstrip("/")
        if path == base or path.startswith(base + "/"):
            return (fs_id, root, path[len(base):].strip("/"))
    return None


def main():
    if len(sys.argv) != 2:
        fail("usage: job_definitions_test.py AQESIM_BINARY")
    aqesim = os.path.abspath(sys.argv[1])
    sweep, merge = load("sweep-job-definition.json"), load("merge-job-definition.json")

    # ---- the fields the sweep relies on --------------------------------------------------
    sweep_cmd, merge_cmd = command_of(sweep), command_of(merge)
    if sweep_cmd[:2] != ["aqesim", "sweep"] or merge_cmd[:2] != ["aqesim", "merge"]:
        fail("expected `aqesim sweep ...` and `aqesim merge ...`, found %r and %r" % (sweep_cmd[:2], merge_cmd[:2]))
    if argument_after(sweep["containerProperties"]["command"], "--shard") != "Ref::shard" or \
            argument_after(sweep_cmd, "--shard") != "auto":
        fail("the sweep's shard must come from the array: --shard Ref::shard with the default parameter auto")
    if sweep.get("retryStrategy", {}).get("attempts", 1) < 2:
        fail("a failed child must be retried (retryStrategy attempts >= 2): it resumes from its journal")
    out = argument_after(sweep_cmd, "-o")
    if not out or not out.endswith("/"):
        fail("the sweep's -o must be a folder (ending in /), found %r" % out)
    written, read = on_efs(sweep, out), on_efs(merge, merge_cmd[2])
    if written is None:
        fail("the sweep writes %s, which is not on an EFS volume every child shares" % out)
    if read != written:
        fail("the merge reads %s = %s, the sweep writes %s = %s" % (merge_cmd[2], read, out, written))
    merged = argument_after(merge_cmd, "-o")
    if on_efs(merge, merged) is None:
        fail("the merge writes %s, which is not on the EFS volume" % merged)
    scenario = on_efs(sweep, sweep_cmd[2])
    if scenario is None:
        fail("the scenario %s is not on the EFS volume" % sweep_cmd[2])

    # ---- the commands, as Batch runs them --------------------------------------------------
    scratch = tempfile.mkdtemp(prefix="aqesim_aws_batch_")
    try:
        # Both definitions mount the same file system: one local folder stands for it.
        volume = os.path.join(scratch, "efs")
        os.makedirs(os.path.join(volume, os.path.dirname(scenario[2])))
        shutil.copy(os.path.join(REPO, "scenarios", "demo.json"), os.path.join(volume, scenario[2]))
        mounts = {path: volume for path in efs_mounts(sweep)}
        sweep_argv = local_command(sweep_cmd, aqesim, mounts)
        for index in range(ARRAY_SIZE):
            run(sweep_argv, {"AWS_BATCH_JOB_ARRAY_INDEX": str(index), "AWS_BATCH_JOB_ARRAY_SIZE": str(ARRAY_SIZE)},
                "child %d of the array" % index)
        merge_argv = local_command(merge_cmd, aqesim, {path: volume for path in efs_mounts(merge)})
        run(merge_argv, {}, "the merge job")
        whole = sweep_argv[:]
        i = whole.index("--shard")
        del whole[i:i + 2]
        whole[whole.index("-o") + 1] = os.path.join(scratch, "unsharded.csv")
        run(whole, {}, "the unsharded sweep")
        merged_local = os.path.join(volume, on_efs(merge, merged)[2])
        if not same_bytes(merged_local, os.path.join(scratch, "unsharded.csv")):
            fail("the merge job's output differs from the unsharded sweep's")
        # The README's re-run of one shard: not an array child, the shard given as a parameter.
        shard_file = os.path.join(volume, written[2], "shard-2-of-%d.csv" % ARRAY_SIZE)
        with open(shard_file, "rb") as f:
            expected = f.read()
        os.remove(shard_file)
        rerun = local_command(command_of(sweep, {"shard": "2/%d" % ARRAY_SIZE}), aqesim, mounts)
        run(rerun, {}, "the re-run of shard 2 (--parameters shard=2/%d)" % ARRAY_SIZE)
        with open(shard_file, "rb") as f:
            if f.read() != expected:
                fail("the re-run of shard 2 wrote other bytes than the array child did")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("ok: tools/aws-batch: both job definitions valid RegisterJobDefinition requests (botocore %s model); "
          "an array of %d children + merge = the unsharded sweep, byte for byte; a shard re-run by parameter "
          "writes the same bytes" % (botocore.__version__, ARRAY_SIZE))


if __name__ == "__main__":
    main()
