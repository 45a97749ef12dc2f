#!/usr/bin/env bash
# Compare W=1 warnings of the objects a patch series touches: pristine tree vs patched tree.
# usage: kernel-port/w1-check.sh PRISTINE_SRC PATCHED_SRC CONFIG OBJ...
#   (kernel-port/README.md shows how the trees were set up; both are built out of tree under
#   $LIBERRSEQ_CACHE/kport/w1-{pristine,patched} with CONFIG as .config)
# Prints the warnings only the patched tree has (line numbers and paths stripped) and exits 1
# if there are any.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ $# -ge 4 ] || die "usage: $0 PRISTINE_SRC PATCHED_SRC CONFIG OBJ..."
psrc=$1 nsrc=$2 cfg=$3
shift 3
export CCACHE_DIR=${CCACHE_DIR:-$KP_CACHE/ccache}
for side in pristine patched; do
	src=$psrc
	[ $side = patched ] && src=$nsrc
	out=$KP_CACHE/w1-$side
	mkdir -p "$out"
	cmp -s "$cfg" "$out/.config" || { cp "$cfg" "$out/.config"; make -s -C "$src" O="$out" ARCH=x86_64 olddefconfig; }
	for o in "$@"; do rm -f "$out/$o"; done
	# Objects that do not exist in a tree (new files) are skipped there.
	objs=()
	for o in "$@"; do [ -f "$src/${o%.o}.c" ] && objs+=("$o"); done
	nice -n 5 make -C "$src" O="$out" ARCH=x86_64 CC="ccache gcc" -j"$(nproc)" W=1 "${objs[@]}" \
		>"$out/w1.log" 2>&1 || { tail -n 40 "$out/w1.log"; die "W=1 build failed ($side)"; }
	grep -E 'warning:|error:' "$out/w1.log" | sed -E "s|$src/||; s|^([^:]+):[0-9]+(:[0-9]+)?:|\1:|" |
		sort -u >"$out/w1.warnings"
done
new=$(comm -13 "$KP_CACHE/w1-pristine/w1.warnings" "$KP_CACHE/w1-patched/w1.warnings")
echo "W=1 on $*: $(wc -l <"$KP_CACHE/w1-pristine/w1.warnings") warning(s) pristine, $(wc -l <"$KP_CACHE/w1-patched/w1.warnings") patched"
if [ -n "$new" ]; then
	echo "new warnings:"
	echo "$new"
	exit 1
fi
echo "no new warnings"
