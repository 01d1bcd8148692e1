#!/usr/bin/env bash
# Dynamic allocation as a policy vs as recorded, on the two shared dynamic-allocation logs
# (issue 16, done-criterion 2). Regenerates this folder's CSVs, summaries, README.md and the
# Vega-Lite chart with any build:
#   results/dynamic-allocation/run.sh build/tools/aqesim EVENTLOG_DIR
# EVENTLOG_DIR holds eventlog_4nodes_8cores_dynamic_alloc.zstd and
# application_1472176676028_407508_1 (the Spark 1.6 job). Needs python3 and zstd.
set -euo pipefail
bin=$(realpath "$1")
logs=$2
here=$(cd "$(dirname "$0")" && pwd)
for log in eventlog_4nodes_8cores_dynamic_alloc.zstd application_1472176676028_407508_1; do
  python3 "$here/compare.py" "$bin" "$logs/$log" "$here/$log"
done
python3 "$here/table.py" "$here"
