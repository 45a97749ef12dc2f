#!/usr/bin/env bash
# Build a kernel of one line (LIBERRSEQ_KERNEL: 6.1, the default, or 6.12; vm/kernel.env) from
# Debian's linux-source-LINE, out of tree, under $LIBERRSEQ_CACHE/vm/kernel-LINE.
# usage: vm/kernel-build.sh [-q] [--series DIR] FLAVOUR        FLAVOUR: stock | patched
#   stock:   the source as shipped by the package (the pristine tree)
#   patched: the pristine tree plus the series of DIR (--series, else VM_SERIES, else the
#            project's series of the line: scripts/lib.sh, liberrseq_series_dir): DIR/series
#            names the patches in DIR, applied in order (patch -p1)
# Config: make allnoconfig + vm/config/base.config (+ DIR/kernel.config for patched, if
# present) via scripts/kconfig/merge_config.sh, then olddefconfig; every fragment line is
# verified. Also runs modules_prepare so out-of-tree modules build against the tree.
# Prints the build directory and the bzImage path at the end (-q: only those two lines).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

quiet=0
while [ $# -gt 0 ]; do
	case "$1" in
	-q) quiet=1; shift ;;
	--series)
		[ $# -ge 2 ] || die "--series needs a directory"
		VM_SERIES=$(cd "$2" 2>/dev/null && pwd) || die "--series $2: no such directory"
		shift 2
		;;
	-*) die "usage: $0 [-q] [--series DIR] stock|patched" ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || die "usage: $0 [-q] [--series DIR] stock|patched"
flavour=$1
vm_check_flavour "$flavour"
[ "$flavour" = stock ] || [ -d "$VM_SERIES" ] || die "the series directory $VM_SERIES does not exist (--series DIR, VM_SERIES)"

"$LIBERRSEQ_ROOT/scripts/deps.sh" vm
vm_check_source_version
vm_kbuild_env
mkdir -p "$VM_KERNEL_CACHE" "$CCACHE_DIR"

# Serialize builds of the same cache (ctest -j, several shells): the trees are shared state.
exec 9>"$VM_KERNEL_CACHE/.lock"
if ! flock -n 9; then
	log "waiting for another kernel build in $VM_KERNEL_CACHE"
	flock 9
fi

t0=$(date +%s)

# --- 1. The pristine tree (= stock source). Re-extracted only when the tarball changes.
pristine=$(vm_src_dir stock)
src_stamp="$VM_SOURCE_VERSION_INSTALLED $(stat -c '%s %Y' "$LINUX_TARBALL")"
if [ ! -f "$pristine/Makefile" ] || [ "$(cat "$VM_KERNEL_CACHE/stock/source.stamp" 2>/dev/null)" != "$src_stamp" ]; then
	log "extracting $LINUX_TARBALL ($LINUX_SOURCE_PKG $VM_SOURCE_VERSION_INSTALLED) to $pristine"
	rm -rf "$VM_KERNEL_CACHE/stock" "$VM_KERNEL_CACHE/patched"
	mkdir -p "$VM_KERNEL_CACHE/stock/tmp"
	tar -xJf "$LINUX_TARBALL" -C "$VM_KERNEL_CACHE/stock/tmp"
	top=$(find "$VM_KERNEL_CACHE/stock/tmp" -mindepth 1 -maxdepth 1 -type d)
	[ -f "$top/Makefile" ] || die "no kernel Makefile in $LINUX_TARBALL"
	mv "$top" "$pristine"
	rmdir "$VM_KERNEL_CACHE/stock/tmp"
	echo "$src_stamp" >"$VM_KERNEL_CACHE/stock/source.stamp"
fi

