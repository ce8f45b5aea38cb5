#!/usr/bin/env bash
# Keeps docs/architecture current: scripts/check-architecture.sh BUILD_DIR
#  1. the target graph (docs/architecture/targets.dot) against the build's own (cmake --graphviz
#     on BUILD_DIR): the same throng library and program targets (every target named throng_*
#     but the tests', the test support libraries' (throng_test_*), the scalar build's comparison
#     program (throng_simd_results) and the fuzzers'; a node marked optional=true may be
#     missing from a build that does not make it, e.g. the viewer without GLFW, the web page
#     outside emscripten) and the same links between them; external libraries are ignored;
#  2. every diagram's committed SVG against its .dot: the same nodes and edges (rerun
#     scripts/render-architecture.sh after editing a .dot).
set -euo pipefail
build=${1:?usage: check-architecture.sh BUILD_DIR}
build=$(cd "$build" && pwd)
cd "$(dirname "$0")/.."
doc_dir=docs/architecture
status=0

# Prints the sorted, unique lines of stdin.
sorted() { LC_ALL=C sort -u; }
# Reports a difference between two lists: differ WHAT ONLY_LEFT ONLY_RIGHT.
differ() {
  [ -z "$2$3" ] && return 0
  echo "check-architecture: $1"
  [ -z "$2" ] || printf '%s\n' "$2" | sed 's/^/  only in the diagram: /'
  [ -z "$3" ] || printf '%s\n' "$3" | sed 's/^/  only in the build:   /'
  status=1
}
only_left() { LC_ALL=C comm -23 <(printf '%s\n' "$1" | sorted) <(printf '%s\n' "$2" | sorted) | grep . || true; }

# Edges "a -> b" and node ids of a .dot source (one statement per line, as ours are written).
dot_edges() {
  sed -nE 's/^[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*->[[:space:]]*([A-Za-z_][A-Za-z0-9_]*).*/\1 -> \2/p' "$1" | sorted
}
dot_nodes() {
  { sed -nE 's/^[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\[.*/\1/p' "$1" |
      grep -vxE 'graph|node|edge' || true
    dot_edges "$1" | awk '{print $1; print $3}'; } | sorted
}
# The same of a rendered SVG, from the <title> of each node and edge (clusters and the graph
# itself have titles too: cluster_* and the graph's name are left out).
svg_titles() {
  grep -oE '<title>[^<]*</title>' "$1" | sed -E 's#</?title>##g; s/&#45;/-/g; s/&gt;/>/g' |
    tail -n +2 | grep -v '^cluster' || true
}

# 1. The target graph against the build's.
graph_dir="$build/architecture-check"
rm -rf "$graph_dir" && mkdir -p "$graph_dir"
if ! cmake --graphviz="$graph_dir/build.dot" "$build" >"$graph_dir/cmake.log" 2>&1; then
  echo "check-architecture: cmake --graphviz failed on $build (log: $graph_dir/cmake.log)" >&2
  exit 2
fi
project='^throng_' not_project='(_tests$|^throng_test_|^throng_simd_results$|^throng_fuzz_)'
# CMake writes each edge with a comment naming both targets: ... // from -> to
build_edges=$(sed -nE 's#.*// ([^ ]+) -> ([^ ]+)$#\1 -> \2#p' "$graph_dir/build.dot" |
  awk -v p="$project" -v n="$not_project" '$1 ~ p && $3 ~ p && $1 !~ n && $3 !~ n && $1 != $3' | sorted)
build_targets=$(sed -nE 's#.*\[ label = "([^"\\]+).*#\1#p' "$graph_dir/build.dot" |
  grep -E "$project" | grep -vE "$not_project" | sorted || true)
if [ -z "$build_targets" ]; then
  echo "check-architecture: no throng target in $graph_dir/build.dot" >&2
  exit 2
fi
targets_dot="$doc_dir/targets.dot"
diagram_targets=$(dot_nodes "$targets_dot")
optional=$(sed -nE 's/^[[:space:]]*([A-Za-z0-9_]+)[[:space:]]*\[.*optional=true.*/\1/p' "$targets_dot" | sorted)
required=$(only_left "$diagram_targets" "$optional")
differ "targets differ ($targets_dot against cmake --graphviz)" \
  "$(only_left "$required" "$build_targets")" "$(only_left "$build_targets" "$diagram_targets")"
# Edges whose targets this build makes.
diagram_edges=$(dot_edges "$targets_dot" | awk -v t="$(printf '%s ' $build_targets)" '
  BEGIN { n = split(t, list, " "); for (i = 1; i <= n; ++i) made[list[i]] = 1 }
  ($1 in made) && ($3 in made)')
differ "links differ ($targets_dot against cmake --graphviz)" \
  "$(only_left "$diagram_edges" "$build_edges")" "$(only_left "$build_edges" "$diagram_edges")"

# 2. Each committed SVG against its source.
for source in "$doc_dir"/*.dot; do
  svg="${source%.dot}.svg"
  if [ ! -f "$svg" ]; then
    echo "check-architecture: $svg is missing (scripts/render-architecture.sh)"
    status=1
    continue
  fi
  from_dot=$( { dot_nodes "$source"; dot_edges "$source" | sed 's/ -> /->/'; } | sorted)
  from_svg=$(svg_titles "$svg" | sorted)
  if [ "$from_dot" != "$from_svg" ]; then
    echo "check-architecture: $svg is out of date with $source (scripts/render-architecture.sh):"
    LC_ALL=C diff <(printf '%s\n' "$from_dot") <(printf '%s\n' "$from_svg") | grep '^[<>]' |
      sed 's/^</  only in the .dot:/; s/^>/  only in the .svg:/'
    status=1
  fi
done
[ $status -ne 0 ] || echo "check-architecture: $(printf '%s\n' "$build_targets" | grep -c .) targets" \
  "and $(printf '%s\n' "$build_edges" | grep -c .) links agree with the build; diagrams are current"
exit $status
