#!/usr/bin/env bash
# Regenerates docs/viewer.png, the README's picture of throng-viewer: the built-in sample's crowd
# under Xvfb (Mesa llvmpipe), panels included. Usage: scripts/viewer-screenshot.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
xvfb-run -a -s "-screen 0 1280x800x24" "$build/throng-viewer" sample \
  --agents 250 --lod-colors --width 960 --height 540 --frames 20 --screenshot docs/viewer.png
