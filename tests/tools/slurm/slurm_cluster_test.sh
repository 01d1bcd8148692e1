#!/usr/bin/env bash
# A real Slurm scheduler runs tools/slurm/: a single-node cluster on localhost (munged,
# slurmctld, slurmd; key, configuration, state, spool and logs in a temporary folder, ports
# chosen at random) takes the array sweep of tools/slurm/submit.sh (4 elements) and its
# dependent merge job.
#   1. The merged output equals the unsharded sweep's byte for byte.
#   2. One element is cancelled mid-run (scancel, as when a node is lost): the merge job is
#      cancelled with it, `aqesim merge` names the missing shard and its journal; the element
#      re-submitted alone (submit.sh --elements) resumes from its journal (resumed + simulated =
#      its points) and the new merge job's output equals the unsharded sweep's again.
# Everything started is stopped at the end, on failure too (EXIT trap; an own watchdog ends the
# test before ctest's timeout). Needs Debian's slurm-wlm and munge (tools/setup.sh --tests);
# without them it exits 77, which ctest reports as skipped.
#   tests/tools/slurm/slurm_cluster_test.sh AQESIM_BINARY
set -euo pipefail
PATH=$PATH:/usr/sbin:/sbin  # slurmctld, slurmd, munged for a non-root user
[ $# -eq 1 ] || { echo "usage: $0 AQESIM_BINARY" >&2; exit 2; }
aqesim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
repo=$(cd "$(dirname "$0")/../../.." && pwd)
submit=$repo/tools/slurm/submit.sh

for tool in munged mungekey munge unmunge slurmctld slurmd slurmstepd sbatch squeue sinfo scontrol scancel; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIPPED: $tool is not installed (tools/setup.sh --tests installs Debian's slurm-wlm and munge)"
    exit 77
  fi
done

start=$SECONDS
log() { echo "[slurm test, $((SECONDS - start)) s] $*"; }
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

dir=$(mktemp -d "${TMPDIR:-/tmp}/aqesim-slurm.XXXXXX")
chmod 755 "$dir"  # munged wants its socket's folders searchable by all
# Every daemon and job of this cluster carries this variable: the cleanup finds stray
# processes (job steps) by it, and never touches anything else.
marker="AQESIM_SLURM_TEST_DIR=$dir"
munged_pid="" ctld_pid="" slurmd_pid="" watchdog_pid=""

marked_pids() {
  grep -lsxzF "$marker" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3 || true
}

stop_pid() {  # stop_pid PID NAME: TERM, up to 10 s, then KILL
  local pid=$1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "cleanup: $2 (pid $pid) ignored SIGTERM for 10 s: SIGKILL" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

diagnostics() {
  echo "---- diagnostics (folder $dir) ----" >&2
  for f in "$dir"/log/* "$dir"/*.shards/slurm-*.out; do
    [ -f "$f" ] || continue
    echo "---- $f (last 25 lines)" >&2
    tail -n 25 "$f" >&2
  done
  [ -z "$ctld_pid" ] || timeout 10 squeue >&2 2>&1 || true
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  [ -z "$watchdog_pid" ] || { kill "$watchdog_pid" 2>/dev/null; wait "$watchdog_pid" 2>/dev/null; }
  [ "$rc" -eq 0 ] || diagnostics
  if [ -n "$ctld_pid" ] && kill -0 "$ctld_pid" 2>/dev/null; then
    timeout 10 scancel --user="$(id -un)" >/dev/null 2>&1
    for _ in $(seq 50); do
      [ -z "$(timeout 5 squeue -h 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  stop_pid "$slurmd_pid" slurmd
  stop_pid "$ctld_pid" slurmctld
  stop_pid "$munged_pid" munged
  local stray
  stray=$(marked_pids)
  if [ -n "$stray" ]; then
    echo "cleanup: stray processes of this cluster: $(tr '\n' ' ' <<<"$stray")- SIGKILL" >&2
    kill -KILL $stray 2>/dev/null
    sleep 0.5
    if [ -n "$(marked_pids)" ]; then
      echo "FAIL: processes of this cluster survive SIGKILL: $(marked_pids | tr '\n' ' ')" >&2
      rc=1
    fi
  fi
  rm -rf "$dir"
  [ "$rc" -ne 0 ] || log "cluster stopped, nothing left running"
  exit "$rc"
}
trap cleanup EXIT
trap 'echo "interrupted" >&2; exit 130' INT TERM
# Ends the test (through the EXIT trap) before ctest's timeout of 300 s would kill it unhandled.
# Its sleep is stopped with it, so that nothing holds ctest's output pipe once the test ends.
(
  trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
  sleep 240 &
  sleeper=$!
  wait "$sleeper"
  echo "FAIL: the Slurm test took over 240 s" >&2
  kill -TERM $$
) &
watchdog_pid=$!

wait_for() {  # wait_for SECONDS WHAT COMMAND...: polls COMMAND every 0.2 s
  local limit=$1 what=$2
  shift 2
  local deadline=$((SECONDS + limit))
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || fail "timed out after $limit s waiting for $what"
    sleep 0.2
  done
}

# ---- the cluster -------------------------------------------------------------------------
mkdir -m 700 "$dir/munge-key"
mkdir -m 755 "$dir/munge-run"
mkdir -p "$dir/log" "$dir/state" "$dir/spool"
mungekey --create --keyfile="$dir/munge-key/munge.key"
socket=$dir/munge-run/munge.socket
env "$marker" munged --foreground --socket="$socket" --key-file="$dir/munge-key/munge.key" \
  --pid-file="$dir/munge-run/munged.pid" --log-file="$dir/log/munged.log" \
  --seed-file="$dir/munge-key/munged.seed" >"$dir/log/munged.out" 2>&1 &
munged_pid=$!
munge_answers() {
  kill -0 "$munged_pid" 2>/dev/null || fail "munged exited: $(tail -n 3 "$dir/log/munged.log" 2>/dev/null)"
  munge -n -S "$socket" 2>/dev/null | unmunge -S "$socket" >/dev/null 2>&1
}
wait_for 20 "munged to answer on $socket" munge_answers

host=$(uname -n)
host=${host%%.*}
user=$(id -un)
export SLURM_CONF=$dir/slurm.conf
write_conf() {  # write_conf CTLD_PORT SLURMD_PORT
  cat >"$SLURM_CONF" <<EOF
ClusterName=aqesimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdParameters=config_overrides
KillWait=5
MinJobAge=600
NodeName=aqesimnode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
PartitionName=debug Nodes=aqesimnode Default=YES MaxTime=INFINITE State=UP
EOF
}
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
node_idle() {
  kill -0 "$ctld_pid" 2>/dev/null || return 2
  kill -0 "$slurmd_pid" 2>/dev/null || return 3
  [ "$(timeout 5 sinfo -h -N -o %T 2>/dev/null)" = idle ]
}
for attempt in 1 2 3; do
  ctld_port=$((20000 + RANDOM % 30000))
  slurmd_port=$((ctld_port + 1))
  port_free "$ctld_port" && port_free "$slurmd_port" || continue
  write_conf "$ctld_port" "$slurmd_port"
  env "$marker" slurmctld -D -f "$SLURM_CONF" >"$dir/log/slurmctld.out" 2>&1 &
  ctld_pid=$!
  env "$marker" slurmd -D -f "$SLURM_CONF" -N aqesimnode >"$dir/log/slurmd.out" 2>&1 &
  slurmd_pid=$!
  deadline=$((SECONDS + 30))
  status=1
  while [ "$SECONDS" -lt "$deadline" ]; do
    node_idle && { status=0; break; } || status=$?
    [ "$status" -eq 1 ] || break  # a daemon exited
    sleep 0.2
  done
  [ "$status" -eq 0 ] && break
  # A port taken between the check and the bind: stop both, try other ports.
  grep -qs "Address already in use" "$dir/log/slurmctld.log" "$dir/log/slurmd.log" ||
    fail "the Slurm daemons did not bring the node up within 30 s (status $status)"
  stop_pid "$slurmd_pid" slurmd
  stop_pid "$ctld_pid" slurmctld
  ctld_pid="" slurmd_pid=""
  rm -rf "$dir/state"/* "$dir/spool"/* "$dir/log"/slurm*
done
[ -n "$ctld_pid" ] || fail "no free pair of ports for slurmctld and slurmd after 3 attempts"
log "single-node Slurm cluster up (slurmctld port $ctld_port, slurmd $slurmd_port, $(slurmctld -V))"

# ---- the sweep ---------------------------------------------------------------------------
# 2 x 3 x 4 = 24 points, 6 per element. The last axis varies fastest and has 4 values, so
# element K-1 runs the points of its K-th value: element 2 (shard 3) gets the 30000-partition
# points, a few tenths of a second each, and runs for seconds (it can be cancelled mid-run),
# while the others finish in a fraction of that (the test stays short, under sanitizers too).
scenario=$repo/scenarios/skew-join.json
grid=(--grid spark.sql.adaptive.advisoryPartitionSizeInBytes=16m,64m
      --grid cluster.executors=4,16,64
      --grid spark.sql.shuffle.partitions=100,200,30000,400)
points_per_shard=6
"$aqesim" sweep "$scenario" "${grid[@]}" --threads 2 -o "$dir/all.csv" 2>/dev/null
[ "$(wc -l <"$dir/all.csv")" -eq 25 ] || fail "the unsharded sweep wrote $(wc -l <"$dir/all.csv") lines, expected 25"
log "unsharded sweep: 24 points"

job_states() {  # the distinct states of a job (of every element of an array job)
  timeout 10 scontrol show job -o "$1" 2>/dev/null | sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p' | sort -u | tr '\n' ' '
}
job_ended() {
  local s
  s=$(job_states "$1")
  [ -n "$s" ] && ! grep -qE 'PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUE|RESIZING|SIGNALING|STAGE_OUT' <<<"$s"
}
expect_state() {  # expect_state JOB STATE WHAT
  local s
  s=$(job_states "$1")
  [ "$s" = "$2 " ] || fail "$3: job $1 is ${s:-unknown}, expected $2"
}
submit_sweep() {  # submit_sweep OUT [submit.sh options]: prints "ARRAY MERGE"
  local out=$1
  shift
  env "$marker" AQESIM="$aqesim" "$submit" --shards 4 -o "$out" "$@" -- "$scenario" "${grid[@]}"
}

# 1. The array and its dependent merge.
ids=$(submit_sweep "$dir/a.csv")
read -r array merge <<<"$ids"
wait_for 120 "merge job $merge (after array job $array)" job_ended "$merge"
expect_state "$array" COMPLETED "the array's 4 elements"
expect_state "$merge" COMPLETED "the merge job"
[ "$(ls "$dir"/a.shards/shard-?-of-4.csv | wc -l)" -eq 4 ] || fail "expected 4 shard files in a.shards/"
cmp "$dir/all.csv" "$dir/a.csv" || fail "the merged output differs from the unsharded sweep's"
log "array job $array (4 elements) + merge job $merge: merged output = unsharded sweep, byte for byte"

# 2. Element 2 (shard 3 of 4) cancelled mid-run, then re-submitted alone.
ids=$(submit_sweep "$dir/b.csv")
read -r array merge <<<"$ids"
journal=$dir/b.shards/shard-3-of-4.csv.journal
journal_has() { [ -f "$journal" ] && [ "$(wc -l <"$journal")" -ge $(($1 + 1)) ]; }  # header + rows
wait_for 120 "element 2 to journal its first point" journal_has 1
scancel "${array}_2"
wait_for 60 "element 2 to end after scancel" job_ended "${array}_2"
[ ! -f "$dir/b.shards/shard-3-of-4.csv" ] ||
  fail "element 2 finished before scancel reached it: its points are too quick for this test"
expect_state "${array}_2" CANCELLED "the cancelled element"
done_points=$(($(wc -l <"$journal") - 1))  # complete rows (a row is one write ending in a newline)
[ "$done_points" -lt "$points_per_shard" ] || fail "element 2 journaled all its points before it was cancelled"
wait_for 60 "the other elements to end" job_ended "$array"
for e in 0 1 3; do expect_state "${array}_$e" COMPLETED "element $e"; done
wait_for 60 "merge job $merge to be cancelled (its dependency can no longer be met)" job_ended "$merge"
expect_state "$merge" CANCELLED "the merge job of an array with a cancelled element"
[ ! -e "$dir/b.csv" ] || fail "b.csv exists although its merge job was cancelled"
set +e
missing=$("$aqesim" merge "$dir/b.shards" -o "$dir/b-partial.csv" 2>&1)
rc=$?
set -e
expected="aqesim: error: $dir/b.shards: shards missing: 3 of 4 (their array elements did not finish: re-run them; they resume from their journals: shard-3-of-4.csv.journal holds $done_points finished point(s))"
[ "$rc" -eq 2 ] && [ "$missing" = "$expected" ] ||
  fail "merge of the folder without shard 3: exit $rc, '$missing'; expected exit 2, '$expected'"
log "element 2 cancelled after $done_points of $points_per_shard points; merge job $merge cancelled; merge names shard 3"

ids=$(submit_sweep "$dir/b.csv" --elements 2)
read -r array2 merge2 <<<"$ids"
wait_for 120 "merge job $merge2 (after re-submitted element $array2)" job_ended "$merge2"
expect_state "$array2" COMPLETED "the re-submitted element"
expect_state "$merge2" COMPLETED "the new merge job"
resumed="aqesim: sweep: resumed $done_points finished point(s) from $journal, simulated $((points_per_shard - done_points))"
grep -qxF "$resumed" "$dir/b.shards/slurm-${array2}_2.out" ||
  fail "the re-submitted element's log lacks '$resumed'"
[ ! -e "$journal" ] || fail "the journal is still there after the shard was written"
cmp "$dir/all.csv" "$dir/b.csv" || fail "after the re-run, the merged output differs from the unsharded sweep's"
log "element re-submitted (job $array2) resumed $done_points point(s), simulated $((points_per_shard - done_points)); merge job $merge2: output = unsharded sweep, byte for byte"
