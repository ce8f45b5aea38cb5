#!/usr/bin/env bash
# Builds scripts/repro/mesa_noop_threaded.c (no throng code) and runs it on Mesa's no-op driver with
# and without its threaded context, and on llvmpipe: the crash docs/benchmarks.md works around
# (crowd_bench sets GALLIUM_THREAD=0 under GALLIUM_NOOP). Prints each run's exit status; exits 0
# when only the threaded no-op run fails (the bug is there), 1 otherwise.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc -O1 -g -Wall -Werror "$here/mesa_noop_threaded.c" -lEGL -lGLESv2 -o "$out/repro" || exit 2
run() {
  local label=$1
  shift
  env "$@" "$out/repro" >"$out/log" 2>&1
  local rc=$?
  echo "$label: exit $rc, last step: $(tail -1 "$out/log")"
  return $rc
}
run "GALLIUM_NOOP=1 (threaded)" GALLIUM_NOOP=1
threaded=$?
run "GALLIUM_NOOP=1 GALLIUM_THREAD=0" GALLIUM_NOOP=1 GALLIUM_THREAD=0
single=$?
run "llvmpipe" LIBGL_ALWAYS_SOFTWARE=1
real=$?
if [ $threaded -ne 0 ] && [ $single -eq 0 ] && [ $real -eq 0 ]; then
  echo "mesa-noop-threaded: the threaded no-op driver crashes; without its threads it runs"
  exit 0
fi
echo "mesa-noop-threaded: not reproduced here"
exit 1
