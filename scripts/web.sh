#!/usr/bin/env bash
# The web page (docs/web.md): scripts/web.sh build [BUILD_DIR] builds it with Debian's emscripten
# into BUILD_DIR/page/ (default build-web); scripts/web.sh serve [BUILD_DIR] [PORT] serves that
# folder on http://127.0.0.1:PORT/ (default 8000).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
command=${1:-build}
dir=${2:-build-web}
case "$command" in
  build)
    # Debian's emscripten runs its JavaScript tools with the first node on PATH, which finds
    # Debian's node modules (acorn, ...) only through NODE_PATH when it is not Debian's node.
    export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
    emcmake cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$dir" --parallel "$(nproc)"
    echo "web.sh: the page is in $dir/page/ (scripts/web.sh serve $dir)"
    ;;
  serve)
    port=${3:-8000}
    [ -f "$dir/page/index.html" ] || { echo "web.sh: no page in $dir/page (run: scripts/web.sh build $dir)" >&2; exit 1; }
    echo "web.sh: http://127.0.0.1:$port/ (?agents=N, ?path=merged, ?webgl=1)"
    exec python3 -m http.server --bind 127.0.0.1 --directory "$dir/page" "$port"
    ;;
  *)
    echo "usage: scripts/web.sh build [BUILD_DIR] | serve [BUILD_DIR] [PORT]" >&2
    exit 2
    ;;
esac
