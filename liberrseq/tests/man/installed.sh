#!/usr/bin/env bash
# Install the build into a scratch prefix; every page of the source tree must
# land in share/man/man3 and nothing else there, and each must be found and
# rendered with no warning by man -M PREFIX/share/man and by groff -ww from
# there (so link pages resolve from the installed tree, as they will for
# users). lint.sh checks the same pages in the source tree.
#
# usage: installed.sh BUILD_DIR SRC_MANROOT
set -uo pipefail
build=$1 src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null ||
	{ echo "FAIL: cmake --install"; exit 1; }
man=$work/prefix/share/man
[ -d "$man/man3" ] || { echo "FAIL: no share/man/man3 installed"; exit 1; }
want=$(cd "$src/man3" && ls)
got=$(cd "$man/man3" && ls)
[ "$want" = "$got" ] ||
	{ echo "FAIL: share/man/man3 differs from liberrseq/man/man3:"; diff <(echo "$want") <(echo "$got"); exit 1; }

fails=0
for p in "$man"/man3/*.3; do
	name=$(basename "$p" .3)
	first=$(head -n1 "$p")
	page=$name
	[[ $first == .so\ * ]] && page=$(basename "${first#.so }" .3)
	warn=$(cd "$man" && groff -t -Tutf8 -ww -z -man "man3/$name.3" 2>&1)
	[ -z "$warn" ] || { echo "FAIL: installed man3/$name.3: $warn"; fails=$((fails + 1)); }
	out=$(MANWIDTH=80 man --warnings=w -M "$man" 3 "$name" 2>"$work/err")
	if [ -s "$work/err" ] || ! head -n1 <<<"$out" | grep -q "^$page(3)"; then
		echo "FAIL: man -M share/man 3 $name: expected $page(3), got:" \
			"$(head -n1 <<<"$out") $(cat "$work/err")"
		fails=$((fails + 1))
	fi
done
[ "$fails" -eq 0 ] || exit 1
echo "$(echo "$got" | wc -l) pages installed in share/man/man3; man finds and renders each"
