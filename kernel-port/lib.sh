# Sourced by the kernel-port/ scripts: the patch series, pristine files from the pinned tarball.
# shellcheck shell=bash
KP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$KP_DIR/../scripts/lib.sh"
. "$KP_DIR/../vm/kernel-line.sh"
# the line's series: LINE/patches (scripts/lib.sh, liberrseq_series_dir, the one default
# vm/kernel-build.sh also builds); KP_PATCHES checks another
KP_PATCHES=${KP_PATCHES:-$(liberrseq_series_dir "$KLINE")}
KP_CACHE=$LIBERRSEQ_CACHE/kport/$KLINE
mkdir -p "$KP_CACHE"

# Patch file names of the series, in order (comments and blank lines dropped).
kp_series_list() {
	[ -f "$KP_PATCHES/series" ] || die "$KP_PATCHES/series missing"
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$KP_PATCHES/series" |
		sed '/^$/d' | awk '{print $1}'
}

# Print the path of a copy of pristine file $1 (path inside the kernel tree) extracted from
# $LINUX_TARBALL, cached under $KP_CACHE/pristine-files (re-extracted if the tarball changes).
# Prints nothing (and succeeds) when the file is not in the tarball.
kp_pristine_file() {
	local rel=$1 dir=$KP_CACHE/pristine-files stamp top
	[ -f "$LINUX_TARBALL" ] || die "$LINUX_TARBALL missing (install $LINUX_SOURCE_PKG)"
	stamp="$(stat -c '%s %Y' "$LINUX_TARBALL")"
	mkdir -p "$dir"
	(
		flock 9
		if [ "$(cat "$dir/stamp" 2>/dev/null)" != "$stamp" ]; then
			rm -rf "$dir/tree" "$dir/missing"
			mkdir -p "$dir/tree" "$dir/missing"
			echo "$stamp" >"$dir/stamp"
		fi
		if [ ! -f "$dir/tree/$rel" ] && [ ! -f "$dir/missing/${rel//\//_}" ]; then
			top=$(tar -tJf "$LINUX_TARBALL" | head -n 1 | cut -d/ -f1)
			if tar -xJf "$LINUX_TARBALL" -C "$dir/tree" --strip-components=1 \
				"$top/$rel" 2>/dev/null; then
				:
			else
				: >"$dir/missing/${rel//\//_}"
			fi
		fi
	) 9>"$dir/.lock"
	[ -f "$dir/tree/$rel" ] && echo "$dir/tree/$rel"
	return 0
}

# Write to $2 file $1 as the whole series leaves it: the pristine file (or nothing, for a file
# the series creates) with every series patch's hunks for that path applied in order.
kp_patched_file() {
	local rel=$1 out=$2 work p pristine
	work=$(mktemp -d)
	mkdir -p "$work/t/$(dirname "$rel")"
	pristine=$(kp_pristine_file "$rel")
	[ -z "$pristine" ] || cp "$pristine" "$work/t/$rel"
	for p in $(kp_series_list); do
		grep -q "^diff --git a/$rel b/$rel\$" "$KP_PATCHES/$p" || continue
		(cd "$work/t" && git apply --include="$rel" "$KP_PATCHES/$p") || {
			rm -rf "$work"
			die "$p: hunks for $rel do not apply"
		}
	done
	[ -f "$work/t/$rel" ] || { rm -rf "$work"; die "$rel: neither in the tarball nor created by the series"; }
	cp "$work/t/$rel" "$out"
	rm -rf "$work"
}
