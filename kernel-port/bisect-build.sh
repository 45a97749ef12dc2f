#!/usr/bin/env bash
# Bisectability: build the kernel after every patch of a line's series, in order, with the
# patched flavour's config (vm/config/base.config + kernel-port/LINE/patches/kernel.config,
# merged again after every patch, so an option a patch adds is set from then on).
# usage: kernel-port/bisect-build.sh [--from N] [--mutate]   (LINE: LIBERRSEQ_KERNEL, default 6.1)
#   --from N   start building after patch N (the patches before it are applied unbuilt)
#   --mutate   after the first patch built, append an #error line to a C file it touches:
#              the check must then fail at that patch (exit 1), which shows it bites
# One tree under $LIBERRSEQ_CACHE/kport/LINE/bisect/{src,build}, rebuilt incrementally by make
# after each patch (only what the patch changed and what depends on it), through the vm/
# ccache: the same relative layout as vm/'s FLAVOUR/{src,build}, so a warm ccache serves it.
# Prints one line per patch (build time, new warnings in the files it touches); exit 1 at
# the first patch after which `make vmlinux` fails (its log tail printed), 2 on setup errors.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$LIBERRSEQ_ROOT/vm/lib.sh"
trap 'exit 2' ERR

from=1 mutate=0
while [ $# -gt 0 ]; do
	case "$1" in
	--from) from=$2; shift 2 ;;
	--mutate) mutate=1; shift ;;
	*) echo "usage: $0 [--from N] [--mutate]" >&2; exit 2 ;;
	esac
done

"$LIBERRSEQ_ROOT/scripts/deps.sh" vm
vm_check_source_version
vm_kbuild_env
base=$KP_CACHE/bisect
export CCACHE_BASEDIR=$base
exec 9>"$KP_CACHE/.bisect.lock"
flock 9

# The pristine tree: vm/'s stock source when there, else extracted here. The build tree starts
# empty (make goes by mtimes: objects of the last run's patched files would look up to date).
rm -rf "$base/src" "$base/build"
mkdir -p "$base/build"
if [ -f "$(vm_src_dir stock)/Makefile" ]; then
	cp -al "$(vm_src_dir stock)" "$base/src"
else
	log "extracting $LINUX_TARBALL"
	mkdir -p "$base/src"
	tar -xJf "$LINUX_TARBALL" -C "$base/src" --strip-components=1
fi
kmake() {
	nice -n "${VM_NICE:-10}" make -s -C "$base/src" O="$base/build" ARCH=x86_64 \
		CC="ccache gcc" HOSTCC="ccache gcc" -j"$(nproc)" "$@"
}
configure() {
	kmake allnoconfig >/dev/null
	"$base/src/scripts/kconfig/merge_config.sh" -m -O "$base/build" "$base/build/.config" \
		"$VM_DIR/config/base.config" "$KP_PATCHES/kernel.config" >"$base/build/merge.log" 2>&1
	kmake olddefconfig >/dev/null
}

n=0 total=$(kp_series_list | wc -l) t_all=$(date +%s)
log "$KLINE: building after each of the $total patches (from $from) in $base"
for p in $(kp_series_list); do
	n=$((n + 1))
	# GNU patch writes a new file and renames it: the hard links to vm/'s tree stay intact.
	(cd "$base/src" && patch -p1 -N -s --batch --fuzz=0 --no-backup-if-mismatch -r - \
		<"$KP_PATCHES/$p") || { echo "FAIL: $p does not apply"; exit 1; }
	[ "$n" -ge "$from" ] || continue
	if [ $mutate = 1 ] && [ "$n" -gt "$from" ]; then
		# the previous patch built; break a C file this one touches
		f=$(grep -m1 -E '^\+\+\+ b/.*\.c$' "$KP_PATCHES/$p" | sed 's|^+++ b/||')
		[ -n "$f" ] || { echo "error: --mutate: $p touches no C file" >&2; exit 2; }
		# a new file, not an append: the tree is hard links to vm/'s pristine source
		{ cat "$base/src/$f"; echo '#error bisect-build.sh --mutate'; } >"$base/src/$f.mut"
		mv "$base/src/$f.mut" "$base/src/$f"
		log "--mutate: $f of $p now has an #error line"
	fi
	t0=$(date +%s)
	configure
	ccache -z >/dev/null
	if ! kmake LOCALVERSION=-bisect vmlinux >"$base/build/build-$n.log" 2>&1; then
		tail -n 40 "$base/build/build-$n.log"
		echo "FAIL: [$n/$total] $p: the kernel does not build after it (log: $base/build/build-$n.log)"
		exit 1
	fi
	# warnings in the C files this patch touches
	files=$(grep -E '^\+\+\+ b/.*\.[ch]$' "$KP_PATCHES/$p" | sed 's|^+++ b/||' | tr '\n' '|')
	warn=0
	[ -z "$files" ] || warn=$(grep -E 'warning:' "$base/build/build-$n.log" | grep -cE "(${files%|})" || true)
	hits=$(ccache --print-stats 2>/dev/null | awk -F'\t' '$1=="direct_cache_hit"||$1=="preprocessed_cache_hit"{h+=$2} $1=="cache_miss"{m=$2} END{printf "%d hits, %d misses", h, m}')
	echo "ok: [$n/$total] $p: built in $(($(date +%s) - t0)) s ($hits), $warn warning(s) in its files"
	[ "$warn" -eq 0 ] || { grep -E 'warning:' "$base/build/build-$n.log" | grep -E "(${files%|})"; exit 1; }
done
echo "PASS: $KLINE: the kernel builds after each of the $total patches ($(($(date +%s) - t_all)) s)"
