#!/usr/bin/env bash
# Fails, listing them, when a C or C++ function in src/, tools/ or web/ is longer than the limit:
#   scripts/check-function-length.sh [--max LINES] [--exclude PATTERN]... [PATH...]
# Lengths are Universal Ctags' (Debian: universal-ctags) definition lines: first line to end line,
# signature and closing brace included. Lambdas count toward the function that holds them (and
# are listed on their own, as "lambda in F", only when they alone pass the limit). PATHs are
# relative to the repository; --exclude takes ctags' --exclude patterns (a file or folder name, or
# a glob). JavaScript (web/page.js) is not measured: Universal Ctags 5.9 gives its functions no
# end line.
set -euo pipefail

# A function longer than this does more than one thing: split it by meaning (STYLE.md).
max=120
excludes=()
paths=()
while [ $# -gt 0 ]; do
  case "$1" in
    --max) max=${2:?--max needs a number of lines}; shift 2 ;;
    --exclude) excludes+=("--exclude=${2:?--exclude needs a pattern}"); shift 2 ;;
    -*) echo "check-function-length: unknown option '$1'" >&2; exit 2 ;;
    *) paths+=("$1"); shift ;;
  esac
done
cd "$(dirname "$0")/.."
[ ${#paths[@]} -gt 0 ] || paths=(src tools web)

if ! ctags --version 2>/dev/null | grep -q "Universal Ctags"; then
  echo "check-function-length: needs Universal Ctags as 'ctags' (Debian: universal-ctags;" \
       "scripts/install-deps.sh installs it)" >&2
  exit 2
fi

# Universal Ctags 5.9 (Debian 12) drops a function template whose parameter list holds a comma
# and whose return type is one of its parameters (template <typename T, typename U> T f(...)),
# and, inside a namespace, every function of an #else branch (the Draco and meshopt decoders).
# ctags therefore reads a copy of the sources with every template parameter list blanked and
# every #if / #ifdef / #ifndef / #elif / #else / #endif line emptied, so that it sees all the
# branches (ours each hold whole statements or functions): the same lines, the same paths below
# the copy's root.
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
find "${paths[@]}" -type f \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' \
  -o -name '*.h' -o -name '*.hh' -o -name '*.hpp' -o -name '*.hxx' -o -name '*.inl' \) -print0 |
  COPY="$copy" perl -MFile::Path=make_path -MFile::Basename=dirname -0 -ne '
    chomp(my $file = $_);
    open(my $in, "<", $file) or die "check-function-length: $file: $!\n";
    my $text = do { local $/; <$in> };
    $text =~ s{\btemplate\s*(<(?:[^<>]++|(?1))*>)}{$& =~ s/[^\n]/ /gr}ge;
    $text =~ s/^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|else|endif)\b[^\n]*//mg;
    make_path(dirname("$ENV{COPY}/$file"));
    open(my $out, ">", "$ENV{COPY}/$file") or die "check-function-length: $file: $!\n";
    print $out $text;'
# One line per function, tab-separated: start line, end line, file, scope (may be empty), name.
listing=$(cd "$copy" && ctags -x --_xformat=$'%{line}\t%{end}\t%F\t%{scope}\t%N' \
            --languages=C,C++ --kinds-C++=f --kinds-C=f "${excludes[@]}" -R "${paths[@]}")
functions=$(printf '%s\n' "$listing" | grep -c . || true)
if [ "$functions" -eq 0 ]; then
  echo "check-function-length: ctags found no function in ${paths[*]}" >&2
  exit 2
fi
# A function without an end line cannot be measured: that is a failure too, never a pass.
unmeasured=$(printf '%s\n' "$listing" | awk -F'\t' '!($1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF == 5)')
if [ -n "$unmeasured" ]; then
  echo "check-function-length: ctags gave no end line for:" >&2
  printf '%s\n' "$unmeasured" | sed 's/^/  /' >&2
  exit 2
fi
too_long=$(printf '%s\n' "$listing" | awk -F'\t' -v max="$max" '
  {
    lines = $2 - $1 + 1
    if (lines <= max) next
    scope = $4
    gsub(/__anon[0-9a-f]+(::)?/, "", scope)  # unnamed namespaces and lambdas
    sub(/::$/, "", scope)
    name = $5
    name = (name ~ /^__anon/ ? "lambda in " scope : (scope == "" ? "" : scope "::") name)
    printf "%d %s:%d %s\n", lines, $3, $1, name
  }' | sort -rn)
if [ -n "$too_long" ]; then
  echo "check-function-length: functions over $max lines (lines, file:line, name):"
  printf '%s\n' "$too_long" | sed 's/^/  /'
  exit 1
fi
echo "check-function-length: $functions functions, none over $max lines"
