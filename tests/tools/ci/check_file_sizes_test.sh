#!/usr/bin/env bash
# Proves tools/ci/check_file_sizes.sh fails on a long file: on a copy of sim/ and models/ the
# check passes; a file grown to 401 lines (and one to exactly 400, which is allowed) must give
# exactly one violation naming it, exit 1. ctest `file-size-check-fails-on-a-planted-long-file`.
set -euo pipefail
src=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/sim" "$src/models" "$work/"
check="$src/tools/ci/check_file_sizes.sh"

if ! "$check" "$work" >"$work/clean.out" 2>&1; then
  echo "FAIL: the unmodified copy does not pass:" >&2; cat "$work/clean.out" >&2; exit 1
fi
grow() {  # FILE LINES: appends comment lines until the file has LINES lines
  local have
  have=$(wc -l <"$work/$1")
  for ((i = have; i < $2; i++)); do echo "// padding"; done >>"$work/$1"
}
grow sim/units.h 401
grow models/plan/plan.h 400

status=0
"$check" "$work" >"$work/out" 2>"$work/err" || status=$?
if [ "$status" != 1 ]; then echo "FAIL: exit $status, expected 1" >&2; cat "$work/out" "$work/err" >&2; exit 1; fi
expected="sim/units.h: 401 lines (limit 400): split it along its concerns"
if [ "$(cat "$work/out")" != "$expected" ]; then
  echo "FAIL: reported:" >&2; cat "$work/out" >&2; echo "expected: $expected" >&2; exit 1
fi
if [ "$(cat "$work/err")" != "check_file_sizes: 1 file(s) over 400 lines" ]; then
  echo "FAIL: stderr:" >&2; cat "$work/err" >&2; exit 1
fi
echo "check_file_sizes: the clean copy passes; a 401-line file is the one violation, exit 1"
