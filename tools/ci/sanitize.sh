#!/usr/bin/env bash
# Builds the whole project and its tests with AddressSanitizer + UndefinedBehaviorSanitizer
# (AQESIM_SANITIZE) in build-asan and runs the full test suite there.
#   tools/ci/sanitize.sh [BUILD_DIR]      (default build-asan)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-asan}
jobs=${AQESIM_JOBS:-2}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
      -DAQESIM_SANITIZE=ON -DBUILD_TESTING=ON >/dev/null
cmake --build "$build" -j"$jobs" >&2
# Any sanitizer report fails the test that triggered it; leaks too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" --output-on-failure -j"$jobs" --timeout 1500
