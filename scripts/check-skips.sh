#!/usr/bin/env bash
# Fails when ctest skipped (or did not run) a test that tests/skips_allowed.txt does not list:
#   scripts/check-skips.sh JUNIT.xml     (the file of `ctest --output-junit JUNIT.xml`)
# Prints every skipped test with its reason (gtest's skip message, or the allow-list's).
set -euo pipefail
cd "$(dirname "$0")/.."
junit=${1:?usage: scripts/check-skips.sh JUNIT.xml}
allow=tests/skips_allowed.txt
[ -s "$junit" ] || { echo "check-skips: $junit is missing or empty (ctest --output-junit)" >&2; exit 1; }

status=0
# Every allow-list entry carries its reason.
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  if ! [[ "$line" =~ ^[^[:space:]]+[[:space:]]+[^[:space:]] ]]; then
    echo "check-skips: $allow: an entry without a reason: '$line'" >&2
    status=1
  fi
done < "$allow"

allowed() {  # the allow-list's reason for test $1, or nothing
  local name pattern reason
  while read -r name reason; do
    case "$name" in ''|'#'*) continue ;; esac
    pattern=$name
    if [[ "$pattern" == *'*' ]]; then
      [[ "$1" == "${pattern%\*}"* ]] && { echo "$reason"; return; }
    elif [ "$1" = "$pattern" ]; then
      echo "$reason"; return
    fi
  done < "$allow"
}

total=$(grep -c '<testcase ' "$junit" || true)
[ "$total" -gt 0 ] || { echo "check-skips: no test cases in $junit" >&2; exit 1; }
skipped=0 unexpected=0
# One test case per record: its name, status and the first line after gtest's "Skipped".
while IFS=$'\t' read -r name state why; do
  skipped=$((skipped + 1))
  reason=$(allowed "$name")
  if [ -n "$reason" ]; then
    echo "skipped (allowed): $name: ${why:-$state}; allowed because: $reason"
  else
    echo "SKIPPED, NOT ALLOWED: $name: ${why:-$state}"
    unexpected=$((unexpected + 1))
  fi
done < <(awk '
  /<testcase / {
    match($0, /name="[^"]*"/); name = substr($0, RSTART + 6, RLENGTH - 7)
    match($0, /status="[^"]*"/); state = substr($0, RSTART + 8, RLENGTH - 9)
    why = ""; after = 0; open = (state == "notrun" || state == "disabled")
    next
  }
  open && after && why == "" && $0 !~ /^[ \t]*$/ { why = $0; sub(/^[ \t]+/, "", why) }
  open && /: Skipped$/ { after = 1 }
  open && /<\/testcase>/ { printf "%s\t%s\t%s\n", name, state, why; open = 0 }
' "$junit")
echo "check-skips: $total tests, $skipped skipped, $unexpected not allowed by $allow"
[ "$unexpected" -eq 0 ] || status=1
exit $status
