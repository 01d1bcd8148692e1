#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang, AQESIM_FUZZ) in build-san (the sanitizer
# build of tools/ci/sanitize.sh: after it, nothing is compiled again) and runs each
# for a bounded time from its seed corpus (tests/fuzz/corpus/<target>/, copied: the checkout
# is not modified). A crash, leak, timeout or out-of-memory fails the script; the input is
# copied to tests/fuzz/regressions/<target>/ so that it can be committed and replayed by the
# normal test run (tests/e2e/bad_inputs_test.cc).
#   tools/ci/fuzz.sh [SECONDS_PER_TARGET]   (default 60; env AQESIM_FUZZ_TARGETS to pick targets)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
build=${AQESIM_FUZZ_BUILD:-build-san}
jobs=${AQESIM_JOBS:-2}
targets=${AQESIM_FUZZ_TARGETS:-"scenario_loader spark_strings csv_matrix eventlog_codecs eventlog_lines report_renderer"}

source tools/ci/clang_build.sh
configure_clang_build "$build"
cmake --build "$build" -j"$jobs" --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done) >&2

work="$build/fuzz-work"
mkdir -p "$work"
export AQESIM_FUZZ_TMP="$work"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Each target runs for SECONDS in its own process, AQESIM_JOBS of them at a time (libFuzzer is
# single-threaded: two targets on two cores take the wall time of one); the results are read in
# target order once all have finished.
run_target() {
  local t=$1 corpus="$work/corpus-$1" artifacts="$work/artifacts-$1/" status=0
  rm -f "$work/$t.status"
  rm -rf "$artifacts"; mkdir -p "$corpus" "$artifacts"
  [ -d "tests/fuzz/corpus/$t" ] && cp -n tests/fuzz/corpus/$t/* "$corpus/" 2>/dev/null || true
  "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix="$artifacts" "$corpus" >"$work/$t.log" 2>&1 || status=$?
  echo "$status" >"$work/$t.status"
}
for t in $targets; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  run_target "$t" &
done
wait
total_execs=0
failed=()
for t in $targets; do
  corpus="$work/corpus-$t"; artifacts="$work/artifacts-$t/"; log="$work/$t.log"
  status=$(cat "$work/$t.status" 2>/dev/null || echo missing)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  execs=${execs:-0}
  total_execs=$((total_execs + execs))
  echo "fuzz: $t: $execs executions in ${seconds}s, exit $status, corpus $(ls "$corpus" | wc -l) inputs" >&2
  if [ "$status" != 0 ] || [ -n "$(ls -A "$artifacts")" ]; then
    failed+=("$t")
    mkdir -p "tests/fuzz/regressions/$t"
    for f in "$artifacts"*; do [ -f "$f" ] && cp "$f" "tests/fuzz/regressions/$t/" && echo "fuzz: $t: saved $(basename "$f") to tests/fuzz/regressions/$t/" >&2; done
    tail -40 "$log" >&2
  fi
done
echo "fuzz: total $total_execs executions" >&2
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
