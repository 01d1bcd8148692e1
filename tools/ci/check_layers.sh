#!/usr/bin/env bash
# Fails on an #include that goes against the layers: tools -> models -> sim (a layer includes
# only itself and the layers below), and inside models/ the rules below. Every library has the
# project root as include path, so the compiler alone would accept any include: this check is
# what enforces the direction (ctest `layers-enforced`, hence CI).
#   tools/ci/check_layers.sh [ROOT]     ROOT defaults to the repository
# Prints one line per violation, "FILE:LINE: includes HEADER: RULE", and exits 1 if any.
set -euo pipefail
root=${1:-"$(cd "$(dirname "$0")/../.." && pwd)"}
cd "$root"

# Rules, one a line: FOLDER (files under it) or FILE, then `not` PREFIX (must not include it) or
# `only` PREFIX... (may include nothing else of the project), then `--` and why.
rules=$(cat <<'RULES'
sim/ not models/ -- sim/ is the Spark-free kernel: tools -> models -> sim
sim/ not tools/ -- sim/ is the Spark-free kernel: tools -> models -> sim
models/ not tools/ -- models/ is below tools/: tools -> models -> sim
models/aqe/ not models/engine/ -- the engine runs the AQE rules; the rules re-plan plan/ nodes and know nothing of the engine
models/aqe/rules/ only models/aqe/rule.h models/aqe/decision.h models/aqe/not_applied.h models/aqe/rules/ models/plan/ models/shuffle/ sim/ -- a rule works on the plan and the shuffle statistics only
models/aqe/rule.h only models/aqe/decision.h models/aqe/not_applied.h models/conf/spark_conf.h models/plan/ models/shuffle/ sim/ -- the rule interface: a plan, the SQL conf and the time, nothing of the optimizer or the engine
models/aqe/decision.h only sim/ -- a decision is what a rule did, in plain values
models/aqe/not_applied.h only models/aqe/decision.h sim/ -- why a rule did not act, in plain values
models/conf/ only models/conf/ sim/ -- Spark properties are the lowest model layer
models/plan/ not models/engine/ models/aqe/ models/cost/ models/scenario/ -- the plan IR is below the rules, the engine and the loader
models/shuffle/ not models/engine/ models/aqe/ models/cost/ models/scenario/ -- shuffle statistics are below the rules, the engine and the loader
RULES
)

violations=0
while IFS= read -r rule; do
  [ -n "$rule" ] || continue
  spec=${rule%% -- *}
  why=${rule#* -- }
  read -r -a words <<<"$spec"
  folder=${words[0]}
  kind=${words[1]}
  prefixes=("${words[@]:2}")
  [ -e "$folder" ] || continue
  include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)"'
  while IFS=: read -r file line text; do
    [[ "$text" =~ $include_re ]] || continue
    header=${BASH_REMATCH[1]}
    case "$header" in sim/* | models/* | tools/* | tests/*) ;; *) continue ;; esac  # a project header?
    bad=0
    if [ "$kind" = not ]; then
      for p in "${prefixes[@]}"; do [[ "$header" == "$p"* ]] && bad=1; done
    else
      bad=1
      for p in "${prefixes[@]}"; do [[ "$header" == "$p"* ]] && bad=0; done
    fi
    if [ "$bad" = 1 ]; then
      echo "$file:$line: includes $header: $folder $kind ${prefixes[*]} ($why)"
      violations=$((violations + 1))
    fi
  done < <(grep -rHn --include='*.h' --include='*.cc' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$folder" | LC_ALL=C sort -t: -k1,1 -k2,2n)
done <<<"$rules"

if [ "$violations" -gt 0 ]; then
  echo "check_layers: $violations include(s) against the layers" >&2
  exit 1
fi
echo "check_layers: every #include under sim/ and models/ follows the layers" >&2
