#!/usr/bin/env bash
# Proves tools/ci/check_layers.sh fails on an upward include: on a copy of sim/, models/ and
# tools/, the check passes; then one include is planted against each kind of rule (sim ->
# models, models -> tools, a rule -> the engine, a rule -> the optimizer beyond the rule
# interface, the rule interface -> the cost model) and the check must fail naming each, with
# nothing else. ctest `layers-check-fails-on-planted-violations`.
set -euo pipefail
src=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$src/sim" "$src/models" "$src/tools" "$work/"
check="$src/tools/ci/check_layers.sh"

if ! "$check" "$work" >"$work/clean.out" 2>&1; then
  echo "FAIL: the unmodified copy does not pass:" >&2; cat "$work/clean.out" >&2; exit 1
fi

plant() {  # FILE HEADER: appends an include and prints the line number it got
  echo "#include \"$2\"" >>"$work/$1"
  wc -l <"$work/$1"
}
rule=$(cd "$work" && ls models/aqe/rules/*.cc | head -n 1)
l1=$(plant sim/units.h models/plan/plan.h)
l2=$(plant models/conf/spark_conf.h tools/eventlog/line_reader.h)
l3=$(plant "$rule" models/engine/query_execution.h)
l4=$(plant "$rule" models/aqe/aqe_optimizer.h)
l5=$(plant models/aqe/rule.h models/cost/cost_model.h)

status=0
"$check" "$work" >"$work/out" 2>"$work/err" || status=$?
expected=$(cat <<EXPECTED
sim/units.h:$l1: includes models/plan/plan.h: sim/ not models/ (sim/ is the Spark-free kernel: tools -> models -> sim)
models/conf/spark_conf.h:$l2: includes tools/eventlog/line_reader.h: models/ not tools/ (models/ is below tools/: tools -> models -> sim)
$rule:$l3: includes models/engine/query_execution.h: models/aqe/ not models/engine/ (the engine runs the AQE rules; the rules re-plan plan/ nodes and know nothing of the engine)
$rule:$l3: includes models/engine/query_execution.h: models/aqe/rules/ only models/aqe/rule.h models/aqe/decision.h models/aqe/not_applied.h models/aqe/rules/ models/plan/ models/shuffle/ sim/ (a rule works on the plan and the shuffle statistics only)
$rule:$l4: includes models/aqe/aqe_optimizer.h: models/aqe/rules/ only models/aqe/rule.h models/aqe/decision.h models/aqe/not_applied.h models/aqe/rules/ models/plan/ models/shuffle/ sim/ (a rule works on the plan and the shuffle statistics only)
models/aqe/rule.h:$l5: includes models/cost/cost_model.h: models/aqe/rule.h only models/aqe/decision.h models/aqe/not_applied.h models/conf/spark_conf.h models/plan/ models/shuffle/ sim/ (the rule interface: a plan, the SQL conf and the time, nothing of the optimizer or the engine)
models/conf/spark_conf.h:$l2: includes tools/eventlog/line_reader.h: models/conf/ only models/conf/ sim/ (Spark properties are the lowest model layer)
EXPECTED
)
if [ "$status" != 1 ]; then echo "FAIL: exit $status, expected 1" >&2; cat "$work/out" "$work/err" >&2; exit 1; fi
if [ "$(cat "$work/out")" != "$expected" ]; then
  echo "FAIL: violations reported:" >&2; cat "$work/out" >&2; echo "expected:" >&2; echo "$expected" >&2; exit 1
fi
if [ "$(cat "$work/err")" != "check_layers: 7 include(s) against the layers" ]; then
  echo "FAIL: stderr:" >&2; cat "$work/err" >&2; exit 1
fi
echo "check_layers: the clean copy passes; 5 planted includes give the 7 expected violations, exit 1"
