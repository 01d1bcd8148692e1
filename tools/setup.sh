#!/usr/bin/env bash
# Installs what aqesim needs on a Debian machine (idempotent: only missing packages are
# installed), configures and builds it in ./build.
#   tools/setup.sh           build dependencies, then build the aqesim binary
#   tools/setup.sh --tests   also test-only dependencies, then build everything (tests too)
# AQESIM_WERROR=ON in the environment turns compiler warnings into errors (CI sets it).
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=0
for arg in "$@"; do
  case "$arg" in
    --tests) with_tests=1 ;;
    *) echo "usage: tools/setup.sh [--tests]" >&2; exit 2 ;;
  esac
done

packages=(build-essential cmake pkg-config git
          nlohmann-json3-dev libcli11-dev libboost-program-options-dev
          zlib1g-dev libzstd-dev liblz4-dev libsnappy-dev liblzf-dev
          libdlib-dev nodejs npm)
if [ "$with_tests" = 1 ]; then
  # slurm-wlm, munge: the single-node Slurm cluster of tests/tools/slurm; python3-yaml,
  # python3-kubernetes, python3-botocore: the offline checks of tools/k8s and tools/aws-batch.
  # clang-format: tools/ci/check_format.sh.
  packages+=(catch2 zstd gzip chromium slurm-wlm munge python3-yaml python3-kubernetes python3-botocore
             clang-format)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# node/npm may come from outside Debian (e.g. /usr/local): accept those.
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  filtered=()
  for p in "${missing[@]}"; do [ "$p" = nodejs ] || [ "$p" = npm ] || filtered+=("$p"); done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

build_tests=OFF
[ "$with_tests" = 1 ] && build_tests=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING="$build_tests" \
      -DAQESIM_WERROR="${AQESIM_WERROR:-OFF}" >/dev/null
cmake --build build -j"$(nproc)" >&2
