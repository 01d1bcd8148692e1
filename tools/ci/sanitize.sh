#!/usr/bin/env bash
# Builds the whole project and its tests with clang, AddressSanitizer + UndefinedBehaviorSanitizer
# (and libFuzzer's coverage hooks: the same build serves tools/ci/fuzz.sh) in build-san and runs
# the full test suite there.
#   tools/ci/sanitize.sh [BUILD_DIR]      (default build-san)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-san}
jobs=${AQESIM_JOBS:-2}
source tools/ci/clang_build.sh
configure_clang_build "$build"
cmake --build "$build" -j"$jobs" >&2
# Any sanitizer report fails the test that triggered it; leaks too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" --output-on-failure -j"$jobs" --timeout 1500
