#!/usr/bin/env bash
# Submits an aqesim sweep to Slurm: an array job of N elements (sweep.sbatch; element i runs
# shard i+1 of N and writes FOLDER/shard-K-of-N.csv) and a merge job (merge.sbatch) that runs
# when every element has succeeded (--dependency=afterok) and is cancelled if one fails
# (--kill-on-invalid-dep=yes).
#
#   tools/slurm/submit.sh --shards N -o OUT.csv|OUT.json [--folder FOLDER/] [--elements LIST]
#                         [--cpus C] [--sbatch OPTION]... -- SCENARIO --grid KEY=V1,V2,... [sweep options]
#
#   --shards N        array elements = shards (indices 0..N-1)
#   -o OUT            the merged output (its extension chooses CSV or JSON for the shards too)
#   --folder FOLDER/  the shared folder of the shards and the job logs (default: OUT's name
#                     without its extension + ".shards/"); every node must see it
#   --elements LIST   submit only these array indices (sbatch --array syntax, e.g. 2 or 1,3 or
#                     0-7), with a new merge job: how failed elements are re-run; each resumes
#                     from its journal in FOLDER
#   --cpus C          CPUs per element (its --threads); default 1
#   --sbatch OPTION   an extra sbatch option for both jobs (repeatable), e.g. --sbatch --partition=batch;
#                     sbatch's own SBATCH_* environment variables apply too
#
# Prints "ARRAY_JOB_ID MERGE_JOB_ID" on stdout. AQESIM names the aqesim binary (default: aqesim
# on PATH, else this checkout's build/tools/aqesim).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

usage() {
  { echo usage:; sed -n '7,8p' "$0" | sed 's/^# */  /'; } >&2
  echo "submit.sh: error: $1" >&2
  exit 2
}

shards="" output="" folder="" elements="" cpus=1
sbatch_options=()
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) shards=${2:-}; shift 2 || usage "--shards needs a value" ;;
    -o|--output) output=${2:-}; shift 2 || usage "-o needs a value" ;;
    --folder) folder=${2:-}; shift 2 || usage "--folder needs a value" ;;
    --elements) elements=${2:-}; shift 2 || usage "--elements needs a value" ;;
    --cpus) cpus=${2:-}; shift 2 || usage "--cpus needs a value" ;;
    --sbatch) sbatch_options+=("${2:-}"); shift 2 || usage "--sbatch needs a value" ;;
    --) shift; break ;;
    *) usage "unknown option $1 (the sweep's own arguments go after --)" ;;
  esac
done
sweep_args=("$@")
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || usage "--shards: expected a positive integer, got '$shards'"
[[ "$cpus" =~ ^[1-9][0-9]*$ ]] || usage "--cpus: expected a positive integer, got '$cpus'"
case "$output" in
  *.csv) format=csv ;;
  *.json) format=json ;;
  *) usage "-o: expected OUT.csv or OUT.json, got '$output'" ;;
esac
[ "${#sweep_args[@]}" -gt 0 ] || usage "give the sweep's arguments after -- (SCENARIO --grid ...)"
[ -n "$folder" ] || folder="${output%.*}.shards/"
folder="${folder%/}/"
last=$((shards - 1))
if [ -z "$elements" ]; then
  elements="0-$last"
else
  # Every index of the list must be a shard's: 0..N-1.
  [[ "$elements" =~ ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$ ]] ||
    usage "--elements: expected indices like 2 or 1,3 or 0-7, got '$elements'"
  for index in $(tr ',-' '  ' <<<"$elements"); do
    [ "$((10#$index))" -le "$last" ] || usage "--elements: index $index is not a shard's (0..$last)"
  done
fi

if [ -z "${AQESIM:-}" ]; then
  if command -v aqesim >/dev/null 2>&1; then
    AQESIM=$(command -v aqesim)
  elif [ -x "$here/../../build/tools/aqesim" ]; then
    AQESIM=$(cd "$here/../../build/tools" && pwd)/aqesim
  else
    usage "no aqesim binary: put it on PATH or set AQESIM"
  fi
fi
export AQESIM

mkdir -p "$folder"  # Slurm does not create the logs' folder
job_id() { cut -d';' -f1; }  # --parsable prints ID or ID;CLUSTER
array=$(sbatch --parsable "${sbatch_options[@]+"${sbatch_options[@]}"}" --array="$elements" \
          --cpus-per-task="$cpus" --output="${folder}slurm-%A_%a.out" \
          "$here/sweep.sbatch" "${sweep_args[@]}" --shard "auto/$shards" --format "$format" -o "$folder" |
        job_id)
merge=$(sbatch --parsable "${sbatch_options[@]+"${sbatch_options[@]}"}" --dependency="afterok:$array" \
          --kill-on-invalid-dep=yes --output="${folder}slurm-%j-merge.out" \
          "$here/merge.sbatch" "$folder" -o "$output" |
        job_id)
echo "submit.sh: array job $array (elements $elements of 0-$last, shards in $folder), merge job $merge" \
     "(-> $output once every element succeeds; cancelled if one fails)" >&2
echo "$array $merge"
