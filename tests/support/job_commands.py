"""Runs the aqesim commands of a cluster job file (a Kubernetes manifest, an AWS Batch job
definition) on this machine as the scheduler would: the scheduler's variables set for each
array index, the volumes' mount paths mapped to local folders, `aqesim` replaced by the binary
under test. Used by tests/tools/k8s/ and tests/tools/aws-batch/."""

import os
import subprocess
import sys

SCHEDULER_VARIABLES = [
    "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_STEP", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "AWS_BATCH_JOB_ARRAY_SIZE",
]


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def local_command(command, aqesim, mounts):
    """The command with `aqesim` replaced by the binary and every argument under a mount path
    (a dict: container path -> local folder) mapped to the local folder."""
    if not command or command[0] != "aqesim":
        fail("expected a command starting with aqesim, found %r" % (command,))
    out = [aqesim]
    for arg in command[1:]:
        for container_path, local in sorted(mounts.items(), key=lambda kv: -len(kv[0])):
            root = container_path.rstrip("/")
            if arg in (root, root + "/"):
                arg = local
                break
            if arg.startswith(root + "/"):
                arg = os.path.join(local, arg[len(root) + 1:])
                break
        out.append(arg)
    return out


def environment(variables):
    """This process's environment without any scheduler's array variables, plus `variables`."""
    env = {k: v for k, v in os.environ.items() if k not in SCHEDULER_VARIABLES}
    env.update(variables)
    return env


def run(argv, variables, what):
    result = subprocess.run(argv, env=environment(variables), capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        fail("%s: %s exited %d: %s" % (what, " ".join(argv), result.returncode, result.stderr.strip()))
    return result


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def argument_after(command, option):
    """The value after `option` in the command (None when absent)."""
    for i, arg in enumerate(command[:-1]):
        if arg == option:
            return command[i + 1]
    return None
