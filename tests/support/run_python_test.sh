#!/usr/bin/env bash
# Runs a Python test script with the first python3 that has its modules: python3 on PATH, then
# Debian's (where apt installs python3-yaml, python3-kubernetes, python3-botocore). A script
# exits 77 when its modules are missing; 77 from every interpreter is passed on (ctest: skipped).
#   tests/support/run_python_test.sh SCRIPT ARGS...
set -uo pipefail
output=""
rc=77
for python in python3 /usr/bin/python3; do
  command -v "$python" >/dev/null 2>&1 || continue
  output=$("$python" "$@" 2>&1)
  rc=$?
  [ "$rc" -eq 77 ] || break
done
[ -z "$output" ] || echo "$output"
exit "$rc"
