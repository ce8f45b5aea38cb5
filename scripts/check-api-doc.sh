#!/usr/bin/env bash
# Fails when docs/api.md and the public headers disagree: a header under include/throng/ (or the
# generated throng/version.h) without its row in docs/api.md, a row naming a header that does not
# exist, a row listed twice, or a row without a purpose. A row reads "| `throng/<path>.h` | purpose |".
set -euo pipefail
cd "$(dirname "$0")/.."
doc=docs/api.md
[ -f "$doc" ] || { echo "check-api-doc: $doc is missing" >&2; exit 1; }

headers=$( (cd include && find throng -name '*.h'
            [ -f ../cmake/version.h.in ] && echo throng/version.h) | LC_ALL=C sort)
rows=$(grep -E '^\| `throng/[^`]+\.h` \|' "$doc" || true)
listed=$(printf '%s\n' "$rows" | sed -E 's/^\| `([^`]+)`.*/\1/' | grep . | LC_ALL=C sort || true)

status=0
missing=$(LC_ALL=C comm -23 <(printf '%s\n' "$headers") <(printf '%s\n' "$listed" | LC_ALL=C sort -u))
unknown=$(LC_ALL=C comm -13 <(printf '%s\n' "$headers") <(printf '%s\n' "$listed" | LC_ALL=C sort -u))
twice=$(printf '%s\n' "$listed" | uniq -d)
no_purpose=$(printf '%s\n' "$rows" | grep -E '^\| `[^`]+` \|[[:space:]]*\|' || true)
report() {
  [ -n "$2" ] || return 0
  echo "check-api-doc: $1:"
  printf '%s\n' "$2" | sed 's/^/  /'
  status=1
}
report "public headers missing from $doc" "$missing"
report "$doc names headers that do not exist" "$unknown"
report "$doc lists headers twice" "$twice"
report "$doc rows without a purpose" "$no_purpose"
[ $status -ne 0 ] || echo "check-api-doc: $doc lists all $(printf '%s\n' "$headers" | grep -c .) public headers"
exit $status
