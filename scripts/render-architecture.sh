#!/usr/bin/env bash
# Renders the diagrams of docs/architecture.md from their Graphviz sources (Debian: graphviz):
# docs/architecture/NAME.dot -> docs/architecture/NAME.svg. Run after editing a .dot file and
# commit both.
set -euo pipefail
cd "$(dirname "$0")/../docs/architecture"
command -v dot >/dev/null || { echo "render-architecture: needs Graphviz's dot (Debian: graphviz)" >&2; exit 2; }
for source in *.dot; do
  dot -Tsvg "$source" -o "${source%.dot}.svg"
  echo "render-architecture: docs/architecture/${source%.dot}.svg"
done
