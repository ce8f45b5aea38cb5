#!/usr/bin/env bash
# Builds the Debian packages libthrong-dev, throng-tools and python3-throng (cmake/Package.cmake):
#   scripts/package.sh [BUILD_DIR] [OUT_DIR] [extra cmake args]
# BUILD_DIR (default build) is configured and built as a Release tree (an existing one is reused
# and brought up to date); the .deb files go to OUT_DIR (default BUILD_DIR/packages), whose old
# .deb files are removed first. Prints each package's control fields. Needs dpkg-dev
# (dpkg-shlibdeps; scripts/install-deps.sh installs it). Check them with scripts/package-check.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
out=${2:-$build/packages}
shift $(( $# >= 2 ? 2 : $# ))
bash "$root/scripts/build.sh" "$build" Release "$@"
build=$(cd "$build" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/*.deb
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$out" >/dev/null
rm -rf "$out/_CPack_Packages"
for deb in "$out"/*.deb; do
  echo "== $deb ($(du -h "$deb" | cut -f1))"
  dpkg-deb -f "$deb" Package Version Architecture Depends Recommends
done
