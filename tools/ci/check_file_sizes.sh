#!/usr/bin/env bash
# Fails when a C++ file under sim/ or models/ is longer than 400 lines: one concept per file, so
# the next change lands in a small file (README, "Layout"). Prints "FILE: N lines (limit 400)"
# for each and exits 1. ctest `model-files-at-most-400-lines`, hence CI.
#   tools/ci/check_file_sizes.sh [ROOT]     ROOT defaults to the repository
set -euo pipefail
root=${1:-"$(cd "$(dirname "$0")/../.." && pwd)"}
cd "$root"
limit=400
# One wc over every file (a process per file took 30 s on a loaded 2-core machine).
mapfile -t long_files < <(find sim models -type f \( -name '*.cc' -o -name '*.h' \) -print0 | LC_ALL=C sort -z |
                          xargs -0 -r wc -l | awk -v limit="$limit" '$2 != "total" && $1 > limit { print $2 ": " $1 }')
over=${#long_files[@]}
for entry in "${long_files[@]}"; do
  echo "${entry%%: *}: ${entry##*: } lines (limit $limit): split it along its concerns"
done
if [ "$over" -gt 0 ]; then
  echo "check_file_sizes: $over file(s) over $limit lines" >&2
  exit 1
fi
echo "check_file_sizes: every C++ file under sim/ and models/ has at most $limit lines" >&2
