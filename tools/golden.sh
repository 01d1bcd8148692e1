#!/usr/bin/env bash
# Golden outputs: `run --format json --tasks` and `explain` of every bundled scenario, kept
# gzipped under results/golden/ so that a refactor can prove its outputs byte-identical.
#   tools/golden.sh AQESIM_BINARY           compare with results/golden/ (exit 1 on a difference)
#   tools/golden.sh AQESIM_BINARY --update  rewrite results/golden/
# Sweep specifications (scenarios/sweeps/) are not scenarios and are skipped.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: tools/golden.sh AQESIM_BINARY [--update]" >&2; exit 2; }
bin=$(realpath "$1")
mode=${2:-check}
cd "$(dirname "$0")/.."
golden=results/golden
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failed=0
count=0
while IFS= read -r scenario; do
  name=${scenario#scenarios/}
  name=${name%.json}
  name=${name//\//__}
  for kind in run explain; do
    out="$work/$name.$kind.json"
    if [ "$kind" = run ]; then
      "$bin" run "$scenario" --format json --tasks >"$out" 2>/dev/null || true
    else
      "$bin" explain "$scenario" >"$out" 2>/dev/null || true
    fi
    count=$((count + 1))
    if [ "$mode" = --update ]; then
      gzip -n -9 -c "$out" >"$golden/$name.$kind.json.gz"
    elif ! [ -f "$golden/$name.$kind.json.gz" ]; then
      echo "golden: missing $golden/$name.$kind.json.gz" >&2
      failed=1
    elif ! gzip -dc "$golden/$name.$kind.json.gz" | cmp -s - "$out"; then
      echo "golden: $scenario: $kind output differs from $golden/$name.$kind.json.gz" >&2
      gzip -dc "$golden/$name.$kind.json.gz" | diff - "$out" | head -n 10 >&2 || true
      failed=1
    fi
  done
done < <(find scenarios -name '*.json' -not -path 'scenarios/sweeps/*' | LC_ALL=C sort)

if [ "$mode" = --update ]; then
  echo "golden: wrote $count outputs to $golden/" >&2
elif [ "$failed" = 0 ]; then
  echo "golden: $count outputs identical" >&2
fi
exit "$failed"
