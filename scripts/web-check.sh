#!/usr/bin/env bash
# The web page in a real browser: scripts/web-check.sh OUT.png [web_check.py options]
# Installs what it needs (Debian: emscripten, chromium, python3-websocket), builds the page into
# $THRONG_WEB_BUILD_DIR (default build-web), serves it on 127.0.0.1 and loads it in headless
# Chromium with software WebGL (SwiftShader), once with WebGL2 (instanced path) and once forced
# to WebGL 1 (?webgl=1, merged path). Each must report it is ready and has drawn frames that
# cover pixels; a skinned .glb and a morph-animated one are dropped on each page when at hand.
# Screenshots: OUT.png, OUT-webgl1.png (and OUT-drop.png, OUT-drop2.png). Exits non-zero on a
# page error, an empty frame or a timeout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ]; then
  echo "usage: scripts/web-check.sh OUT.png [--agents N] [--hold SECONDS] [--timeout SECONDS] [--drop FILE.glb]" >&2
  exit 2
fi
out=$1
shift
build=${THRONG_WEB_BUILD_DIR:-build-web}
start=$(date +%s)

bash "$root/scripts/install-deps.sh" --web
bash "$root/scripts/web.sh" build "$build"
built=$(date +%s)

# A .glb to drop: one of the shared test characters when present (see README), unless given.
drop=()
case " $* " in
  *" --drop "*) ;;
  *)
    # A skinned character, then a creature animated by morph targets alone (the merged path's
    # vertex animation texture on WebGL 1).
    assets="${THRONG_ASSETS_DIR:-$root/../shared/assets}"
    glb="$assets/CesiumMan/CesiumMan.glb"
    morph="$assets/feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb"
    if [ -f "$glb" ] && [ -f "$morph" ]; then
      drop=(--drop "$glb" --drop "$morph")
    elif [ -n "${CI:-}" ] && [ "${CI}" != 0 ] && [ "${CI}" != false ]; then
      # In CI a missing input fails (as the tests' THRONG_REQUIRE does): the drop must be checked.
      echo "web-check: no $glb or $morph: CI checks the drop of both (../shared/assets)" >&2
      exit 1
    else
      echo "web-check: no $glb or $morph; the drops are not checked"
    fi
    ;;
esac
mkdir -p "$(dirname "$out")"
# Debian's python3 (its python3-websocket), whatever python3 comes first on the PATH.
/usr/bin/python3 "$root/scripts/web_check.py" "$build/page" "$out" "${drop[@]}" "$@"
echo "web-check: build $((built - start)) s, browser checks $(($(date +%s) - built)) s"
