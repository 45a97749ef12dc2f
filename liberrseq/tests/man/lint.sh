#!/usr/bin/env bash
# Render every man page under MANROOT/man3 and fail on any warning.
#
# usage: lint.sh MANROOT     (MANROOT holds man3/, as share/man does)
#
# For each page: groff -ww -z -man (every warning on, output discarded,
# through tbl for the ATTRIBUTES tables, as man runs it) must print nothing,
# and man -l (man-db, --warnings) must render it with an empty stderr.
# groff exits 0 on warnings, so the output is what is judged. A real
# page's .TH must name its file and its NAME section must list that name; a
# link page is one '.so man3/PAGE.3' line whose target exists and lists the
# link's name. Runs from MANROOT, where man(1) resolves .so requests.
set -uo pipefail
root=$1
for tool in groff man; do
	command -v "$tool" >/dev/null ||
		{ echo "FAIL: $tool not installed (scripts/deps.sh base)"; exit 1; }
done
cd "$root" || { echo "FAIL: no directory $root"; exit 1; }
shopt -s nullglob
pages=(man3/*.3)
[ ${#pages[@]} -gt 0 ] || { echo "FAIL: no pages in $root/man3"; exit 1; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The names listed in a page's NAME section (the line after .SH NAME).
names_of() {
	sed -n '/^\.SH NAME/{n;p;q}' "$1" | sed 's/ \\-.*//' | tr ',' ' '
}

for p in "${pages[@]}"; do
	name=$(basename "$p" .3)
	first=$(head -n1 "$p")
	if [[ $first == .so\ * ]]; then
		target=${first#.so }
		[ "$(wc -l <"$p")" -eq 1 ] || fail "$p: a link page is one .so line"
		if [ ! -f "$target" ]; then
			fail "$p: links to $target, which does not exist"
		elif ! names_of "$target" | grep -qw -- "$name"; then
			fail "$p: $target does not list $name in its NAME section"
		fi
	else
		th=$(grep -m1 '^\.TH ' "$p" | awk '{ print $2 }')
		[ "$th" = "$name" ] || fail "$p: .TH names '$th', not $name"
		names_of "$p" | grep -qw -- "$name" ||
			fail "$p: NAME section does not list $name"
	fi
	out=$(groff -t -Tutf8 -ww -z -man "$p" 2>&1)
	[ -z "$out" ] || fail "$p: groff -ww -z -man: $out"
	rendered=$(MANWIDTH=80 man --warnings=w -l "$p" 2>"$err")
	[ ! -s "$err" ] || fail "$p: man -l: $(cat "$err")"
	grep -q '^NAME' <<<"$rendered" || fail "$p: man -l rendered no NAME section"
done
if [ "$fails" -gt 0 ]; then
	echo "$fails problem(s) in ${#pages[@]} pages under $root/man3"
	exit 1
fi
echo "${#pages[@]} pages under $root/man3 render with no warning"
