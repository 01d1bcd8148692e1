#!/usr/bin/env bash
# Imports every shared Spark event log into scenarios/recorded/<name>.json with
# `aqesim import-eventlog`. Usage: tools/make_recorded_scenarios.sh [AQESIM_BINARY] [LOG_DIR]
# The held-out log (nds_q72_dataproc_2_2.zstd) is imported too: importing fits nothing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
aqesim="${1:-${root}/build/tools/aqesim}"
logs="${2:-${root}/../shared/eventlogs}"  # the shared logs beside the checkout
out="${root}/scenarios/recorded"
mkdir -p "${out}"
for log in "${logs}"/*; do
  name="$(basename "${log}")"
  case "${name}" in *.md) continue ;; esac
  name="${name%.zstd}"; name="${name%.zst}"; name="${name%.gz}"; name="${name%.lz4}"
  name="${name%.snappy}"; name="${name%.lzf}"
  echo "import ${log} -> scenarios/recorded/${name}.json"
  "${aqesim}" import-eventlog "${log}" -o "${out}/${name}.json" --name "recorded-${name}" --quiet
done