# --- 2. The patched tree: pristine + series. Rebuilt only when the series or a patch changes
# (their content, wherever the directory is); rsync -c without -t rewrites only files whose
# content changed (with a fresh mtime), so make and ccache stay incremental.
series_hash() {
	local series=$VM_SERIES/series p
	{
		echo "$src_stamp"
		[ -f "$series" ] && cat "$series"
		for p in $(series_list); do
			sha256sum <"$VM_SERIES/$p"
		done
	} | sha256sum | cut -d' ' -f1
}
series_list() {
	[ -f "$VM_SERIES/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' "$VM_SERIES/series" | sed '/^$/d' |
		awk '{print $1}'
}
if [ "$flavour" = patched ]; then
	want=$(series_hash)
	pdir=$VM_KERNEL_CACHE/patched
	if [ ! -f "$pdir/src/Makefile" ] || [ "$(cat "$pdir/series.stamp" 2>/dev/null)" != "$want" ]; then
		stage=$pdir/stage
		rm -rf "$stage"
		mkdir -p "$pdir"
		log "staging patched tree (hard links to the pristine tree)"
		cp -al "$pristine" "$stage"
		n=0
		for p in $(series_list); do
			[ -f "$VM_SERIES/$p" ] || die "$VM_SERIES/series names $p, which does not exist"
			log "applying $p"
			# GNU patch writes a new file and renames it, so it never writes through the
			# hard links into the pristine tree.
			if ! (cd "$stage" && patch -p1 -N -s --batch --fuzz=0 --no-backup-if-mismatch \
				-r - <"$VM_SERIES/$p"); then
				rm -rf "$stage"
				die "patch $p does not apply to $LINUX_SOURCE_PKG $VM_SOURCE_VERSION_INSTALLED"
			fi
			n=$((n + 1))
		done
		log "syncing $n patch(es) into $pdir/src"
		mkdir -p "$pdir/src"
		rsync -rlpc --delete "$stage/" "$pdir/src/"
		rm -rf "$stage"
		echo "$want" >"$pdir/series.stamp"
	fi
fi

# --- 3. Config. Regenerated when the fragments or the source change.
src=$(vm_src_dir "$flavour")
build=$(vm_build_dir "$flavour")
mkdir -p "$build"
frags=("$VM_DIR/config/base.config")
if [ "$flavour" = patched ] && [ -f "$VM_SERIES/kernel.config" ]; then
	frags+=("$VM_SERIES/kernel.config")
fi
cfg_want=$( {
	cat "$VM_KERNEL_CACHE/$flavour/source.stamp" "$VM_KERNEL_CACHE/$flavour/series.stamp" 2>/dev/null || true
	cat "${frags[@]}"
} | sha256sum | cut -d' ' -f1)
if [ ! -f "$build/.config" ] || [ "$(cat "$build/config.stamp" 2>/dev/null)" != "$cfg_want" ]; then
	log "configuring $flavour: allnoconfig + ${frags[*]#"$LIBERRSEQ_ROOT"/}"
	vm_kmake "$flavour" allnoconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$build" "$build/.config" "${frags[@]}" \
		>"$build/merge_config.log" 2>&1 || { cat "$build/merge_config.log" >&2; die "merge_config.sh failed"; }
	vm_kmake "$flavour" olddefconfig >/dev/null
	bad=()
	for f in "${frags[@]}"; do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*)
				grep -qxF -- "$line" "$build/.config" || bad+=("$line (have: $(grep -E "^(# )?${line%%=*}[= ]" "$build/.config" || echo unset))")
				;;
			"# CONFIG_"*" is not set")
				sym=${line#"# "}
				sym=${sym%% *}
				! grep -q "^$sym=" "$build/.config" || bad+=("$line (have: $(grep "^$sym=" "$build/.config"))")
				;;
			esac
		done <"$f"
	done
	if [ ${#bad[@]} -gt 0 ]; then
		printf '  %s\n' "${bad[@]}" >&2
		rm -f "$build/config.stamp"
		die "kernel config ($flavour): ${#bad[@]} fragment option(s) did not end up set (missing dependency?)"
	fi
	echo "$cfg_want" >"$build/config.stamp"
fi

# --- 4. Build. LOCALVERSION (not CONFIG_LOCALVERSION, which would change autoconf.h and so every
# object) names the flavour in uname -r and the modules' vermagic.
# Up to date, make is not run (its walk of the tree takes 30 s and more): the last build
# was of this config, source and series (build.stamp, with the compiler, written when
# make succeeded) and no file of the source tree is newer than that stamp. VM_REBUILD=1
# runs make anyway.
bz=$(vm_bzimage "$flavour")
built_want=$( {
	echo "$cfg_want $flavour"
	gcc --version | head -n 1
} | sha256sum | cut -d' ' -f1)
if [ -z "${VM_REBUILD:-}" ] && [ -f "$bz" ] &&
	[ "$(cat "$build/build.stamp" 2>/dev/null)" = "$built_want" ] &&
	[ -z "$(find "$src" "$build/.config" -newer "$build/build.stamp" -print -quit)" ]; then
	[ $quiet -eq 1 ] || log "$flavour kernel $(cat "$build/include/config/kernel.release") up to date" \
		"(no source newer than its last build; VM_REBUILD=1 runs make anyway)"
	echo "build dir: $build"
	echo "bzImage:   $bz"
	exit 0
fi
rm -f "$build/build.stamp"
[ $quiet -eq 1 ] || log "building $flavour kernel in $build (make -j$(nproc), ccache $CCACHE_DIR)"
ccache -z >/dev/null
log_file=$build/build.log
if ! vm_kmake "$flavour" LOCALVERSION="-liberrseq-$flavour" all modules_prepare >"$log_file" 2>&1; then
	tail -n 60 "$log_file" >&2
	die "kernel build ($flavour) failed; full log: $log_file"
fi
grep -E 'warning:|error:' "$log_file" | head -n 20 >&2 || true
[ -f "$bz" ] || die "build finished but $bz is missing"
echo "$built_want" >"$build/build.stamp"
t1=$(date +%s)
if [ $quiet -eq 0 ]; then
	stats=$(ccache --print-stats 2>/dev/null | awk -F'\t' '
		$1=="direct_cache_hit"||$1=="preprocessed_cache_hit"{h+=$2}
		$1=="cache_miss"{m=$2} END{printf "%d hits, %d misses", h, m}')
	log "$flavour kernel $(cat "$build/include/config/kernel.release") built in $((t1 - t0)) s (ccache: $stats)"
fi
echo "build dir: $build"
echo "bzImage:   $bz"
