#!/usr/bin/env bash
# Leave-one-out cross-validation of the cost model's defaults (issue 15), and the fit that
# gives them. For each group of logs (a log, or the repeat runs of one job together), the rates
# are fitted on every other non-held-out log (fit.py, on features extracted once by features.py)
# and the group's logs are replayed with that cost alone (validate --no-profile --cost); the fit
# on all of them (fit-all.json) is the candidate for the defaults of models/cost/cost_params.cc,
# and every log, the held-out q72 included, is replayed with it. Writes results/defaults/ (cost
# files, features, validate JSON) and results/defaults.md (the table).
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
read -r q qpath <<< "${held_out}"
path[$q]="${logs}/${qpath}"
# 1. The terms read from the logs (no fit): per fold from its training logs, and from all of them.
for g in "${folds[@]}"; do
  train=(); for n in "${names[@]}"; do [[ "${group[$n]}" == "$g" ]] || train+=("${path[$n]}"); done
  "${aqesim}" calibrate -q --measure-only "${train[@]}" -o "${out}/measured-${g}.json" > /dev/null
done
all=(); for n in "${names[@]}"; do all+=("${path[$n]}"); done
"${aqesim}" calibrate -q --measure-only "${all[@]}" -o "${out}/measured-all.json" > /dev/null
# 2. Each log replayed once at the linearisation point (features-base.json) and once per parameter
#    step (features.py): the fit's features, extracted once for every fold.
python3 "${out}/features.py" "${aqesim}" "${out}/features-base.json" "${out}/features.json" \
  $(for n in "${names[@]}" "$q"; do echo "$n=${path[$n]}"; done)
# 3. The fit of every fold (fit.py, on the features) and of all the logs (the defaults).
python3 "${out}/fit.py" "${out}/features.json" loo "${out}" \
  $(for n in "${names[@]}"; do echo "$n:${group[$n]}"; done) > "${out}/loo-linearised.txt"
python3 "${out}/fit.py" "${out}/features.json" fold "${out}/measured-all.json" "${names[@]}" > "${out}/fit-all.json"
# 4. Each left-out log replayed with its fold's cost, and every log with the built-in defaults.
for n in "${names[@]}"; do
  "${aqesim}" validate -q "${path[$n]}" --no-profile --cost "${out}/loo-cost-${group[$n]}.json" --format json \
    > "${out}/loo-${n}.json"
done
for n in "${names[@]}" "$q"; do
  "${aqesim}" validate -q "${path[$n]}" --no-profile --cost "${out}/fit-all.json" --format json > "${out}/defaults-${n}.json"
done
python3 "${out}/table.py" "${out}" "${root}/results/defaults.md" "$q" \
  $(for n in "${names[@]}"; do echo "$n:${group[$n]}"; done)
