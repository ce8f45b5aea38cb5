#!/usr/bin/env bash
# Configures and builds throng: scripts/build.sh BUILD_DIR BUILD_TYPE [extra cmake args].
set -euo pipefail
dir=${1:-build}; type=${2:-Release}; shift $(( $# >= 2 ? 2 : $# ))
cmake -S "$(dirname "$0")/.." -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" "$@" >/dev/null
cmake --build "$dir" --parallel "$(nproc)"
