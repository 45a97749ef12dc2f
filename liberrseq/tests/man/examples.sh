#!/usr/bin/env bash
# Every page under MANROOT/man3 that is not a link page has an EXAMPLES
# section whose first .EX block is a whole program: extract it (undoing
# the groff escapes), compile it with -std=c99 -pedantic -Wall -Wextra
# -Werror against the headers and the built libraries, run it, and when the
# section says "It prints:", compare its output (stderr, then stdout) with
# the .EX block that follows.
#
# usage: examples.sh MANROOT INCLUDE_DIR LIBDIR CC
# Exits 77 (skipped) when a page needs liberrseq-table and LIBDIR has none
# (built without liburcu), after checking every other page.
set -uo pipefail
root=$1 inc=$2 lib=$3 cc=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0 skipped=() n=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# block FILE K: the K-th .EX block of FILE's EXAMPLES section, unescaped;
# exit 1 on an escape it does not know.
block() {
	awk -v k="$2" '
		/^\.SH / { in_ex = ($0 == ".SH EXAMPLES"); next }
		in_ex && /^\.EX$/ { n++; on = (n == k); next }
		in_ex && /^\.EE$/ { on = 0; next }
		on { print }' "$1" |
		sed -e 's/\\e/\x01/g' -e 's/\\-/-/g' -e 's/\\&//g' \
			-e "s/\\\\(aq/'/g" -e 's/\\(dq/"/g' >"$work/raw"
	if grep -n '\\' "$work/raw" >&2; then
		echo "unknown groff escape in $1" >&2
		return 1
	fi
	tr '\001' '\\' <"$work/raw"
}

for page in "$root"/man3/*.3; do
	name=$(basename "$page" .3)
	[[ $(head -n1 "$page") == .so\ * ]] && continue
	n=$((n + 1))
	grep -qx '.SH EXAMPLES' "$page" || { fail "$name(3) has no EXAMPLES section"; continue; }
	block "$page" 1 >"$work/$name.c" || { fail "$name(3): bad escape"; continue; }
	grep -q 'int main(' "$work/$name.c" || { fail "$name(3): the example is not a program (no main)"; continue; }
	libs=(-lerrseq)
	if grep -q '#include <errseq_table.h>' "$work/$name.c"; then
		if ! ls "$lib"/liberrseq-table.so >/dev/null 2>&1; then
			skipped+=("$name")
			continue
		fi
		libs=(-lerrseq-table -lerrseq)
	fi
	if ! out=$("$cc" -std=c99 -pedantic -Wall -Wextra -Werror -pthread -I"$inc" \
		-o "$work/$name" "$work/$name.c" -L"$lib" "${libs[@]}" -Wl,-rpath,"$lib" 2>&1); then
		fail "$name(3): the example does not compile:"
		echo "$out"
		continue
	fi
	# liberrseq-table.so finds liberrseq.so.1 through the path, not the program's RUNPATH
	LD_LIBRARY_PATH=$lib timeout 60 "$work/$name" >"$work/$name.out" 2>&1
	rc=$?
	[ "$rc" -eq 0 ] || { fail "$name(3): the example exits $rc:"; cat "$work/$name.out"; continue; }
	if grep -qx 'It prints:' "$page"; then
		block "$page" 2 >"$work/$name.want" || { fail "$name(3): bad escape"; continue; }
		if ! diff -u "$work/$name.want" "$work/$name.out"; then
			fail "$name(3): the example's output differs from what the page says"
			continue
		fi
		echo "ok   $name(3): compiles, runs, prints what the page says"
	else
		echo "ok   $name(3): compiles and runs"
	fi
done
[ "$fails" -eq 0 ] || { echo "$fails of $n pages"; exit 1; }
if [ ${#skipped[@]} -gt 0 ]; then
	echo "SKIP: no liberrseq-table in $lib (built without liburcu) for: ${skipped[*]}"
	exit 77
fi
echo "the examples of all $n pages compile with -std=c99 -pedantic and run"
