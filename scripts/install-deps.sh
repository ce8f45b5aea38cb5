#!/usr/bin/env bash
# Installs throng's build, test and runtime dependencies from Debian 12 packages (as root):
# the viewer's GLFW and Dear ImGui, and Xvfb (with xauth, which xvfb-run needs) to run it in CI;
# pybind11 and Python's headers for the Python module, NumPy and pytest for its tests;
# Universal Ctags for the function-length check (ctest -L check) and Graphviz to render the
# diagrams of docs/architecture.md (scripts/render-architecture.sh);
# with --web also what the web page needs (emscripten, and Chromium for scripts/web-check.sh);
# with --fuzz Debian's clang and compiler-rt, which holds libFuzzer (scripts/fuzz.sh).
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config
  libtinygltf-dev nlohmann-json3-dev libstb-dev libglm-dev libcli11-dev libfmt-dev
  libmeshoptimizer-dev libdraco-dev libgtest-dev libgmock-dev libbenchmark-dev
  gltfpack draco
  libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri
  libglfw3-dev libimgui-dev xvfb xauth
  # The Python module and its tests; dpkg-shlibdeps and file (CPack's DEB generator refuses to
  # work out dependencies without it) for the Debian packages (scripts/package.sh).
  python3-dev pybind11-dev python3-numpy python3-pytest dpkg-dev file
  universal-ctags graphviz
)
for option in "$@"; do
  case "$option" in
    # python3-websocket drives Chromium over the DevTools protocol (scripts/web_check.py).
    --web) packages+=(emscripten chromium python3-websocket) ;;
    --fuzz) packages+=(clang-14 libclang-rt-14-dev) ;;
    *) echo "install-deps: unknown option '$option' (expected --web or --fuzz)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "install-deps: missing packages: ${missing[*]} (run as root, or: sudo $0)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
