#!/usr/bin/env bash
# Fails when a tracked C++ file differs from what clang-format makes of it (the repository's
# .clang-format: Google style, 110 columns), listing each such file and the first lines that
# would change. Fix with: clang-format -i FILE. Runs as ctest `cpp-files-clang-formatted`.
#   tools/ci/check_format.sh            every tracked *.cc / *.h
#   tools/ci/check_format.sh FILE...    only these
# Uses Debian's clang-format (14 on Debian 12: tools/setup.sh --tests installs it); another
# major version may format some constructs differently.
set -euo pipefail
cd "$(dirname "$0")/../.."
# Exit 77 (ctest: skipped) without clang-format.
command -v clang-format >/dev/null || { echo "check_format: clang-format not found (tools/setup.sh --tests installs it)" >&2; exit 77; }
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files '*.cc' '*.h')
fi
# One clang-format process checks every file; only the ones it flags are diffed.
mapfile -t flagged < <(clang-format --style=file --dry-run "${files[@]}" 2>&1 |
                       sed -n 's/^\(.*\):[0-9]*:[0-9]*: \(warning\|error\): code should be clang-formatted.*/\1/p' |
                       uniq)
for f in "${flagged[@]}"; do
  echo "check_format: $f is not clang-formatted; the first differences:" >&2
  clang-format --style=file "$f" | diff "$f" - | head -n 8 >&2 || true
done
if [ "${#flagged[@]}" -gt 0 ]; then
  echo "check_format: ${#flagged[@]} of ${#files[@]} files need clang-format -i ($(clang-format --version))" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files formatted" >&2
