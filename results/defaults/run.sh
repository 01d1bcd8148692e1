#!/usr/bin/env bash
# Leave-one-out cross-validation of the cost model's defaults (issue 15), and the fit that
# gives them. For each group of logs (a log, or the repeat runs of one job together), calibrate
# on every other non-held-out log and replay the group's logs with the cost model alone
# (validate --no-profile --cost); then calibrate on all of them (the defaults of
# models/cost/cost_params.h) and replay every log, the held-out q72 included, with the binary's
# built-in defaults. Writes results/defaults/ (cost files, validate JSON, fit reports) and
# results/defaults.md (the table).
# Usage: results/defaults/run.sh [AQESIM_BINARY] [LOG_DIR]   (LOG_DIR holds corpus/)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
aqesim="${1:-${root}/build/tools/aqesim}"
logs="${2:-${root}/../shared/eventlogs}"  # the shared logs beside the checkout
out="${root}/results/defaults"
# name path-under-LOG_DIR; the held-out log is last and never fitted.
read -r -d '' LOGS <<'LIST' || true
aqeshuffle aqeshuffle_eventlog.zstd
customshuffle customshuffle_eventlog.zstd
dynamic_alloc eventlog_4nodes_8cores_dynamic_alloc.zstd
join_agg join_agg_on_yarn_eventlog.zstd
spark_1_6 application_1472176676028_407508_1
attempt_1 corpus/attempt_1_eventlog.zstd
attempt_2 corpus/attempt_2_eventlog.zstd
attempt_3 corpus/attempt_3_eventlog.zstd
dsAndDf corpus/dsAndDf_eventlog.zstd
v2_local corpus/eventlog_v2_local-1623876083964
join_missing_sql_end corpus/join_missing_sql_end
malformed_json corpus/malformed_json_eventlog.zstd
pandas_execs corpus/pandas_execs_eventlog.zstd
rp_sql corpus/rp_sql_eventlog.zstd
tasks_executors_fail corpus/tasks_executors_fail_compressed_eventlog.zstd
truncated corpus/truncated_eventlog
xgboost corpus/xgboost_eventlog.zstd
LIST
held_out="nds_q72 nds_q72_dataproc_2_2.zstd"
# Left out together: runs of one job (the EMR job's four attempts; rp_sql and malformed_json are
# one run; aqeshuffle, customshuffle and join_missing_sql_end run the same SMJ on the same bytes
# on one workstation family) — leaving one out while its twin stays in would test memory.
read -r -d '' GROUPS_ <<'LIST' || true
emr join_agg attempt_1 attempt_2 attempt_3
rp rp_sql malformed_json
smj12 aqeshuffle customshuffle join_missing_sql_end
LIST
declare -A path group
names=()
while read -r n p; do path[$n]="${logs}/${p}"; group[$n]="$n"; names+=("$n"); done <<< "${LOGS}"
while read -r g members; do for m in ${members}; do group[$m]="$g"; done; done <<< "${GROUPS_}"
mkdir -p "${out}"
folds=($(for n in "${names[@]}"; do echo "${group[$n]}"; done | sort -u))
for g in "${folds[@]}"; do
  train=(); for n in "${names[@]}"; do [[ "${group[$n]}" == "$g" ]] || train+=("${path[$n]}"); done
  "${aqesim}" calibrate -q "${train[@]}" -o "${out}/loo-cost-${g}.json" > "${out}/loo-fit-${g}.txt"
  for n in "${names[@]}"; do
    [[ "${group[$n]}" == "$g" ]] || continue
    "${aqesim}" validate -q "${path[$n]}" --no-profile --cost "${out}/loo-cost-${g}.json" --format json > "${out}/loo-${n}.json"
  done
done
all=(); for n in "${names[@]}"; do all+=("${path[$n]}"); done
"${aqesim}" calibrate -q "${all[@]}" -o "${out}/fit-all.json" > "${out}/fit-all.txt"
read -r q qpath <<< "${held_out}"
for n in "${names[@]}" "$q"; do
  p="${path[$n]:-${logs}/${qpath}}"
  "${aqesim}" validate -q "$p" --no-profile --format json > "${out}/defaults-${n}.json"
done
python3 "${out}/table.py" "${out}" "${root}/results/defaults.md" "$q" \
  $(for n in "${names[@]}"; do echo "$n:${group[$n]}"; done)
