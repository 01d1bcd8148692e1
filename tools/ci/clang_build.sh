#!/usr/bin/env bash
# Sourced by sanitize.sh and fuzz.sh: one clang build that serves both. It installs clang and
# libFuzzer's runtime when missing (libclang-rt-dev is only recommended by clang's packages) and
# configures BUILD_DIR with AQESIM_FUZZ=ON (the whole project with ASan + UBSan and libFuzzer's
# coverage hooks) and the tests: the sanitizer test run and the fuzz targets share every object,
# so CI compiles the project twice (GCC -Werror, clang sanitized), not three times. Debug
# information is line tables only: a sanitizer's stack trace names file and line as with -g,
# and the objects are half the size (faster to write and link: tests/e2e/sweep_test.cc 4.8 MB
# with -g, 3.2 MB).
#   source tools/ci/clang_build.sh; configure_clang_build BUILD_DIR
configure_clang_build() {
  local build=$1 missing=() sudo_cmd=""
  for p in clang libclang-rt-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "ci: installing ${missing[*]}" >&2
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
  fi
  cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DAQESIM_FUZZ=ON -DBUILD_TESTING=ON \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" >/dev/null
}
