#!/usr/bin/env bash
# The shared libraries' ABI against the committed abidw dumps in ABI_DIR
# (liberrseq/abi/NAME-MAJOR.MINOR.abi: x86-64, the types reachable from the
# exported functions, private ones dropped). Each library is dumped the same
# way, and abidiff compares the two dumps:
#   - against the dump of its own version, any change fails (abidiff exits
#     non-zero: a function added, removed or changed, a type reachable from
#     one changed, even a member added into padding);
#   - against the dumps of earlier versions with the same soname, an
#     incompatible change fails (additions are what a minor version adds).
# With --update, writes the dump of each library's version instead (when
# cutting a release whose ABI is meant to change; commit it).
#
# usage: check.sh [--update] ABI_DIR INCLUDE_DIR LIBRARY.so.X.Y.Z...
# Exits 77 (skipped) without abigail-tools, off x86-64, or without debug info.
set -uo pipefail
update=0
[ "${1:-}" = --update ] && { update=1; shift; }
abi=$1 inc=$2; shift 2
skip() { echo "SKIP: $*"; exit 77; }
for t in abidw abidiff readelf; do
	command -v "$t" >/dev/null || skip "$t is missing (abigail-tools, binutils: scripts/deps.sh base)"
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0

# compare WHAT DUMP MASK: abidiff the fresh dump against DUMP; fail when its
# exit status has a bit of MASK (1: error, 4: any change, 8: incompatible).
compare() {
	local out rc
	out=$(abidiff "$2" "$fresh" 2>&1)
	rc=$?
	if [ $((rc & $3)) -ne 0 ]; then
		echo "FAIL: $file: $1 ${2##*/} (abidiff exit $rc):"
		echo "$out"
		fails=$((fails + 1))
	else
		echo "ok   $file: $1 ${2##*/}"
	fi
}

for lib in "$@"; do
	file=$(basename "$lib")                 # liberrseq.so.1.1.0
	name=${file%%.so.*}                     # liberrseq
	ver=${file#*.so.}                       # 1.1.0
	major=${ver%%.*} minor=${ver#*.}; minor=${minor%%.*}
	machine=$(readelf -h "$lib" | sed -n 's/^ *Machine: *//p')
	[[ $machine == *X86-64* ]] || skip "$file is $machine: the dumps are x86-64's"
	readelf -S "$lib" | grep -F .debug_info >/dev/null ||
		skip "$file has no debug info: abidw needs it (CMAKE_BUILD_TYPE RelWithDebInfo or Debug)"
	own=$abi/$name-$major.$minor.abi
	fresh=$work/$name.abi
	[ "$update" = 1 ] && fresh=$own
	abidw --no-corpus-path --no-comp-dir-path --no-show-locs --headers-dir "$inc" \
		--drop-private-types --drop-undefined-syms "$lib" >"$fresh" ||
		{ echo "FAIL: abidw $file"; exit 1; }
	if [ "$update" = 1 ]; then
		echo "wrote $own"
		continue
	fi
	if [ -f "$own" ]; then
		compare "the ABI of" "$own" 13
	else
		echo "FAIL: no ABI dump for $name $major.$minor: $own (check.sh --update makes it)"
		fails=$((fails + 1))
	fi
	for old in "$abi/$name-$major".*.abi; do
		[ -f "$old" ] && [ "$old" != "$own" ] || continue
		compare "compatible with" "$old" 9
	done
done
[ "$fails" -eq 0 ] || exit 1
